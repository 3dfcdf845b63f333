// What program_runner.py wraps around whole CuTe programs compiled host-only:
// many programs per translation unit, each in its own namespace with its main
// renamed, each run in a forked child whose stdout and stderr go to files of
// their own (stdout unbuffered, so what a program printed before a crash is
// kept: a terminal shows that much of it).
//
// Kernel programs (`__global__ void k()` and no main) run as one thread of a
// launch: threadIdx, blockIdx, blockDim, gridDim and CuTe's guards thread0(),
// thread(t), thread(t, b), block(b), block0() are given the device's meaning
// here (CuTe's own host versions are always true), so a guarded print comes out
// exactly when the GPU's thread with those indices would print it.
#pragma once

#include <cstdio>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#if !defined(__CUDACC__)
inline void __syncthreads() {}
#endif

namespace lxrun {

struct Index3 {
  unsigned int x, y, z;
};

inline Index3 threadIdx{0, 0, 0};
inline Index3 blockIdx{0, 0, 0};
inline Index3 blockDim{1, 1, 1};
inline Index3 gridDim{1, 1, 1};

inline bool block(int bid) {
  return blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y == static_cast<unsigned int>(bid);
}
inline bool thread(int tid, int bid) {
  return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y ==
             static_cast<unsigned int>(tid) &&
         block(bid);
}
inline bool thread(int tid) { return thread(tid, 0); }
inline bool thread0() { return thread(0, 0); }
inline bool block0() { return block(0); }

struct Launch {
  Index3 thread, cta, block, grid;
};

using MainFn = int (*)();

struct Entry {
  MainFn main;  // nullptr: CuTe refused the program (fenced off)
  Launch launch;
};

inline void write_status(char const* dir, int k, char const* text) {
  char path[4096];
  std::snprintf(path, sizeof path, "%s/%d.status", dir, k);
  if (FILE* f = std::fopen(path, "w")) {
    std::fputs(text, f);
    std::fclose(f);
  }
}

// Runs each program in a child (10 s each): DIR/K.out, DIR/K.err, DIR/K.status
// ("exit N" or "signal N").
inline int run_all(Entry const* entries, int n, char const* dir) {
  for (int k = 0; k < n; ++k) {
    if (!entries[k].main) continue;
    std::fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      char path[4096];
      std::snprintf(path, sizeof path, "%s/%d.out", dir, k);
      int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      std::snprintf(path, sizeof path, "%s/%d.err", dir, k);
      int err = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(out, 1);
      dup2(err, 2);
      std::setvbuf(stdout, nullptr, _IONBF, 0);
      Launch const& l = entries[k].launch;
      threadIdx = l.thread;
      blockIdx = l.cta;
      blockDim = l.block;
      gridDim = l.grid;
      alarm(10);
      int rc = entries[k].main();
      std::fflush(stdout);
      _exit(rc);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char text[64];
    if (WIFSIGNALED(status))
      std::snprintf(text, sizeof text, "signal %d", WTERMSIG(status));
    else
      std::snprintf(text, sizeof text, "exit %d", WEXITSTATUS(status));
    write_status(dir, k, text);
  }
  return 0;
}

}  // namespace lxrun
