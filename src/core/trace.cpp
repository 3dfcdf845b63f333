// The thread-local trace switch and the Recorder that collects the events.
#include "layoutx/trace.hpp"

#include <algorithm>

namespace layoutx::trace {

thread_local constinit bool active = false;

namespace {
thread_local constinit Recorder* current = nullptr;
}  // namespace

Recorder::Recorder(Notation notation, std::size_t max_events)
    : notation_(notation), max_events_(max_events), was_active_(active), previous_(current) {
  current = this;
  active = true;
}

Recorder::~Recorder() {
  current = previous_;
  active = was_active_;
}

Notation notation() { return current ? current->notation_ : Notation{}; }

void record(Event::Kind kind, std::string name, std::vector<Field> fields) {
  Recorder* r = current;
  if (!r) return;
  // Past the limit an operation is dropped whole (its closing event too), and
  // operations begun before the limit still close, so the tree stays balanced.
  const bool closing = kind == Event::Kind::End || kind == Event::Kind::Fail;
  if (closing && r->dropped_open_ > 0) {
    --r->dropped_open_;
    return;
  }
  if (!closing && r->events_.size() >= r->max_events_) {
    r->truncated_ = true;
    if (kind == Event::Kind::Begin) ++r->dropped_open_;
    return;
  }
  r->events_.push_back(Event{kind, std::move(name), std::move(fields)});
}

std::string ascending(const IntTuple& t) {
  std::vector<Int> v = leaves(t);
  std::stable_sort(v.begin(), v.end(), [](Int a, Int b) { return a.value < b.value; });
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? std::string(" < ") : std::string()) + to_text(v[i], notation());
  return out;
}

}  // namespace layoutx::trace
