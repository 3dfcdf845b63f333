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

void WorkerThreads::run_part(int p) {
  try {
    part_(p);
  } catch (...) {
    failed_[static_cast<std::size_t>(p)] = std::current_exception();
  }
}

void WorkerThreads::serve(std::size_t k, std::uint64_t seen) {
  const int p = static_cast<int>(k);
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [&] { return stopping_ || round_ != seen; });
      if (stopping_) return;
      seen = round_;
      if (p >= threaded_) continue;
    }
    run_part(p);
    std::lock_guard lock(mutex_);
    if (--running_ == 0) finished_.notify_one();
  }
}

void WorkerThreads::start(int parts, std::function<void(int)> part) {
  finish();
  try {
    // A new thread starts at the rounds handed out so far: the next is its first.
    while (threads_.size() < static_cast<std::size_t>(parts))
      threads_.emplace_back(&WorkerThreads::serve, this, threads_.size(), round_);
  } catch (const std::system_error&) {
    // No more threads: finish() runs the parts they would have.
  }
  {
    std::lock_guard lock(mutex_);
    part_ = std::move(part);
    parts_ = parts;
    threaded_ = std::min(parts, static_cast<int>(threads_.size()));
    running_ = threaded_;
    failed_.assign(static_cast<std::size_t>(parts), nullptr);
    ++round_;
  }
  work_.notify_all();
}

void WorkerThreads::finish() {
  if (parts_ == 0) return;
  for (int p = threaded_; p < parts_; ++p) run_part(p);
  {
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return running_ == 0; });
  }
  parts_ = 0;
  for (const auto& e : failed_)
    if (e) std::rethrow_exception(e);
}

}  // namespace layoutx::cli
