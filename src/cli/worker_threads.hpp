// Threads kept for a whole run of batches: each batch is split into parts
// that run on them at once, part 0 on the calling thread. Starting a thread
// per part per batch would cost tens of microseconds each time and leave
// every new thread with cold caches and empty free lists of small blocks.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace layoutx::cli {

class WorkerThreads {
 public:
  WorkerThreads() = default;
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;
  ~WorkerThreads();

  // Runs part(p) for every p in [0, parts) and returns once all have
  // finished; an exception in a part is rethrown here (the first by part
  // order). Threads are started as a batch first needs them; where none can
  // be started, the calling thread runs the parts left over.
  void run(int parts, const std::function<void(int)>& part);

 private:
  // Thread `helper`: part helper + 1 of every round after `seen` that has one.
  void serve(std::size_t helper, std::uint64_t seen);

  std::vector<std::thread> threads_;  // thread k runs part k + 1
  std::mutex mutex_;
  std::condition_variable work_, finished_;
  const std::function<void(int)>* part_ = nullptr;
  int parts_ = 0;
  std::uint64_t round_ = 0;  // batches handed out so far
  int running_ = 0;          // helpers still on this round's parts
  bool stopping_ = false;
  std::vector<std::exception_ptr> failed_;
};

}  // namespace layoutx::cli
