#include "io/worker_threads.hpp"

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

void WorkerThreads::run_part(int p) {
  try {
    part_(p);
  } catch (...) {
    failed_[static_cast<std::size_t>(p)] = std::current_exception();
  }
}

void WorkerThreads::take_parts() {
  for (int p = next_part_.fetch_add(1); p < parts_; p = next_part_.fetch_add(1)) run_part(p);
}

void WorkerThreads::serve(std::size_t k, std::uint64_t seen) {
  const int t = static_cast<int>(k);
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || round_ != seen; });
      if (stopping_) return;
      seen = round_;
      if (t >= threaded_) continue;
    }
    take_parts();
    std::lock_guard lock(mutex_);
    if (--running_ == 0) finished_.notify_one();
  }
}

void WorkerThreads::start(int parts, int threads, std::function<void(int)> part) {
  finish();
  try {
    // A new thread starts at the rounds handed out so far: the next is its first.
    while (threads_.size() < static_cast<std::size_t>(threads))
      threads_.emplace_back(&WorkerThreads::serve, this, threads_.size(), round_);
  } catch (const std::system_error&) {
    // No more threads: those there are, and finish(), take the parts.
  }
  {
    std::lock_guard lock(mutex_);
    part_ = std::move(part);
    parts_ = parts;
    next_part_.store(0);
    threaded_ = std::min(threads, static_cast<int>(threads_.size()));
    running_ = threaded_;
    failed_.assign(static_cast<std::size_t>(parts), nullptr);
    ++round_;
  }
  work_.notify_all();
}

void WorkerThreads::finish() {
  if (parts_ == 0) return;
  take_parts();
  {
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return running_ == 0; });
  }
  parts_ = 0;
  for (const auto& e : failed_)
    if (e) std::rethrow_exception(e);
}

}  // namespace layoutx::cli
