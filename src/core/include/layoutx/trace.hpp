// Tracing of the algebra's intermediate steps (what `layoutx explain` shows).
// The caller that wants them passes a Recorder down with the Diagnostics
// (Diagnostics::trace()); where there is none, a trace point costs a null
// test and its arguments are never evaluated.
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

// Trace values are shown in CuTe's notation, as the Recorder asks.
inline std::string text(const std::string& s, Notation) { return s; }
inline std::string text(const char* s, Notation) { return s; }
inline std::string text(Int i, Notation n) { return to_text(i, n); }
inline std::string text(const IntTuple& t, Notation n) { return to_text(t, n); }
inline std::string text(const Layout& l, Notation n) { return to_text(l, n); }
template <std::integral T>
std::string text(T v, Notation) {
  return std::to_string(v);
}

// The integers of t, smallest first: "1 < 4 < 6" (the order complement takes strides in).
std::string ascending(const IntTuple& t, Notation n);

// Collects at most max_events events, their values written in `notation`.
class Recorder {
 public:
  explicit Recorder(Notation notation, std::size_t max_events = 200000)
      : notation_(notation), max_events_(max_events) {}

  const std::vector<Event>& events() const { return events_; }
  bool truncated() const { return truncated_; }
  Notation notation() const { return notation_; }
  void clear() {
    events_.clear();
    truncated_ = false;
    dropped_open_ = 0;
  }

  void record(Event::Kind kind, std::string name, std::vector<Field> fields);

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

 private:
  void add_fields(std::vector<Field>&) const {}
  template <class V, class... Rest>
  void add_fields(std::vector<Field>& out, const char* name, const V& value, const Rest&... rest) const {
    out.push_back(Field{name, text(value, notation_)});
    add_fields(out, rest...);
  }

  Notation notation_;
  std::vector<Event> events_;
  std::size_t max_events_;
  bool truncated_ = false;
  std::size_t dropped_open_ = 0;
};

// Closes what Recorder::open began when the enclosing function returns or throws.
class Scope {
 public:
  Scope(Recorder* recorder, bool opened)
      : recorder_(opened ? recorder : nullptr), exceptions_(opened ? std::uncaught_exceptions() : 0) {}
  ~Scope() {
    if (recorder_)
      recorder_->record(std::uncaught_exceptions() > exceptions_ ? Event::Kind::Fail : Event::Kind::End, {}, {});
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Recorder* recorder_;
  int exceptions_;
};

}  // namespace layoutx::trace

#define LAYOUTX_TRACE_CAT2(a, b) a##b
#define LAYOUTX_TRACE_CAT(a, b) LAYOUTX_TRACE_CAT2(a, b)
#ifdef LAYOUTX_NO_TRACE
// Compiled out (bench/analysis.sh builds this way to measure what the trace points cost).
#define LAYOUTX_TRACE(recorder, ...) \
  do {                               \
    static_cast<void>(recorder);     \
  } while (false)
#define LAYOUTX_TRACE_SCOPE(recorder, ...) \
  [[maybe_unused]] ::layoutx::trace::Recorder* LAYOUTX_TRACE_CAT(layoutx_trace_into_, __LINE__) = (recorder)
#else
// One intermediate step into `recorder` (a trace::Recorder*, null for none):
// LAYOUTX_TRACE(recorder, "name", "field", value, ...).
#define LAYOUTX_TRACE(recorder, ...)                                                                        \
  do {                                                                                                      \
    if (::layoutx::trace::Recorder* layoutx_trace_into = (recorder)) layoutx_trace_into->step(__VA_ARGS__); \
  } while (false)
// An operation that lasts until the end of the enclosing block.
#define LAYOUTX_TRACE_SCOPE(recorder, ...)                                                   \
  ::layoutx::trace::Recorder* LAYOUTX_TRACE_CAT(layoutx_trace_into_, __LINE__) = (recorder); \
  ::layoutx::trace::Scope LAYOUTX_TRACE_CAT(layoutx_trace_scope_, __LINE__)(                 \
      LAYOUTX_TRACE_CAT(layoutx_trace_into_, __LINE__),                                      \
      LAYOUTX_TRACE_CAT(layoutx_trace_into_, __LINE__) &&                                    \
          LAYOUTX_TRACE_CAT(layoutx_trace_into_, __LINE__)->open(__VA_ARGS__))
#endif
