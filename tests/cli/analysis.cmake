# eq, lookup, coalescing, explain and info's properties through the command
# line (ctest cli_analysis): the exit codes their help documents, what goes to
# stdout and stderr, and that the --json output is JSON.
#   cmake -DLAYOUTX=path/to/layoutx -P analysis.cmake
include(${CMAKE_CURRENT_LIST_DIR}/expect.cmake)

# eq: 0 equal, 1 different, 2 usage or a bad expression.
layoutx(eq "(4,3):(1,4)" "12:1")
expect(0 "equal: true" "^$" "eq of equal functions")
layoutx(eq "(2,(2,2)):(4,(2,1))" "(2,4):(4,1)")
expect(1 "differing: 4 of 8 indices.*\\| 2/1 \\| 1/2 \\|" "^$" "eq of different functions")
layoutx(eq -q "(4,2)" "(3,2)")
expect(1 "" "^$" "eq -q of different domains")
layoutx(eq --structural "(4,3):(1,4)" "12:1")
expect(1 "equal: false" "^$" "eq --structural of equal functions with different shapes")
layoutx(eq "(4,3):(1,4" "12:1")
expect(2 "" "error: .*\\^" "eq with a syntax error")
layoutx(eq "(4,3)")
expect(2 "" "two layouts" "eq with one layout")
layoutx(eq --json "Sw<3,4,3> o (8,64):(64,1)" "(8,64):(64,1)")
expect(1 "^{" "^$" "eq --json")
expect_json(differing 384 "eq --json")
expect_json(equal OFF "eq --json")  # CMake reads a JSON false as OFF

# lookup: 0 every query answered, 1 some not, 2 usage.
layoutx(lookup "(4,3):(3,1)" -o 5 -i 7 -c "(1,2)")
expect(0 "^9\t\\(1,2\\)\t\\(1,2\\)\t5\n7\t\\(3,1\\)\t\\(3,1\\)\t10\n9\t\\(1,2\\)\t\\(1,2\\)\t5\n$" "^$" "lookup")
layoutx(lookup "(4,3):(3,1)" -o 100 -o 3)
expect(1 "^1\t\\(1,0\\)\t\\(1,0\\)\t3\n$" "no index maps to offset 100" "lookup of an offset outside the image")
layoutx(lookup "(4,3):(3,1)")
expect(2 "" "needs a query" "lookup without a query")
layoutx_stdin("0\n4\n" lookup "(4,3):(3,1)" -o -)
expect(0 "^0\t\\(0,0\\)\t\\(0,0\\)\t0\n5\t\\(1,1\\)\t\\(1,1\\)\t4\n$" "^$" "lookup reading offsets from stdin")
layoutx(lookup --json "((2,2),4):((1,0),2)" -o 2)
expect(0 "^{\"index\": 4, \"flat\": \\[0,1\\], \"coord\": \\[\\[0,0\\],1\\], \"offset\": 2}\n{\"index\": 6" "^$"
       "lookup --json")

# coalescing: 0 ok, 1 rejected, 2 usage.
layoutx(coalescing "(32,4):(4,1)")
expect(0 "widest_vector: 4 elements \\(16 bytes\\).*\nsectors: 16 \\(minimum 16" "^$" "coalescing")
layoutx(coalescing --vector 4 "(32,4):(1,32)")
expect(1 "" "not usable" "coalescing with a vector that is not contiguous")
layoutx(coalescing --warp 0 "(32,4):(4,1)")
expect(2 "" "warp" "coalescing with a zero warp")
layoutx(coalescing --json -e 2 "(32,8):(8,1)")
expect(0 "^{" "^$" "coalescing --json")
expect_json("vectorized;sectors" 16 "coalescing --json")

# explain: 0 ok, 1 rejected (the steps up to the failure on stdout).
layoutx(explain "(6,2):(8,2) o (4,3):(3,1)")
expect(0 "shape_div: next_shape = 2, next_stride = 1\n.*mode: shape = 2, stride = 24.*result: \\(\\(2,2\\),3\\):\\(\\(24,2\\),8\\)"
       "^$" "explain of a composition")
layoutx(explain "composition((4,6,8):(2,3,5), 6:5)")
expect(1 "lhs mode: i = 0, curr_shape = 4, curr_stride = 2, rest_shape = 6, rest_stride = 5\n +FAILED here"
       "Stride Divisibility" "explain of a failed precondition")
layoutx(explain "complement((2,2):(1,6)")
expect(1 "" "error: .*\\^" "explain with a syntax error")
layoutx(explain --json "complement(4:2, 24)")
expect(0 "^{" "^$" "explain --json")
expect_json("trace;0;op" complement "explain --json")

# info: the properties after the fixed keys; --tv for thread-value layouts.
layoutx(info "(4,2):(1,0)")
expect(0 "depth: 1\ninjective: false\nsurjective: true\nbijective: false\ncompact: true\nimage_size: 4\n" "^$"
       "info properties")
layoutx(info --tv "(32,(4,2)):(4,(1,128))")
expect(0 "vector_per_thread: 4\naccesses_per_thread: 2\n" "^$" "info --tv")
layoutx(info --tv "(2,2,2):(1,2,4)")
expect(1 "" "rank 2" "info --tv of a rank-3 layout")
