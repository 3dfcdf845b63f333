// The values of the atom language that more than one of its files make or
// read: TiledCopy and its per-thread slice (make_tiled_copy's, and the TMA
// copies make_tma_copy builds on them).
#pragma once

#include <fmt/format.h>

#include <memory>

#include "layoutx/tiled_copy.hpp"
#include "layoutx/value.hpp"

namespace layoutx {

struct TiledCopyObject : ValueObject {
  TiledCopy copy;
  explicit TiledCopyObject(TiledCopy c) : copy(std::move(c)) {}
  std::string type_name() const override { return "TiledCopy"; }
  std::string print(Notation n) const override { return to_text(copy, n); }
  bool print_ends_line() const override { return true; }
};

// tiled_copy.get_slice(t): the TiledCopy seen by thread t.
struct ThrCopyObject : ValueObject {
  std::shared_ptr<const TiledCopyObject> tiled;
  Int thread;
  ThrCopyObject(std::shared_ptr<const TiledCopyObject> c, Int t) : tiled(std::move(c)), thread(t) {}
  std::string type_name() const override { return "ThrCopy"; }
  std::string print(Notation n) const override {
    return fmt::format("ThrCopy\n  ThrIdx: {}\n{}", to_text(thread, n), tiled->print(n));
  }
  bool print_ends_line() const override { return true; }
};

template <class T>
inline const T* object_of(const Value& v) {
  return v.kind == Value::Kind::Object ? dynamic_cast<const T*>(v.object.get()) : nullptr;
}

template <class T>
inline std::shared_ptr<const T> shared_object_of(const Value& v) {
  return v.kind == Value::Kind::Object ? std::dynamic_pointer_cast<const T>(v.object) : nullptr;
}

inline Value tiled_copy_value(TiledCopy copy) {
  return Value::of(std::make_shared<const TiledCopyObject>(std::move(copy)));
}

}  // namespace layoutx
