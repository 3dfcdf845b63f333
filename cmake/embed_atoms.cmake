# Turns data/atoms.jsonl into a C++ source with the catalogue as string
# literals, so that the layoutx binary needs no data file at run time.
# Run as: cmake -DINPUT=atoms.jsonl -DOUTPUT=atoms_data.cpp -P embed_atoms.cmake
cmake_minimum_required(VERSION 3.20)

file(STRINGS "${INPUT}" lines ENCODING UTF-8)
# The texts, each once and ended by a NUL, in one array; each atom's fields are
# offsets into it. Pointers in a table would each be relocated by the loader at
# every start of the program (22,000 of them took 150,000 instructions).
set(text "")
set(text_size 0)
set(fields "")
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
  set(offsets "")
  foreach(field kind name shape thr l0 l1 l2 origin)
    string(MD5 key "${${field}}")
    if(NOT DEFINED offset_${key})
      set(offset_${key} ${text_size})
      string(APPEND text "    \"${${field}}\\0\"\n")
      string(LENGTH "${${field}}" length)
      math(EXPR text_size "${text_size} + ${length} + 1")
    endif()
    list(APPEND offsets ${offset_${key}})
  endforeach()
  list(JOIN offsets ", " offsets)
  string(APPEND fields "    {${offsets}},\n")
endforeach()

file(WRITE "${OUTPUT}.tmp"
"// Generated from data/atoms.jsonl by cmake/embed_atoms.cmake: do not edit.
#include \"atoms_data.hpp\"

#include <cstdint>

namespace layoutx::atoms_data {

namespace {

const char kText[] =
${text};

// kind, name, shape_mnk, thr_id, layout0, layout1, layout2, origin
const std::uint32_t kFields[][8] = {
${fields}};

}  // namespace

RawAtom AtomTable::operator[](std::size_t i) const {
  const std::uint32_t* f = kFields[i];
  return {kText + f[0], kText + f[1], kText + f[2], kText + f[3], kText + f[4], kText + f[5], kText + f[6], kText + f[7]};
}

const AtomTable kAtoms;
const std::size_t kAtomCount = sizeof(kFields) / sizeof(kFields[0]);

}  // namespace layoutx::atoms_data
")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
