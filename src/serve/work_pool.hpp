// Computations of the API, a few at a time on threads of their own, so that
// the threads that read requests and send the page are never all held by
// slow answers: a computation waits in a bounded queue (a full queue refuses
// at once), and one that runs past the time limit is given up by the request
// (its thread finishes it and drops the answer).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace layoutx::serve {

class WorkPool {
 public:
  WorkPool(int workers, int queued);
  ~WorkPool();
  WorkPool(const WorkPool&) = delete;
  WorkPool& operator=(const WorkPool&) = delete;

  // Queues `job`; false when `queued` jobs are already waiting.
  bool submit(std::function<void()> job);

 private:
  void work();

  std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace layoutx::serve
