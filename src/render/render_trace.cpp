// explain's output: the trace events as a tree of operations (indented text,
// or nested JSON), with the failing operation marked.
#include <fmt/format.h>

#include <memory>

#include "layoutx/json_text.hpp"
#include "layoutx/render_analysis.hpp"

namespace layoutx {

namespace {

using trace::Event;

// An operation (a Begin event and what happened until it closed) or a step.
struct Node {
  const Event* event = nullptr;
  std::vector<Node> children;
  bool operation = false;
  bool failed = false;  // closed by an exception
  bool innermost_failure = false;
};

// Events from `pos` until the End/Fail that closes the current operation. At
// the top (`top`), also until an operation fails: evaluation stops there, and
// what follows is a re-evaluation (the --dynamic mode's all-static twin).
void collect(const std::vector<Event>& events, std::size_t& pos, Node& parent, bool top = false) {
  while (pos < events.size()) {
    const Event& e = events[pos++];
    switch (e.kind) {
      case Event::Kind::Step: parent.children.push_back(Node{&e, {}, false, false, false}); break;
      case Event::Kind::Begin: {
        Node op{&e, {}, true, false, false};
        collect(events, pos, op);
        parent.children.push_back(std::move(op));
        if (top && parent.children.back().failed) return;
        break;
      }
      case Event::Kind::End: return;
      case Event::Kind::Fail: parent.failed = true; return;
    }
  }
}

// The failure is shown where it happened: the failed operation none of whose children failed.
bool mark_innermost(Node& n) {
  bool below = false;
  for (Node& c : n.children) below = mark_innermost(c) || below;
  if (n.failed && !below) n.innermost_failure = true;
  return n.failed;
}

std::string fields_text(const Event& e) {
  std::string out;
  for (std::size_t i = 0; i < e.fields.size(); ++i)
    out += fmt::format("{}{} = {}", i ? ", " : "", e.fields[i].name, e.fields[i].value);
  return out;
}

void text_tree(const Node& n, int depth, const TraceView& view, std::string& out) {
  const std::string indent(static_cast<std::size_t>(2 * depth), ' ');
  out += fmt::format("{}{}: {}\n", indent, n.event->name, fields_text(*n.event));
  for (const Node& c : n.children) text_tree(c, depth + 1, view, out);
  if (n.innermost_failure) out += fmt::format("{}  FAILED here: {}\n", indent, view.error ? *view.error : "an error");
}

std::string fields_json(const Event& e) {
  json::Object o;
  for (const auto& f : e.fields) o.str(f.name, f.value);
  return o.done();
}

std::string json_tree(const Node& n) {
  if (!n.operation) return json::Object().str("step", n.event->name).raw("values", fields_json(*n.event)).done();
  std::string steps = "[";
  for (std::size_t i = 0; i < n.children.size(); ++i) steps += std::string(i ? ", " : "") + json_tree(n.children[i]);
  return json::Object()
      .str("op", n.event->name)
      .raw("inputs", fields_json(*n.event))
      .raw("steps", steps + "]")
      .raw("failed", json::boolean(n.failed))
      .done();
}

}  // namespace

std::string render_trace(const std::vector<Event>& events, const TraceView& view) {
  Node root;
  std::size_t pos = 0;
  while (pos < events.size() && (root.children.empty() || !root.children.back().failed))
    collect(events, pos, root, true);
  for (Node& c : root.children) mark_innermost(c);

  if (view.json) {
    std::string trace = "[";
    for (std::size_t i = 0; i < root.children.size(); ++i)
      trace += std::string(i ? ", " : "") + json_tree(root.children[i]);
    return json::Object()
               .str("expression", view.expression)
               .raw("result", view.result ? json::quote(*view.result) : "null")
               .raw("error", view.error ? json::quote(*view.error) : "null")
               .raw("truncated", json::boolean(view.truncated))
               .raw("trace", trace + "]")
               .done() +
           "\n";
  }
  std::string out = fmt::format("expression: {}\n", view.expression);
  if (root.children.empty())
    out +=
        "(no traced operation: explain shows composition, complement, right_inverse, left_inverse, the divides "
        "and the products)\n";
  for (const Node& c : root.children) text_tree(c, 0, view, out);
  if (view.truncated) out += "(trace truncated: too many steps)\n";
  if (view.result) out += fmt::format("result: {}\n", *view.result);
  if (view.error) out += fmt::format("failed: {}\n", *view.error);
  return out;
}

}  // namespace layoutx
