// One warp, one shared-memory instruction per launch, addresses from a table,
// so that Nsight Compute's wavefront counters for each launch measure exactly
// one access pattern. Input (stdin or a file): one pattern per line,
//   KIND ACTIVE A0 A1 ... A31
// with byte offsets into shared memory; lanes >= ACTIVE skip ordinary loads and
// stores (ldmatrix/stmatrix are warp-collective and always use all 32 lanes).
// Build: nvcc -arch=sm_90 -O2 -o bank_probe bank_probe.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <array>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int kSmemBytes = 48 * 1024;

enum Kind {
  kNone, kLd16, kLd32, kLd64, kLd128, kSt16, kSt32, kSt64, kSt128,
  kLdsm1, kLdsm2, kLdsm4, kLdsm1t, kLdsm2t, kLdsm4t, kStsm1, kStsm2, kStsm4, kStsm4t, kKinds
};

const char* const kKindNames[kKinds] = {"none",  "ld16",   "ld32",   "ld64",   "ld128",  "st16",  "st32",
                                        "st64",  "st128",  "ldsm1",  "ldsm2",  "ldsm4",  "ldsm1t", "ldsm2t",
                                        "ldsm4t", "stsm1", "stsm2",  "stsm4",  "stsm4t"};

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

// The access itself is inline PTX marked volatile so that the compiler keeps
// exactly one shared-memory instruction of the intended width.
template <int K>
__global__ void probe(const unsigned* offsets, int active, unsigned* sink) {
  __shared__ __align__(1024) unsigned char smem[kSmemBytes];
  const unsigned lane = threadIdx.x;
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + offsets[lane];
  unsigned r0 = lane, r1 = lane * 3u, r2 = lane * 5u, r3 = lane * 7u;
  const bool on = static_cast<int>(lane) < active;
  if constexpr (K == kLd16) {
    unsigned short h = 0;
    if (on) asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a) : "memory");
    r0 = h;
  } else if constexpr (K == kLd32) {
    if (on) asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (K == kLd64) {
    if (on) asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  } else if constexpr (K == kLd128) {
    if (on)
      asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                   : "r"(a)
                   : "memory");
  } else if constexpr (K == kSt16) {
    const unsigned short h = static_cast<unsigned short>(lane);
    if (on) asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(h) : "memory");
  } else if constexpr (K == kSt32) {
    if (on) asm volatile("st.shared.b32 [%0], %1;" ::"r"(a), "r"(r0) : "memory");
  } else if constexpr (K == kSt64) {
    if (on) asm volatile("st.shared.v2.b32 [%0], {%1, %2};" ::"r"(a), "r"(r0), "r"(r1) : "memory");
  } else if constexpr (K == kSt128) {
    if (on)
      asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3)
                   : "memory");
  } else if constexpr (K == kLdsm1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (K == kLdsm2) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
  } else if constexpr (K == kLdsm4) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(a)
                 : "memory");
  } else if constexpr (K == kLdsm1t) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory");
  } else if constexpr (K == kLdsm2t) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r0), "=r"(r1)
                 : "r"(a)
                 : "memory");
  } else if constexpr (K == kLdsm4t) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                 : "r"(a)
                 : "memory");
  } else if constexpr (K == kStsm1) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(r0) : "memory");
  } else if constexpr (K == kStsm2) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(a), "r"(r0), "r"(r1) : "memory");
  } else if constexpr (K == kStsm4) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r0), "r"(r1),
                 "r"(r2), "r"(r3)
                 : "memory");
  } else if constexpr (K == kStsm4t) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(r0), "r"(r1),
                 "r"(r2), "r"(r3)
                 : "memory");
  }
  sink[lane] = r0 ^ r1 ^ r2 ^ r3;
}

using Probe = void (*)(const unsigned*, int, unsigned*);

template <int... K>
constexpr std::array<Probe, sizeof...(K)> probes(std::integer_sequence<int, K...>) {
  return {&probe<K>...};
}

int kind_of(const std::string& name) {
  for (int k = 0; k < kKinds; ++k)
    if (name == kKindNames[k]) return k;
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  std::ifstream file;
  if (argc > 1) {
    file.open(argv[1]);
    if (!file) {
      std::fprintf(stderr, "cannot open %s\n", argv[1]);
      return 1;
    }
  }
  std::istream& in = argc > 1 ? static_cast<std::istream&>(file) : std::cin;
  const auto table = probes(std::make_integer_sequence<int, kKinds>{});

  unsigned *d_offsets = nullptr, *d_sink = nullptr;
  CHECK(cudaMalloc(&d_offsets, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sink, 32 * sizeof(unsigned)));

  std::string line;
  int launched = 0, line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string kind_name;
    int active = 0;
    unsigned offsets[32];
    fields >> kind_name >> active;
    for (unsigned& o : offsets) fields >> o;
    const int kind = kind_of(kind_name);
    if (!fields || kind < 0 || active < 0 || active > 32) {
      std::fprintf(stderr, "line %d: bad pattern\n", line_no);
      return 1;
    }
    for (unsigned o : offsets)
      if (o + 16 > static_cast<unsigned>(kSmemBytes)) {
        std::fprintf(stderr, "line %d: offset %u outside shared memory\n", line_no, o);
        return 1;
      }
    CHECK(cudaMemcpy(d_offsets, offsets, sizeof offsets, cudaMemcpyHostToDevice));
    table[kind]<<<1, 32>>>(d_offsets, active, d_sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    ++launched;
  }
  std::printf("launched %d\n", launched);
  CHECK(cudaFree(d_offsets));
  CHECK(cudaFree(d_sink));
  return 0;
}
