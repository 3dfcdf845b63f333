// Threads kept for a whole run of batches: each batch is split into parts
// that run on them at once while the calling thread goes on (reading the
// next batch, writing the last one's answers). Starting a thread per part
// per batch would cost tens of microseconds each time and leave every new
// thread with cold caches and empty free lists of small blocks.
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

  // Starts part(p) for every p in [0, parts) and returns at once; `part`
  // must live until finish(). Threads are started as a batch first needs
  // them; the parts of threads that could not be started run in finish().
  void start(int parts, std::function<void(int)> part);
  // Waits for the parts of the last start(); an exception in a part is
  // rethrown here (the first by part order). Nothing to do when none is running.
  void finish();

 private:
  // Thread k: part k of every round after `seen` that has one.
  void serve(std::size_t k, std::uint64_t seen);
  void run_part(int p);

  std::vector<std::thread> threads_;  // thread k runs part k
  std::mutex mutex_;
  std::condition_variable work_, finished_;
  std::function<void(int)> part_;
  int parts_ = 0;            // parts of this round
  int threaded_ = 0;         // of them, those on threads (the others run in finish())
  std::uint64_t round_ = 0;  // batches handed out so far
  int running_ = 0;          // threads still on this round's parts
  bool stopping_ = false;
  std::vector<std::exception_ptr> failed_;
};

}  // namespace layoutx::cli
