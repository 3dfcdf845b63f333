// The Recorder that collects the algebra's trace events.
#include "layoutx/trace.hpp"

#include <algorithm>

namespace layoutx::trace {

void Recorder::record(Event::Kind kind, std::string name, std::vector<Field> fields) {
  // Past the limit an operation is dropped whole (its closing event too), and
  // operations begun before the limit still close, so the tree stays balanced.
  const bool closing = kind == Event::Kind::End || kind == Event::Kind::Fail;
  if (closing && dropped_open_ > 0) {
    --dropped_open_;
    return;
  }
  if (!closing && events_.size() >= max_events_) {
    truncated_ = true;
    if (kind == Event::Kind::Begin) ++dropped_open_;
    return;
  }
  events_.push_back(Event{kind, std::move(name), std::move(fields)});
}

std::string ascending(const IntTuple& t, Notation n) {
  std::vector<Int> v = leaves(t);
  std::stable_sort(v.begin(), v.end(), [](Int a, Int b) { return a.value < b.value; });
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? std::string(" < ") : std::string()) + to_text(v[i], n);
  return out;
}

}  // namespace layoutx::trace
