// The syntax tree the grammar produces and the evaluator walks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/integer.hpp"

namespace layoutx::lang {

struct Node;

// A node's children: in a tree, each node's subtree follows it, so its
// first child is the next node and each later child follows the subtree of
// the one before.
class Children {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Node;
    using difference_type = std::ptrdiff_t;
    using pointer = const Node*;
    using reference = const Node&;

    explicit iterator(const Node* at) : at_(at) {}
    const Node& operator*() const { return *at_; }
    const Node* operator->() const { return at_; }
    iterator& operator++();
    bool operator==(const iterator& o) const { return at_ == o.at_; }

   private:
    const Node* at_;
  };

  Children(const Node* first, const Node* end) : first_(first), end_(end) {}
  std::size_t size() const;  // counts them
  bool empty() const { return first_ == end_; }
  iterator begin() const { return iterator(first_); }
  iterator end() const { return iterator(end_); }
  const Node& front() const { return *first_; }
  const Node& operator[](std::size_t i) const;  // walks past the i children before it

 private:
  const Node* first_;
  const Node* end_;
};

// A name's template arguments: Sw<3,4,3>, recast_layout<half_t,float>.
struct TemplateArgs {
  std::vector<std::int64_t> values;  // a type name stands for its width in bits
  std::vector<std::string> types;    // per argument: the type written ("half_t"), "" for an integer
};

// A node of a tree. It holds no memory of its own: its name is a part of the
// parsed text, or a name the parser gives, and its template arguments are
// the tree's.
struct Node {
  enum class Kind : std::uint8_t {
    Integer,      // 12, -4 (dynamic in --dynamic mode) or _12 (static); 1@0 a scaled basis
    Tuple,        // (a, b, ...)
    Layout,       // shape : stride
    Name,         // LayoutLeft, Sw<3,4,3>, ...
    Call,         // name<targs>(args)
    Apply,        // callee(args): evaluation or slicing
    Compose,      // a o b o c
    Underscore,   // _
    PointerFlag,  // smem_ptr[16b](unset): value = bits; smem_sparse<S>_ptr[...]: template_args = {S}
  };

  Kind kind = Kind::Underscore;
  bool is_static = false;
  bool has_template_args = false;
  Basis basis;             // an integer's scaled-basis modes (1@0), empty for a plain integer
  std::size_t offset = 0;  // byte offset of the node's first character
  std::int64_t value = 0;
  std::string_view name;
  const TemplateArgs* targs = nullptr;  // none: no template arguments
  std::size_t extent = 1;               // the nodes of its subtree, itself included, which follow it in the tree

  // Tuple elements, layout (shape, stride), call args, apply (callee, args...), chain.
  Children children() const { return Children(this + 1, this + extent); }
  const std::vector<std::int64_t>& template_args() const { return targs ? targs->values : kNone.values; }
  const std::vector<std::string>& template_types() const { return targs ? targs->types : kNone.types; }

 private:
  static const TemplateArgs kNone;
};

inline Children::iterator& Children::iterator::operator++() {
  at_ += at_->extent;
  return *this;
}

inline std::size_t Children::size() const {
  std::size_t count = 0;
  for (const Node* at = first_; at != end_; at += at->extent) ++count;
  return count;
}

inline const Node& Children::operator[](std::size_t i) const {
  const Node* at = first_;
  for (; i > 0; --i) at += at->extent;
  return *at;
}

// A whole syntax tree in one block, each node followed by its subtree, so
// that building and dropping a tree costs one allocation rather than one
// per list. A tree refers to the text it was parsed from (its names are
// parts of it); subtree() copies a part of it that stands alone.
class Tree {
 public:
  Tree() = default;
  Tree(Tree&&) = default;
  Tree& operator=(Tree&&) = default;
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  const Node& root() const { return nodes_.front(); }

 private:
  friend class TreeBuilder;
  // What few trees have: template arguments, and a subtree's names, which no text holds.
  struct Kept {
    std::vector<std::unique_ptr<TemplateArgs>> templates;
    std::vector<std::unique_ptr<std::string>> names;
  };
  Kept& kept() {
    if (!kept_) kept_ = std::make_unique<Kept>();
    return *kept_;
  }

  std::vector<Node> nodes_;  // in text order: each node before its subtree
  std::unique_ptr<Kept> kept_;
};

// Builds a tree in text order: a node is opened before its children are
// read and closed after them; a node found to be the parent of what was
// read before it (shape : stride, a o b) is put in before that part.
class TreeBuilder {
 public:
  TreeBuilder() { tree_.nodes_.reserve(16); }  // a small expression never grows them (16 nodes take a cheap allocation)

  std::size_t size() const { return tree_.nodes_.size(); }
  Node& at(std::size_t i) { return tree_.nodes_[i]; }
  // A new node at the end; its index.
  std::size_t open() {
    tree_.nodes_.emplace_back();
    return tree_.nodes_.size() - 1;
  }
  // A new node at `i`, before the subtree that starts there (which becomes its first child).
  void open_before(std::size_t i);
  // Node i's children are the subtrees after it, up to the end.
  void close(std::size_t i) { tree_.nodes_[i].extent = tree_.nodes_.size() - i; }
  // Template arguments for node i, kept by the tree.
  TemplateArgs& template_args_of(std::size_t i);
  // A copy of `name` kept by the tree, for a node whose text is gone.
  std::string_view keep(std::string_view name);
  Tree finish() { return std::move(tree_); }

 private:
  Tree tree_;
};

// A copy of `n` and everything under it, as a tree of its own.
Tree subtree(const Node& n);

// Parse `text` into a tree; throws SourceError on a syntax error. The plain
// forms are read by hand (plain_forms.hpp), the rest by the grammar.
Tree parse(std::string_view text, std::size_t max_depth);
// The same through the grammar alone, for the tests that compare the two.
Tree parse_by_grammar(std::string_view text, std::size_t max_depth);

}  // namespace layoutx::lang
