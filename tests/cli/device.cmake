# `check` and the --device options through the command line (ctest cli_device).
# check without --device runs the independent evaluator on the CPU and must
# pass; check --device and offsets --device answer on a GPU, and without one
# fail cleanly: exit 1, a message on stderr saying why, nothing on stdout.
#   cmake -DLAYOUTX=path/to/layoutx -P device.cmake
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

set(no_gpu "no CUDA GPU found|built without CUDA")

# On the CPU: every property of a divide holds.
layoutx(check "logical_divide((8,8):(8,1), (2,4))")
string(REGEX MATCHALL "  ok    " oks "${out}")
list(LENGTH oks n)
if(NOT rc EQUAL 0 OR NOT n EQUAL 4)
  fail("check on the CPU should report four properties that hold")
endif()

# A rejected expression: exit 1, nothing on stdout.
layoutx(check "(4,3):(3,1,2)")
if(NOT rc EQUAL 1 OR NOT out STREQUAL "")
  fail("check of a rejected expression must exit 1 with nothing on stdout")
endif()

layoutx(offsets "(4,3):(3,1)")
set(host_offsets "${out}")

layoutx(check --device "(4,3):(3,1)" "Sw<3,4,3> o (8,64):(64,1)")
if(rc EQUAL 0)
  if(NOT out MATCHES "^device: " OR out MATCHES "FAIL")
    fail("check --device on a GPU must name it and find no mismatch")
  endif()
elseif(NOT rc EQUAL 1 OR NOT out STREQUAL "" OR NOT err MATCHES "${no_gpu}")
  fail("check --device without a GPU must exit 1, write nothing on stdout and say why")
endif()

layoutx(offsets --device "(4,3):(3,1)")
if(rc EQUAL 0)
  if(NOT out STREQUAL host_offsets)
    fail("offsets --device differs from offsets")
  endif()
elseif(NOT rc EQUAL 1 OR NOT out STREQUAL "" OR NOT err MATCHES "${no_gpu}")
  fail("offsets --device without a GPU must exit 1, write nothing on stdout and say why")
endif()

layoutx(offsets --device -f csv "(4,3):(3,1)")
if(rc EQUAL 0 OR NOT err MATCHES "plain format")
  fail("offsets --device -f csv must be refused: the plain format only")
endif()

# layoutx without its GPU evaluator (a CUDA build's layoutx-gpu.so, opened on
# the first GPU request) beside it, or built without CUDA: --device fails as
# cleanly and names what is missing.
get_filename_component(program "${LAYOUTX}" NAME)
set(alone "${CMAKE_CURRENT_BINARY_DIR}/device_alone")
file(REMOVE_RECURSE "${alone}")
file(COPY "${LAYOUTX}" DESTINATION "${alone}")
set(LAYOUTX "${alone}/${program}")
set(missing "GPU evaluator layoutx-gpu.so is missing|built without CUDA")
layoutx(check --device "(4,3):(3,1)")
expect(1 "" "${missing}" "check --device without the GPU module")
layoutx(offsets --device "(4,3):(3,1)")
expect(1 "" "${missing}" "offsets --device without the GPU module")
file(REMOVE_RECURSE "${alone}")
