#include "work_pool.hpp"

#include <algorithm>

namespace layoutx::serve {

WorkPool::WorkPool(int workers, int queued) : max_queued_(static_cast<std::size_t>(std::max(queued, 0))) {
  for (int i = 0; i < std::max(workers, 1); ++i) threads_.emplace_back([this] { work(); });
}

WorkPool::~WorkPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& t : threads_) t.join();
}

bool WorkPool::submit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (jobs_.size() >= max_queued_) return false;
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
  return true;
}

void WorkPool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

}  // namespace layoutx::serve
