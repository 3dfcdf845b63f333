#include "worker_threads.hpp"

#include <algorithm>
#include <system_error>

namespace layoutx::cli {

WorkerThreads::~WorkerThreads() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerThreads::serve(std::size_t helper, std::uint64_t seen) {
  const int p = static_cast<int>(helper) + 1;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || round_ != seen; });
      if (stopping_) return;
      seen = round_;
      if (p >= parts_) continue;
    }
    try {
      (*part_)(p);
    } catch (...) {
      failed_[static_cast<std::size_t>(p)] = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    if (--running_ == 0) finished_.notify_one();
  }
}

void WorkerThreads::run(int parts, const std::function<void(int)>& part) {
  try {
    // A new thread starts at the rounds handed out so far: this one is its first.
    while (threads_.size() + 1 < static_cast<std::size_t>(parts))
      threads_.emplace_back(&WorkerThreads::serve, this, threads_.size(), round_);
  } catch (const std::system_error&) {
    // No more threads: the calling thread runs the parts they would have.
  }
  const int helped = std::min(parts, static_cast<int>(threads_.size()) + 1);
  {
    std::lock_guard lock(mutex_);
    part_ = &part;
    parts_ = helped;
    running_ = helped - 1;
    failed_.assign(static_cast<std::size_t>(parts), nullptr);
    ++round_;
  }
  work_.notify_all();
  for (int p = 0; p < parts; ++p) {
    if (p != 0 && p < helped) continue;
    try {
      part(p);
    } catch (...) {
      failed_[static_cast<std::size_t>(p)] = std::current_exception();
    }
  }
  {
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return running_ == 0; });
  }
  for (const auto& e : failed_)
    if (e) std::rethrow_exception(e);
}

}  // namespace layoutx::cli
