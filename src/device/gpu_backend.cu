// The GPU backend: launches, transfers and the search for the first failures.
// Buffers and the stream live as long as the process, so that a thousand
// small checks do not pay for a thousand allocations. Built as the module
// layoutx-gpu.so, which exports layoutx_gpu_backend() alone (gpu_interface.hpp).
#include <cub/device/device_scan.cuh>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>

#include "backend.hpp"
#include "eval_kernels.cuh"
#include "gpu_interface.hpp"

namespace layoutx::device_detail::cuda_backend {

namespace {

constexpr int kLogCapacity = 64;

// Failures found by a launch: how many, and up to kLogCapacity of them in no particular order.
struct FailureLog {
  unsigned long long count;
  Failure record[kLogCapacity];
};

// One atomic per warp, not per failing thread.
__device__ inline void note_failure(FailureLog* log, const Failure& f) {
  const unsigned mask = __activemask();
  const int lane = threadIdx.x & 31;
  const int leader = __ffs(mask) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(&log->count, static_cast<unsigned long long>(__popc(mask)));
  base = __shfl_sync(mask, base, leader);
  const unsigned long long slot = base + __popc(mask & ((1u << lane) - 1));
  if (slot < kLogCapacity) log->record[slot] = f;
}

__global__ void __launch_bounds__(256)
    check_kernel(const __grid_constant__ CheckSpec spec, std::uint64_t lo, std::uint64_t hi, const std::int64_t* host,
                 std::uint64_t host_base, std::uint64_t* bits, FailureLog* log) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = lo + std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < hi; i += stride) {
    Failure f;
    if (!holds(spec, i, host, host_base, bits, f)) note_failure(log, f);
  }
}

void ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(fmt::format("CUDA error in {}: {}", what, cudaGetErrorString(e)));
}

void launched(const char* what) { ok(cudaGetLastError(), what); }

// The buffers one request uses, by role, grown on demand and kept.
enum Slot {
  kChunk0,
  kChunk1,
  kStage0,
  kStage1,
  kLog0,
  kLog1,
  kHostLog0,
  kHostLog1,
  kGatherLog,
  kHostGatherLog,
  kBits,
  kLengths,
  kPositions,
  kScanTemp,
  kText,
  kHostText
};

class Context {
 public:
  static Context& get() {
    static Context c;
    return c;
  }
  cudaStream_t stream() const { return stream_; }

  template <class T>
  T* device(Slot s, std::size_t n) {
    return static_cast<T*>(grow(s, std::max<std::size_t>(n, 1) * sizeof(T), false));
  }
  template <class T>
  T* pinned(Slot s, std::size_t n) {
    return static_cast<T*>(grow(s, std::max<std::size_t>(n, 1) * sizeof(T), true));
  }
  unsigned sms() const { return sms_; }

 private:
  struct Block {
    void* p = nullptr;
    std::size_t bytes = 0;
  };

  Context() {
    ok(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    int sms = 0;
    ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
    sms_ = static_cast<unsigned>(std::max(sms, 1));
  }
  // The process keeps its buffers to the end; the driver frees them at exit.

  void* grow(Slot s, std::size_t bytes, bool pinned) {
    Block& b = blocks_[s];
    if (b.bytes >= bytes) return b.p;
    ok(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
    if (b.p) pinned ? cudaFreeHost(b.p) : cudaFree(b.p);
    b = Block{};
    ok(pinned ? cudaMallocHost(&b.p, bytes) : cudaMalloc(&b.p, bytes), pinned ? "cudaMallocHost" : "cudaMalloc");
    b.bytes = bytes;
    return b.p;
  }

  cudaStream_t stream_{};
  unsigned sms_ = 1;
  std::map<Slot, Block> blocks_;
};

class Event {
 public:
  Event() { ok(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  operator cudaEvent_t() const { return e_; }

 private:
  cudaEvent_t e_{};
};

std::string unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the error, so that it is not reported again later
    if (e == cudaErrorNoDevice) return "no CUDA GPU found";
    if (e == cudaErrorInsufficientDriver)
      return fmt::format("no CUDA GPU found (no NVIDIA driver able to run CUDA {}.{} is loaded)", CUDART_VERSION / 1000,
                         CUDART_VERSION % 1000 / 10);
    return fmt::format("no CUDA GPU found ({})", cudaGetErrorString(e));
  }
  if (count == 0) return "no CUDA GPU found";
  return "";
}

void require_gpu() {
  const std::string why = unavailable_reason();
  if (!why.empty()) throw Error(why);
}

unsigned blocks_for(std::uint64_t work, unsigned threads) {
  const std::uint64_t wanted = (work + threads - 1) / threads;
  return static_cast<unsigned>(std::clamp<std::uint64_t>(wanted, 1, std::uint64_t{Context::get().sms()} * 16));
}

Outcome outcome_of(const FailureLog& log) {
  Outcome o;
  o.failures = log.count;
  const std::size_t kept = std::min<std::uint64_t>(log.count, kLogCapacity);
  o.first.assign(log.record, log.record + kept);
  std::sort(o.first.begin(), o.first.end(), [](const Failure& x, const Failure& y) { return x.index < y.index; });
  return o;
}

// Launches of one check over ranges of its indices.
class CheckLauncher {
 public:
  CheckLauncher(const CheckSpec& spec, std::uint64_t* bits) : spec_(spec), bits_(bits) {}

  // Failures in [lo, hi): the count, and the records (complete and sorted when the count fits the log).
  Outcome launch(std::uint64_t lo, std::uint64_t hi, const std::int64_t* host, std::uint64_t host_base) {
    Context& c = Context::get();
    FailureLog* log = c.device<FailureLog>(kGatherLog, 1);
    FailureLog* back = c.pinned<FailureLog>(kHostGatherLog, 1);
    ok(cudaMemsetAsync(log, 0, sizeof(unsigned long long), c.stream()), "cudaMemsetAsync");
    check_kernel<<<blocks_for(hi - lo, 256), 256, 0, c.stream()>>>(spec_, lo, hi, host, host_base, bits_, log);
    launched("check_kernel");
    ok(cudaMemcpyAsync(back, log, sizeof(FailureLog), cudaMemcpyDeviceToHost, c.stream()), "cudaMemcpyAsync");
    ok(cudaStreamSynchronize(c.stream()), "the check kernel");
    return outcome_of(*back);
  }

  // The first `limit` failures in [lo, hi), given that launch(lo, hi) gave `o`:
  // where the log overflowed, the range is searched again in order, in parts.
  void gather(std::uint64_t lo, std::uint64_t hi, const Outcome& o, const std::int64_t* host, std::uint64_t host_base,
              std::size_t limit, std::vector<Failure>& out) {
    if (out.size() >= limit || o.failures == 0) return;
    if (o.failures <= static_cast<std::uint64_t>(kLogCapacity)) {
      for (const Failure& f : o.first)
        if (out.size() < limit) out.push_back(f);
      return;
    }
    constexpr std::uint64_t kParts = 16;
    const std::uint64_t step = std::max<std::uint64_t>((hi - lo + kParts - 1) / kParts, 1);
    for (std::uint64_t a = lo; a < hi && out.size() < limit; a += step) {
      const std::uint64_t b = std::min(hi, a + step);
      gather(a, b, launch(a, b, host, host_base), host, host_base, limit, out);
    }
  }

 private:
  const CheckSpec& spec_;
  std::uint64_t* bits_;
};

template <class I, class O>
void generate_as(const FlatLayout& l, std::uint64_t n, const device::OffsetBlocks& sink) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 24;
  Context& c = Context::get();
  const std::uint64_t chunk = std::min(kChunk, n);
  O* dev[2] = {c.device<O>(kChunk0, chunk), c.device<O>(kChunk1, chunk)};
  O* pinned[2] = {c.pinned<O>(kStage0, chunk), c.pinned<O>(kStage1, chunk)};
  Event done[2];
  std::vector<std::int64_t> wide(std::is_same_v<O, std::int64_t> ? 0 : chunk);
  auto submit = [&](int b, std::uint64_t first) {
    const std::uint64_t count = std::min(chunk, n - first);
    launch_generate<I, O>(l, first, count, dev[b], blocks_for(count / (16 / sizeof(O)) + 1, 256), c.stream());
    launched("generate_kernel");
    ok(cudaMemcpyAsync(pinned[b], dev[b], count * sizeof(O), cudaMemcpyDeviceToHost, c.stream()), "cudaMemcpyAsync");
    ok(cudaEventRecord(done[b], c.stream()), "cudaEventRecord");
  };
  // While the host hands one chunk on, the GPU computes the next.
  submit(0, 0);
  int b = 0;
  for (std::uint64_t first = 0; first < n; first += chunk, b ^= 1) {
    if (first + chunk < n) submit(b ^ 1, first + chunk);
    ok(cudaEventSynchronize(done[b]), "generate_kernel");
    const std::uint64_t count = std::min(chunk, n - first);
    if constexpr (std::is_same_v<O, std::int64_t>) {
      sink(pinned[b], count);
    } else {
      std::copy(pinned[b], pinned[b] + count, wide.begin());
      sink(wide.data(), count);
    }
  }
}

template <class I, class O>
void lines_as(const FlatLayout& l, std::uint64_t n, const device::TextSink& sink) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 22;
  Context& c = Context::get();
  const std::uint64_t chunk = std::min(kChunk, n);
  O* values = c.device<O>(kChunk0, chunk);
  unsigned* lengths = c.device<unsigned>(kLengths, chunk + 1);
  unsigned* at = c.device<unsigned>(kPositions, chunk + 1);
  std::size_t temp_bytes = 0;
  ok(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, lengths, at, static_cast<int>(chunk + 1), c.stream()), "scan");
  void* temp = c.device<char>(kScanTemp, temp_bytes);
  char* text = c.device<char>(kText, chunk * 21);
  char* host_text = c.pinned<char>(kHostText, chunk * 21);
  unsigned* total = c.pinned<unsigned>(kHostLog0, 1);
  for (std::uint64_t first = 0; first < n; first += chunk) {
    const std::uint64_t count = std::min(chunk, n - first);
    line_length_kernel<I, O><<<blocks_for(count, 256), 256, 0, c.stream()>>>(l, first, count, values, lengths);
    launched("line_length_kernel");
    ok(cudaMemsetAsync(lengths + count, 0, sizeof(unsigned), c.stream()), "cudaMemsetAsync");
    ok(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, lengths, at, static_cast<int>(count + 1), c.stream()), "scan");
    line_text_kernel<O><<<blocks_for(count, 256), 256, 0, c.stream()>>>(values, at, count, text);
    launched("line_text_kernel");
    ok(cudaMemcpyAsync(total, at + count, sizeof(unsigned), cudaMemcpyDeviceToHost, c.stream()), "cudaMemcpyAsync");
    ok(cudaStreamSynchronize(c.stream()), "the offsets table");
    ok(cudaMemcpyAsync(host_text, text, *total, cudaMemcpyDeviceToHost, c.stream()), "cudaMemcpyAsync");
    ok(cudaStreamSynchronize(c.stream()), "the offsets table");
    sink(std::string_view(host_text, *total));
  }
}

// The narrowest index and offset types that are exact for l over [0, n);
// `narrow`: its offsets fit 32-bit arithmetic.
template <template <class, class> class Body, class... Args>
void dispatch(const FlatLayout& l, std::uint64_t n, bool narrow, Args&&... args) {
  const bool small = n <= (std::uint64_t{1} << 32);
  if (small && narrow) return Body<std::uint32_t, std::int32_t>::run(l, n, args...);
  if (small) return Body<std::uint32_t, std::int64_t>::run(l, n, args...);
  if (narrow) return Body<std::uint64_t, std::int32_t>::run(l, n, args...);
  Body<std::uint64_t, std::int64_t>::run(l, n, args...);
}

template <class I, class O>
struct Generate {
  static void run(const FlatLayout& l, std::uint64_t n, const device::OffsetBlocks& sink) {
    generate_as<I, O>(l, n, sink);
  }
};

template <class I, class O>
struct Lines {
  static void run(const FlatLayout& l, std::uint64_t n, const device::TextSink& sink) { lines_as<I, O>(l, n, sink); }
};

std::string description() {
  require_gpu();
  cudaDeviceProp p{};
  ok(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
  return fmt::format("{} ({} SMs, {:.0f} GB, compute capability {}.{})", p.name, p.multiProcessorCount,
                     static_cast<double>(p.totalGlobalMem) / 1e9, p.major, p.minor);
}

std::vector<Outcome> run(const std::vector<CheckSpec>& specs, std::uint64_t bitmap_bits, std::size_t first_limit) {
  require_gpu();
  Context& c = Context::get();
  const std::size_t words = (bitmap_bits + 63) / 64;
  std::uint64_t* bits = words ? c.device<std::uint64_t>(kBits, words) : nullptr;
  if (words) ok(cudaMemsetAsync(bits, 0, words * 8, c.stream()), "cudaMemsetAsync");
  std::vector<Outcome> out;
  for (const CheckSpec& spec : specs) {
    CheckLauncher launcher(spec, bits);
    const Outcome whole = spec.points ? launcher.launch(0, spec.points, nullptr, 0) : Outcome{};
    Outcome o;
    o.failures = whole.failures;
    launcher.gather(0, spec.points, whole, nullptr, 0, first_limit, o.first);
    out.push_back(std::move(o));
  }
  return out;
}

Outcome compare_host(const CheckSpec& spec, const device::OffsetSource& host, std::size_t first_limit,
                     const PartsOf& parts_of) {
  require_gpu();
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 23;
  Context& c = Context::get();
  const std::uint64_t chunk = std::min(kChunk, std::max<std::uint64_t>(spec.points, 1));
  std::int64_t* dev[2] = {c.device<std::int64_t>(kChunk0, chunk), c.device<std::int64_t>(kChunk1, chunk)};
  std::int64_t* pinned[2] = {c.pinned<std::int64_t>(kStage0, chunk), c.pinned<std::int64_t>(kStage1, chunk)};
  FailureLog* log[2] = {c.device<FailureLog>(kLog0, 1), c.device<FailureLog>(kLog1, 1)};
  FailureLog* host_log[2] = {c.pinned<FailureLog>(kHostLog0, 1), c.pinned<FailureLog>(kHostLog1, 1)};
  Event done[2];
  std::uint64_t chunk_base[2] = {0, 0}, chunk_size[2] = {0, 0};
  bool pending[2] = {false, false};
  CheckLauncher launcher(spec, nullptr);
  Outcome out;

  // A submitted chunk's failures, read once its copy back has landed.
  auto settle = [&](int b) {
    if (!pending[b]) return;
    ok(cudaEventSynchronize(done[b]), "the check kernel");
    pending[b] = false;
    const Outcome o = outcome_of(*host_log[b]);
    out.failures += o.failures;
    launcher.gather(chunk_base[b], chunk_base[b] + chunk_size[b], o, dev[b], chunk_base[b], first_limit, out.first);
  };
  auto submit = [&](int b) {
    const std::uint64_t lo = chunk_base[b], count = chunk_size[b];
    ok(cudaMemcpyAsync(dev[b], pinned[b], count * 8, cudaMemcpyHostToDevice, c.stream()), "cudaMemcpyAsync");
    ok(cudaMemsetAsync(log[b], 0, sizeof(unsigned long long), c.stream()), "cudaMemsetAsync");
    check_kernel<<<blocks_for(count, 256), 256, 0, c.stream()>>>(spec, lo, lo + count, dev[b], lo, nullptr, log[b]);
    launched("check_kernel");
    ok(cudaMemcpyAsync(host_log[b], log[b], sizeof(FailureLog), cudaMemcpyDeviceToHost, c.stream()), "cudaMemcpyAsync");
    ok(cudaEventRecord(done[b], c.stream()), "cudaEventRecord");
    pending[b] = true;
  };

  // The host fills one pinned buffer, its parts on every core, while the GPU
  // checks the other; a buffer is refilled once its chunk's failures are read.
  int b = 0;
  for (std::uint64_t lo = 0; lo < spec.points; lo += chunk, b ^= 1) {
    settle(b);
    chunk_base[b] = lo;
    chunk_size[b] = std::min(chunk, spec.points - lo);
    std::int64_t* to = pinned[b];
    const int parts = parts_of(chunk_size[b]);
    for_each_part(chunk_size[b], parts, [&](int, std::uint64_t first, std::uint64_t last) {
      host_offsets(host, lo + first, lo + last, [&](std::uint64_t at, const std::int64_t* values, std::size_t n) {
        std::copy(values, values + n, to + (at - lo));
      });
    });
    submit(b);
  }
  settle(b);
  settle(b ^ 1);
  return out;
}

void generate(const FlatLayout& l, std::uint64_t n, bool narrow, const device::OffsetBlocks& sink) {
  require_gpu();
  dispatch<Generate>(l, n, narrow, sink);
}

void generate_lines(const FlatLayout& l, std::uint64_t n, bool narrow, const device::TextSink& sink) {
  require_gpu();
  dispatch<Lines>(l, n, narrow, sink);
}

}  // namespace
}  // namespace layoutx::device_detail::cuda_backend

extern "C" __attribute__((visibility("default"))) const layoutx::device_detail::GpuBackend* layoutx_gpu_backend(
    int interface_version) {
  using namespace layoutx::device_detail;
  static const GpuBackend backend{
      cuda_backend::unavailable_reason, cuda_backend::description, cuda_backend::run,
      cuda_backend::compare_host,       cuda_backend::generate,    cuda_backend::generate_lines};
  return interface_version == kGpuInterfaceVersion ? &backend : nullptr;
}
