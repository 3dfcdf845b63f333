#include "call.hpp"

#include <fmt/format.h>

namespace layoutx::lang {

std::size_t Call::arg_offset(std::size_t i) const {
  return i < node.children().size() ? node.children()[i].offset : node.offset;
}

void Call::fail(const std::string& message) const {
  throw SourceError(fmt::format("{}: {}", name(), message), node.offset);
}

void Call::fail_arg(std::size_t i, const std::string& message) const {
  throw SourceError(fmt::format("{}: argument {}: {}", name(), i + 1, message), arg_offset(i));
}

void Call::fail(const Error& cause) const {
  throw_at(cause, fmt::format("{}: {}", name(), cause.message(diag.notation())), node.offset);
}

void Call::fail_arg(std::size_t i, const Error& cause) const {
  throw_at(cause, fmt::format("{}: argument {}: {}", name(), i + 1, cause.message(diag.notation())), arg_offset(i));
}

void throw_at(const Error& cause, const std::string& message, std::size_t offset) {
  if (dynamic_cast<const StaticRequiredError*>(&cause) || dynamic_cast<const StaticRequiredSourceError*>(&cause))
    throw StaticRequiredSourceError(message, offset);
  throw SourceError(cause, message, offset);
}

void Call::expect_args(std::size_t lo, std::size_t hi) const {
  if (args.size() >= lo && args.size() <= hi) return;
  const std::string want = lo == hi ? fmt::format("{}", lo) : fmt::format("{} to {}", lo, hi);
  fail(fmt::format("takes {} argument{}, got {}", want, hi == 1 ? "" : "s", args.size()));
}

void Call::expect_template_args(std::size_t lo, std::size_t hi) const {
  template_args_read = true;
  const std::size_t n = node.template_args().size();
  if (n >= lo && n <= hi) return;
  if (hi == 0) fail("takes no template arguments");
  const std::string want = lo == hi ? fmt::format("{}", lo) : fmt::format("{} or more", lo);
  fail(fmt::format("takes {} template argument{} (as in {}<{}>(...)), got {}", want, lo == 1 && hi == 1 ? "" : "s",
                   name(), lo == 2 ? "1,0" : "1", n));
}

std::int64_t Call::targ(std::size_t i) const {
  template_args_read = true;
  if (i < node.template_types().size() && !node.template_types()[i].empty())
    fail(fmt::format("template argument {} is the type {}; {} takes integers there", i + 1, node.template_types()[i],
                     name()));
  return node.template_args().at(i);
}

std::vector<int> Call::targ_indices() const {
  template_args_read = true;
  for (std::size_t i = 0; i < node.template_args().size(); ++i) targ(i);
  std::vector<int> out;
  for (std::int64_t t : node.template_args()) {
    if (t < 0 || t > 1'000'000) fail(fmt::format("template argument {} is not a mode index", t));
    out.push_back(static_cast<int>(t));
  }
  return out;
}

IntTuple Call::int_tuple(std::size_t i) const {
  const Value& v = args.at(i);
  if (v.kind == Value::Kind::Layout) return v.layout.shape;  // shape(layout), where CuTe takes a shape
  if (!v.is_int_tuple())
    fail_arg(i, fmt::format("expected an integer or an int tuple, got {} {}", a_kind_name(v), text(v)));
  return v.as_int_tuple();
}

Int Call::integer(std::size_t i) const {
  const Value& v = args.at(i);
  if (v.kind != Value::Kind::Integer)
    fail_arg(i, fmt::format("expected an integer, got {} {}", a_kind_name(v), text(v)));
  return v.integer;
}

Layout Call::layout(std::size_t i) const {
  const Value& v = args.at(i);
  if (v.kind == Value::Kind::Layout) return v.layout;
  if (auto l = v.as_plain_layout()) return std::move(*l);
  fail_arg(i, fmt::format("expected a layout (or a shape), got {} {}", a_kind_name(v), text(v)));
}

AnyLayout Call::any_layout(std::size_t i) const {
  const Value& v = args.at(i);
  if (v.kind == Value::Kind::Composed) return v.composed();
  if (v.kind == Value::Kind::Layout) return v.layout;
  return layout(i);
}

Tiler Call::tiler(std::size_t i) const {
  try {
    return to_tiler(args.at(i), diag.notation());
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    fail_arg(i, e);
  }
}

}  // namespace layoutx::lang
