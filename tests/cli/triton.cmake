# Triton layouts wherever a layout is expected (ctest cli_triton): encodings
# laid over --shape become their CuTe forms; bad Triton text is refused with
# a located message and nothing on stdout.
#   cmake -DLAYOUTX=path/to/layoutx -P triton.cmake
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

set(blocked "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>")
set(nvmma "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>")

layoutx(--shape 16,32 eval "${blocked}")
expect(0 "^\\(\\(8,16\\),4\\):\\(\\(64,1\\),16\\)\n$" "^$" "a blocked encoding is a CuTe TV layout")
layoutx(--shape 8,64 eval "${nvmma}")
expect(0 "^Sw<3,3,3> o 0 o \\(8,64\\):\\(64,1\\)\n$" "^$" "an NVMMA shared encoding is a swizzled smem layout")
layoutx(--shape 8,64 eq "${nvmma}" "Sw<3,3,3> o (8,64):(64,1)")
expect(0 "equal: true" "^$" "eq between a Triton and a CuTe layout")
layoutx(eval "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>")
expect(0 "^\\(\\(8,16\\),4\\):\\(\\(64,1\\),16\\)\n$" "^$" "a linear layout carries its own shape")
layoutx(eval "${blocked}")
expect(1 "" "needs the tensor shape \\(--shape" "an encoding without --shape")
layoutx(--shape 16,32 eval "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1]}>")
expect(1 "" "#ttg.blocked needs the field 'order'" "a missing field")
layoutx(--shape 16,32 eval "#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>")
expect(1 "" "powers of two.*\n.*\n *\\^" "a located error has a caret")
layoutx(--shape 16,32 eval "#ttg.blocked<{sizePerThread = [1, 4]")
expect(1 "" "expected" "truncated text")

# emit --triton: the linear layout attribute, of an encoding or of its CuTe TV layout.
set(linear "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>")
layoutx(emit --triton --shape 16,32 "${blocked}")
if(NOT rc EQUAL 0 OR NOT out STREQUAL "${linear}\n")
  fail("emit --triton of a blocked encoding should print exactly ${linear}")
endif()
layoutx(emit --triton --shape 16,32 "((8,16),4):((64,1),16)")
if(NOT rc EQUAL 0 OR NOT out STREQUAL "${linear}\n")
  fail("emit --triton of the CuTe TV layout should print exactly ${linear}")
endif()
layoutx(emit --triton --smem --shape 8,64 "Sw<3,3,3> o (8,64):(64,1)")
expect(0 "^#ttg.shared_linear<\\{offset = \\[\\[0, 1\\], \\[0, 2\\], \\[0, 4\\], \\[0, 8\\], \\[0, 16\\], \\[0, 32\\], \\[1, 8\\], \\[2, 16\\], \\[4, 32\\]\\], block = \\[\\]\\}, alignment = 16>\n$" "^$" "emit --triton --smem of a swizzled smem layout")
layoutx(emit --triton --shape 16,32 "((3,16),4):((64,1),16)")
expect(1 "" "thread mode 0 \\(3:64\\) is not linear over F2: its extent 3 is not a power of two" "a mode that is not linear over F2")

# tv of a Triton layout alone: its tile is the tensor (--shape, or the shape a
# linear layout carries), as if TILE were given.
layoutx(--shape 16,32 tv "${blocked}" "(16,32)")
set(with_tile "${out}")
layoutx(--shape 16,32 tv "${blocked}")
if(NOT rc EQUAL 0 OR NOT out STREQUAL "${with_tile}")
  fail("tv of a Triton layout without TILE should show it over its shape (16,32)")
endif()
layoutx(tv "${linear}")
if(NOT rc EQUAL 0 OR NOT out STREQUAL "${with_tile}")
  fail("tv of a #ttg.linear without TILE should show it over the shape it carries")
endif()
layoutx(tv "((8,16),4):((64,1),16)")
expect(2 "" "tv takes TV_LAYOUT and TILE, or --atom NAME" "a CuTe TV layout still needs its TILE")

# Layouts over a cluster of CTAs: the thread index goes on through the block.
layoutx(--shape 64,32 eval "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>")
expect(0 "^\\(\\(8,16,2\\),\\(4,2\\)\\):\\(\\(256,1,32\\),\\(64,16\\)\\)\n$" "^$" "a blocked layout over 2 CTAs")
layoutx(--shape 64,32 emit --triton "((8,16,2),(4,2)):((256,1,32),(64,16))")
expect(0 "warp = \\[\\[4, 0\\], \\[8, 0\\], \\[32, 0\\]\\], block = \\[\\]" "^$" "without the warp count, a CuTe TV layout's threads past the lanes are warps")
layoutx(--shape 64,64 eval "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], CGALayout = [[1, 0]]}>")
expect(1 "" "a shared layout over more than one CTA" "a shared layout over 2 CTAs has no smem form")
# With --warps, the threads past them are CTAs: Triton 3.6's linear layout of
# that blocked layout over 2 CTAs (tests/data/triton/golden.jsonl), exactly.
layoutx(--shape 64,32 emit --triton --warps 4 "((8,16,2),(4,2)):((256,1,32),(64,16))")
if(NOT rc EQUAL 0 OR NOT out STREQUAL "#ttg.linear<{register = [[0, 1], [0, 2], [16, 0]], lane = [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = [[32, 0]]}>\n")
  fail("emit --triton --warps 4 of a CuTe TV layout over 2 CTAs should give Triton's block bases")
endif()

# Every command that takes a layout, given Triton layouts: the same answers as
# for their CuTe forms (tests/data/triton_commands.tsv, read by
# run_triton_commands.py, which needs Python 3).
find_program(python3 NAMES python3)
if(python3)
  execute_process(COMMAND ${python3} ${CMAKE_CURRENT_LIST_DIR}/run_triton_commands.py ${LAYOUTX}
                          ${CMAKE_CURRENT_LIST_DIR}/../data/triton_commands.tsv
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  message(STATUS "triton_commands.tsv: ${out}")
  if(NOT rc EQUAL 0)
    fail("commands given Triton layouts should answer as for their CuTe forms")
  endif()
else()
  message(STATUS "no python3: tests/data/triton_commands.tsv not run")
endif()

# On standard input a '#' line is a comment, but '#ttg.' starts a Triton layout.
layoutx_stdin("# a comment\n${blocked}\n" --shape 16,32 eval -)
expect(0 "^\\(\\(8,16\\),4\\):\\(\\(64,1\\),16\\)\n$" "^$" "a Triton attribute on standard input is an expression, not a comment")
