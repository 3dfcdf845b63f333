// The syntax tree's storage: nodes in text order in one block.
#include "ast.hpp"

namespace layoutx::lang {

const TemplateArgs Node::kNone;

void TreeBuilder::open_before(std::size_t i) {
  tree_.nodes_.emplace(tree_.nodes_.begin() + static_cast<std::ptrdiff_t>(i));
}

TemplateArgs& TreeBuilder::template_args_of(std::size_t i) {
  TemplateArgs& args = *tree_.kept().templates.emplace_back(std::make_unique<TemplateArgs>());
  args.values.reserve(4);  // Sw<B,M,S>, take<B,E>: a few
  args.types.reserve(4);
  tree_.nodes_[i].targs = &args;
  return args;
}

std::string_view TreeBuilder::keep(std::string_view name) {
  return *tree_.kept().names.emplace_back(std::make_unique<std::string>(name));
}

Tree subtree(const Node& n) {
  TreeBuilder b;
  for (std::size_t i = 0; i < n.extent; ++i) {
    const Node& from = (&n)[i];
    Node& copy = b.at(b.open());
    copy = from;
    if (!from.name.empty()) copy.name = b.keep(from.name);
    if (from.targs) b.template_args_of(i) = *from.targs;
  }
  return b.finish();
}

}  // namespace layoutx::lang
