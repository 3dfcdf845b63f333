// Device evaluation throughput against the GPU's own copy bandwidth, both
// measured in this run. For each layout (2^30 elements by default): every
// offset is written to device memory by generate_kernel; throughput is the
// bytes written per second, and the ratio is that over the copy bandwidth
// (bytes read plus written per second of a device-to-device copy). Each
// output is poisoned first and then spot-checked against the engine.
//
//   layoutx_gpu_bench [--repeat N] [EXPR...]
#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "eval_kernels.cuh"
#include "flat_layout_build.hpp"
#include "layoutx/language.hpp"
#include "layoutx/notation.hpp"

using namespace layoutx;
using namespace layoutx::device_detail;

namespace {

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "CUDA error in %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct Timer {
  cudaEvent_t start{}, stop{};
  Timer() {
    ok(cudaEventCreate(&start), "cudaEventCreate");
    ok(cudaEventCreate(&stop), "cudaEventCreate");
  }
  template <class F>
  double median_ms(int repeat, F f) {
    f();  // warm-up
    ok(cudaDeviceSynchronize(), "warm-up");
    std::vector<double> ms;
    for (int r = 0; r < repeat; ++r) {
      ok(cudaEventRecord(start), "cudaEventRecord");
      f();
      ok(cudaEventRecord(stop), "cudaEventRecord");
      ok(cudaEventSynchronize(stop), "timed run");
      float t = 0;
      ok(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
};

__global__ void copy_kernel(const uint4* __restrict__ in, uint4* __restrict__ out, std::size_t n) {
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i];
}

int sm_count() {
  int sms = 0;
  ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
  return sms;
}

// Bytes read + written per second by the best of cudaMemcpy and a 16-byte copy kernel.
double copy_bandwidth(void* a, void* b, std::size_t bytes, int repeat, Timer& t) {
  const double memcpy_ms =
      t.median_ms(repeat, [&] { ok(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice), "memcpy"); });
  const std::size_t n = bytes / 16;
  const double kernel_ms = t.median_ms(
      repeat, [&] { copy_kernel<<<sm_count() * 8, 512>>>(static_cast<const uint4*>(a), static_cast<uint4*>(b), n); });
  fmt::print("copy      cudaMemcpy {:.3f} ms ({:.0f} GB/s), copy kernel {:.3f} ms ({:.0f} GB/s), {} MB each way\n",
             memcpy_ms, 2 * bytes / memcpy_ms / 1e6, kernel_ms, 2 * bytes / kernel_ms / 1e6, bytes / 1000000);
  return 2 * bytes / std::min(memcpy_ms, kernel_ms) / 1e6;  // GB/s
}

// The plainest kernel, for comparison: one index per thread, one store each.
template <class I, class O>
__global__ void one_per_thread(const __grid_constant__ FlatLayout l, std::uint64_t n, O* __restrict__ out) {
  const std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = evaluate_index<I, O>(l, static_cast<I>(i));
}

// The previous kernel, for comparison: 16 bytes of consecutive offsets per
// thread, every index split into its coordinate on its own.
template <class I, class O, int kLeaves>
__global__ void __launch_bounds__(256)
    split_each(const __grid_constant__ FlatLayout l, std::uint64_t n, O* __restrict__ out) {
  constexpr int kPer = 16 / sizeof(O);
  struct alignas(16) Vec {
    O v[kPer];
  };
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x * kPer;
  for (std::uint64_t j = (std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x) * kPer; j < n; j += stride) {
    if (j + kPer <= n) {
      I x[kPer];
      Vec vec;
      for (int k = 0; k < kPer; ++k) x[k] = static_cast<I>(j + k);
      offsets_of_indices<I, O, kPer, kLeaves>(l, x, vec.v);
      if (l.stages > 0)
        for (int k = 0; k < kPer; ++k) vec.v[k] = apply_stages(l, vec.v[k]);
      *reinterpret_cast<Vec*>(out + j) = vec;
    } else {
      for (std::uint64_t k = j; k < n; ++k) out[k] = evaluate_index<I, O>(l, static_cast<I>(k));
    }
  }
}

template <class I, class O>
void launch_split_each(const FlatLayout& l, std::uint64_t n, O* out, unsigned blocks) {
  switch (l.leaves) {
    case 2: return split_each<I, O, 2><<<blocks, 256>>>(l, n, out);
    case 4: return split_each<I, O, 4><<<blocks, 256>>>(l, n, out);
    case 6: return split_each<I, O, 6><<<blocks, 256>>>(l, n, out);
    default: return split_each<I, O, 0><<<blocks, 256>>>(l, n, out);
  }
}

template <class I, class O>
double time_variant(int variant, const FlatLayout& f, std::uint64_t n, void* out, unsigned blocks, int repeat,
                    Timer& t) {
  return t.median_ms(repeat, [&] {
    O* o = static_cast<O*>(out);
    if (variant == 0)
      one_per_thread<I, O><<<static_cast<unsigned>((n + 255) / 256), 256>>>(f, n, o);
    else if (variant == 1)
      generate_kernel<I, O, 1, 0><<<blocks, 256>>>(f, 0, n, o);
    else if (variant == 3)
      launch_split_each<I, O>(f, n, o, blocks);
    else if (variant == 4)
      launch_generate<I, O, 2>(f, 0, n, o, blocks, nullptr);
    else
      launch_generate<I, O>(f, 0, n, o, blocks, nullptr);
    ok(cudaGetLastError(), "kernel");
  });
}

// Spot checks against the engine's own evaluate: the poisoned buffer must be overwritten everywhere we look.
template <class O>
int spot_check(const AnyLayout& l, std::uint64_t n, const void* dev) {
  std::vector<std::uint64_t> where = {0, n - 1, n / 2, n / 3};
  std::mt19937_64 rng(12345);
  for (int k = 0; k < 2000; ++k) where.push_back(rng() % n);
  int bad = 0;
  for (std::uint64_t i : where) {
    O got{};
    ok(cudaMemcpy(&got, static_cast<const O*>(dev) + i, sizeof(O), cudaMemcpyDeviceToHost), "cudaMemcpy");
    const std::int64_t want = evaluate(l, IntTuple(static_int(static_cast<std::int64_t>(i)))).value;
    if (static_cast<std::int64_t>(got) != want && bad++ < 3)
      fmt::print("  MISMATCH at {}: device {}, engine {}\n", i, static_cast<std::int64_t>(got), want);
  }
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 10;
  std::vector<std::string> exprs;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc)
      repeat = std::max(1, std::atoi(argv[++i]));
    else
      exprs.push_back(a);
  }
  if (exprs.empty())
    exprs = {
        // plain: a 32768 x 32768 row-major matrix
        "(32768,32768):(32768,1)",
        // hierarchical: the matrix cut into 128x64 tiles, each tile's threads and values split again
        "zipped_divide((32768,32768):(32768,1), ((4,32):(32,1), (8,8):(8,1)))",
        // swizzled: the shared-memory swizzle of 128-byte rows over the tiled matrix
        "Sw<3,4,3> o logical_divide((32768,32768):(32768,1), (8,64))",
        // 64-bit offsets: column strides past 2^31
        "(32768,32768):(1,65536)",
        "Sw<3,4,3> o 0 o ((8,4096),(8,4096)):((65536,524288),(1,8))",
        // extents that are not powers of two (10^9 offsets): division by multiplication
        "((10,100),(1000,1000)):((1000000,1),(100,100000))",
    };

  ok(cudaSetDevice(0), "cudaSetDevice");
  cudaDeviceProp p{};
  ok(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  fmt::print("device    {} ({} SMs, {:.0f} GB)\n", p.name, p.multiProcessorCount, p.totalGlobalMem / 1e9);

  const std::size_t max_bytes = std::size_t{8} << 30;  // 2^30 offsets of 8 bytes
  void *a = nullptr, *b = nullptr;
  ok(cudaMalloc(&a, max_bytes), "cudaMalloc");
  ok(cudaMalloc(&b, max_bytes), "cudaMalloc");
  ok(cudaMemset(a, 1, max_bytes), "cudaMemset");
  Timer t;
  const double copy_gbs = copy_bandwidth(a, b, std::size_t{4} << 30, repeat, t);

  struct Row {
    std::string name;
    double ms, gbs, ratio, previous_ratio;
  };
  std::vector<Row> rows;
  int failures = 0;
  LanguageOptions lo;
  for (const auto& e : exprs) {
    Diagnostics diag;
    const Value v = evaluate_expression(e, lo, diag);
    const AnyLayout l = *v.as_layout();
    const std::uint64_t n = static_cast<std::uint64_t>(size(l).value);
    const FlatLayout f = flat_of(l);
    const bool narrow = fits_int32(f, n);
    const std::size_t bytes = n * (narrow ? 4 : 8);
    if (n > (std::uint64_t{1} << 32) || bytes > max_bytes) {
      fmt::print("skip      {}: {} elements is beyond this bench\n", e, n);
      continue;
    }
    fmt::print("eval      {}\n          = {} ({} leaves, {} stages, {}-bit offsets)\n", e, to_text(v), f.leaves,
               f.stages, narrow ? 32 : 64);
    // Variant 0: one index per thread, one store each. 1: generate_kernel, 16 bytes of consecutive
    // offsets per thread, leaves in a loop. 2: the same with the leaf loop unrolled for this leaf
    // count, as layoutx runs it (with SMs x 16 blocks, its choice). 3: the previous kernel, every
    // index of the 16 bytes split on its own. 4: variant 2 with two 16-byte stores per thread.
    double best = 1e30, previous = 1e30;
    const unsigned chosen = unsigned(p.multiProcessorCount) * 16;
    const std::uint64_t threads_needed = (n + (narrow ? 3 : 1)) / (narrow ? 4 : 2);
    for (int variant : {0, 1, 2, 3, 4}) {
      for (unsigned blocks : {chosen, unsigned(std::min<std::uint64_t>((threads_needed + 255) / 256, 0x7fffffffu))}) {
        if (variant == 0 && blocks != chosen) continue;
        ok(cudaMemset(b, 0xff, bytes), "poison");
        const double ms = narrow ? time_variant<std::uint32_t, std::int32_t>(variant, f, n, b, blocks, repeat, t)
                                 : time_variant<std::uint32_t, std::int64_t>(variant, f, n, b, blocks, repeat, t);
        const int bad = narrow ? spot_check<std::int32_t>(l, n, b) : spot_check<std::int64_t>(l, n, b);
        failures += bad;
        const double gbs = bytes / ms / 1e6;
        fmt::print(
            "          variant {} blocks {:>8}: {:7.3f} ms, {:6.1f} G offsets/s, {:5.0f} GB/s, {:3.0f}% of copy{}\n",
            variant, variant == 0 ? (n + 255) / 256 : blocks, ms, n / ms / 1e6, gbs, 100 * gbs / copy_gbs,
            bad ? " SPOT CHECK FAILED" : "");
        if (variant == 2 && blocks == chosen) best = ms;
        if (variant == 3 && blocks == chosen) previous = ms;
      }
    }
    const double gbs = bytes / best / 1e6;
    rows.push_back(Row{e, best, gbs, gbs / copy_gbs, bytes / previous / 1e6 / copy_gbs});
  }
  fmt::print("\nas layoutx runs it (variant 2, SMs x 16 blocks), written bytes over copy bandwidth:\n");
  fmt::print("{:<72} {:>9} {:>8} {:>7} {:>9}\n", "layout (2^30 offsets)", "ms", "GB/s", "ratio", "previous");
  for (const auto& r : rows)
    fmt::print("{:<72} {:>9.3f} {:>8.0f} {:>6.0f}% {:>8.0f}%\n", r.name.substr(0, 72), r.ms, r.gbs, 100 * r.ratio,
               100 * r.previous_ratio);
  fmt::print("{:<72} {:>9} {:>8.0f}\n", "copy (read + written)", "", copy_gbs);
  cudaFree(a);
  cudaFree(b);
  return failures ? 1 : 0;
}
