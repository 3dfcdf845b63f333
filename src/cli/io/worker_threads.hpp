// Threads kept for a whole run of batches: each batch is split into parts
// that run on them at once while the calling thread goes on (reading the
// next batch, writing the last one's answers). Starting a thread per part
// per batch would cost tens of microseconds each time and leave every new
// thread with cold caches and empty free lists of small blocks.
#pragma once

#include <atomic>
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

  // Starts part(p) for every p in [0, parts) on `threads` threads and
  // returns at once; `part` must live until finish(). Each thread takes the
  // next part not yet taken, so a thread slowed down (by this thread's own
  // reading and writing, or by another process) leaves its share to the
  // others instead of keeping them waiting. Threads are started as a batch
  // first needs them.
  void start(int parts, int threads, std::function<void(int)> part);
  // Takes the parts not yet taken, waits for the others; an exception in a
  // part is rethrown here (the first by part order). Nothing to do when none
  // is running.
  void finish();

 private:
  // Thread k: the parts of every round after `seen` that it is one of the threads of.
  void serve(std::size_t k, std::uint64_t seen);
  // Parts of this round until none is left.
  void take_parts();
  void run_part(int p);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable work_, finished_;
  std::function<void(int)> part_;
  int parts_ = 0;                  // parts of this round
  int threaded_ = 0;               // threads of this round
  std::atomic<int> next_part_{0};  // the next part not yet taken
  std::uint64_t round_ = 0;        // batches handed out so far
  int running_ = 0;                // threads still on this round's parts
  bool stopping_ = false;
  std::vector<std::exception_ptr> failed_;
};

}  // namespace layoutx::cli
