// Tracing of the algebra's intermediate steps (what `layoutx explain` shows).
// Off by default: a trace point then costs one thread-local load and a branch,
// and its arguments are never evaluated. A Recorder turns tracing on for the
// current thread while it lives and collects the events.
#pragma once

#include <concepts>
#include <cstddef>
#include <exception>
#include <string>
#include <vector>

#include "layoutx/layout.hpp"
#include "layoutx/notation.hpp"

namespace layoutx::trace {

struct Field {
  std::string name;
  std::string value;
};

// Begin opens an operation (name and inputs), End closes it, Fail closes it
// because an exception left it; Step is one intermediate value inside it.
struct Event {
  enum class Kind { Begin, Step, End, Fail };
  Kind kind = Kind::Step;
  std::string name;
  std::vector<Field> fields;
};

extern thread_local constinit bool active;
inline bool on() { return active; }

// The notation of the Recorder collecting this thread's events.
Notation notation();

// Trace values are shown in CuTe's notation, as the Recorder asks.
inline std::string text(const std::string& s) { return s; }
inline std::string text(const char* s) { return s; }
inline std::string text(Int i) { return to_text(i, notation()); }
inline std::string text(const IntTuple& t) { return to_text(t, notation()); }
inline std::string text(const Layout& l) { return to_text(l, notation()); }
template <std::integral T>
std::string text(T v) {
  return std::to_string(v);
}

void record(Event::Kind kind, std::string name, std::vector<Field> fields);

// The integers of t, smallest first: "1 < 4 < 6" (the order complement takes strides in).
std::string ascending(const IntTuple& t);

inline void add_fields(std::vector<Field>&) {}
template <class V, class... Rest>
void add_fields(std::vector<Field>& out, const char* name, const V& value, const Rest&... rest) {
  out.push_back(Field{name, text(value)});
  add_fields(out, rest...);
}

// step("name", "field", value, "field", value, ...)
template <class... A>
void step(const char* name, const A&... fields) {
  std::vector<Field> f;
  add_fields(f, fields...);
  record(Event::Kind::Step, name, std::move(f));
}

template <class... A>
bool open(const char* name, const A&... fields) {
  std::vector<Field> f;
  add_fields(f, fields...);
  record(Event::Kind::Begin, name, std::move(f));
  return true;
}

// Closes what open() began when the enclosing function returns or throws.
class Scope {
 public:
  explicit Scope(bool opened) : opened_(opened), exceptions_(opened ? std::uncaught_exceptions() : 0) {}
  ~Scope() {
    if (opened_) record(std::uncaught_exceptions() > exceptions_ ? Event::Kind::Fail : Event::Kind::End, {}, {});
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  bool opened_;
  int exceptions_;
};

// Turns tracing on for this thread while it lives; collects at most
// max_events, their values written in `notation`.
class Recorder {
 public:
  explicit Recorder(Notation notation, std::size_t max_events = 200000);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  const std::vector<Event>& events() const { return events_; }
  bool truncated() const { return truncated_; }
  void clear() {
    events_.clear();
    truncated_ = false;
    dropped_open_ = 0;
  }

 private:
  friend void record(Event::Kind, std::string, std::vector<Field>);
  friend Notation notation();
  Notation notation_;
  std::vector<Event> events_;
  std::size_t max_events_;
  bool truncated_ = false;
  std::size_t dropped_open_ = 0;
  bool was_active_;
  Recorder* previous_;
};

}  // namespace layoutx::trace

#define LAYOUTX_TRACE_CAT2(a, b) a##b
#define LAYOUTX_TRACE_CAT(a, b) LAYOUTX_TRACE_CAT2(a, b)
#ifdef LAYOUTX_NO_TRACE
// Compiled out (bench/analysis.sh builds this way to measure what the trace points cost).
#define LAYOUTX_TRACE(...) \
  do {                     \
  } while (false)
#define LAYOUTX_TRACE_SCOPE(...) static_assert(true)
#else
// One intermediate step: LAYOUTX_TRACE("name", "field", value, ...).
#define LAYOUTX_TRACE(...)                                             \
  do {                                                                 \
    if (::layoutx::trace::on()) ::layoutx::trace::step(__VA_ARGS__);   \
  } while (false)
// An operation that lasts until the end of the enclosing block.
#define LAYOUTX_TRACE_SCOPE(...)                                       \
  ::layoutx::trace::Scope LAYOUTX_TRACE_CAT(layoutx_trace_scope_, __LINE__)( \
      ::layoutx::trace::on() && ::layoutx::trace::open(__VA_ARGS__))
#endif
