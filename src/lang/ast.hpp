// The syntax tree the grammar produces and the evaluator walks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "layoutx/integer.hpp"

namespace layoutx::lang {

struct Node {
  enum class Kind {
    Integer,     // 12, -4 (dynamic in --dynamic mode) or _12 (static); 1@0 a scaled basis
    Tuple,       // (a, b, ...)
    Layout,      // shape : stride
    Name,        // LayoutLeft, Sw<3,4,3>, ...
    Call,        // name<targs>(args)
    Apply,       // callee(args): evaluation or slicing
    Compose,     // a o b o c
    Underscore,  // _
    PointerFlag,  // smem_ptr[16b](unset): value = bits; smem_sparse<S>_ptr[...]: template_args = {S}
  };

  Kind kind = Kind::Underscore;
  std::size_t offset = 0;  // byte offset of the node's first character
  std::int64_t value = 0;
  bool is_static = false;
  Basis basis;  // an integer's scaled-basis modes (1@0), empty for a plain integer
  std::string name;
  std::vector<std::int64_t> template_args;   // a type name stands for its width in bits
  std::vector<std::string> template_types;   // per template argument: the type written ("half_t"), "" for an integer
  bool has_template_args = false;
  std::vector<Node> children;  // tuple elements, layout (shape, stride), call args, apply (callee, args...), chain
};

// Parse `text` into a tree; throws SourceError on a syntax error. The plain
// forms are read by hand (plain_forms.hpp), the rest by the grammar.
Node parse(std::string_view text, std::size_t max_depth);
// The same through the grammar alone, for the tests that compare the two.
Node parse_by_grammar(std::string_view text, std::size_t max_depth);

}  // namespace layoutx::lang
