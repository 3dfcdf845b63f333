# Turns data/atoms.jsonl into a C++ source with the catalogue as string
# literals, so that the layoutx binary needs no data file at run time.
# Run as: cmake -DINPUT=atoms.jsonl -DOUTPUT=atoms_data.cpp -P embed_atoms.cmake
cmake_minimum_required(VERSION 3.20)

file(STRINGS "${INPUT}" lines ENCODING UTF-8)
set(body "")
set(count 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  math(EXPR count "${count} + 1")
  string(JSON kind GET "${line}" kind)
  string(JSON name GET "${line}" name)
  string(JSON thr GET "${line}" ThrID)
  if(kind STREQUAL "mma")
    string(JSON shape GET "${line}" Shape_MNK)
    string(JSON l0 GET "${line}" ALayout)
    string(JSON l1 GET "${line}" BLayout)
    string(JSON l2 GET "${line}" CLayout)
  elseif(kind STREQUAL "copy")
    set(shape "")
    string(JSON l0 GET "${line}" SrcLayout)
    string(JSON l1 GET "${line}" DstLayout)
    string(JSON l2 GET "${line}" RefLayout)
  else()
    message(FATAL_ERROR "${INPUT}:${count}: unknown atom kind '${kind}'")
  endif()
  string(JSON origin ERROR_VARIABLE no_origin GET "${line}" derived_from)
  if(no_origin)
    set(origin "printed by CuTe")
  endif()
  foreach(field kind name thr shape l0 l1 l2 origin)
    if("${${field}}" MATCHES "[\"\\\\]")
      message(FATAL_ERROR "${INPUT}:${count}: quote or backslash in ${field}")
    endif()
  endforeach()
  string(APPEND body "    {\"${kind}\", \"${name}\", \"${shape}\", \"${thr}\", \"${l0}\", \"${l1}\", \"${l2}\", \"${origin}\"},\n")
endforeach()

file(WRITE "${OUTPUT}.tmp"
"// Generated from data/atoms.jsonl by cmake/embed_atoms.cmake: do not edit.
#include \"atoms_data.hpp\"

namespace layoutx::atoms_data {

const RawAtom kAtoms[] = {
${body}};
const std::size_t kAtomCount = sizeof(kAtoms) / sizeof(kAtoms[0]);

}  // namespace layoutx::atoms_data
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
