// A value as source code that builds it: a C++ type and a C++ expression for
// CuTe (written as kernels write them, under `using namespace cute;`), and a
// call of CuTe's Python DSL (`import cutlass; import cutlass.cute as cute`).
#pragma once

#include <string>

#include "layoutx/value.hpp"

namespace layoutx {

enum class CodeForm {
  CppType,        // Layout<Shape<Int<4>,int>, Stride<Int<1>,Int<4>>>
  CppExpression,  // make_layout(make_shape(Int<4>{}, 3), make_stride(Int<1>{}, Int<4>{}))
  Python,         // cute.make_layout((4, cutlass.Int32(3)), stride=(1, 4))
};

// The source text of `v` in `form`. Static integers are Int<N> (a Python int),
// dynamic ones int (cutlass.Int32). Throws Error for a value the form cannot
// spell (the LayoutLeft/LayoutRight tags and the shared-memory pointer flag
// have no Python DSL counterpart).
std::string render_code(const Value& v, CodeForm form);

// Whether the Python DSL spells `v` (render_code(v, Python) does not throw).
bool has_python_form(const Value& v);

}  // namespace layoutx
