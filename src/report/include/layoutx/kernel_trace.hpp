// The copies and MMAs one CTA of a kernel runs, gathered per call site from
// each thread's calls as a program interpreter meets them: each copy's
// per-thread element offsets on both sides, each gemm's fragments. What the
// model of memory_traffic.hpp predicts from them is summed per call site.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "layoutx/memory_traffic.hpp"
#include "layoutx/tiled_mma.hpp"
#include "layoutx/value.hpp"

namespace layoutx {

// A call site the traffic model cannot count (an atom it does not know, an
// atom used on the wrong memory), and where the call is.
class SiteError : public Error {
 public:
  SiteError(const std::string& message, std::size_t site) : Error(message), site_(site) {}
  std::size_t site() const { return site_; }

 private:
  std::size_t site_;
};

// One thread's execution of a call: copy(...), copy_if(...), gemm(...)
// (other names are not followed).
struct TracedCall {
  std::size_t site = 0;      // where the call is in the program (its byte offset): one call site
  std::string_view label;    // how the report names the site: its line and the call as written
  std::string_view name;     // "copy", "copy_if", "gemm"
  std::int64_t thread = 0;   // the thread's index in its block (x fastest)
  std::int64_t threads = 1;  // the block's threads
  const std::vector<Value>* args = nullptr;
};

// Which of a copy call's source elements it copies, in the source's index
// order: every one for copy(...); those copy_if's predicate holds for, read
// as CuTe reads it (one predicate per atom call through a copy atom).
// Throws Error for a predicate the report cannot read (it follows a register
// array of bool the program fills).
std::vector<bool> copied_elements(const TracedCall& call);

// A gemm(...) call site: the MMA atom and what each thread's calls issue.
struct MmaSite {
  std::string label;
  std::string atom;
  std::int64_t threads = 0;         // threads that called it
  std::int64_t executions = 0;      // calls of one thread (the most any made)
  std::int64_t atoms_per_call = 0;  // MMA atom instructions one call issues (MMA_M x MMA_N x MMA_K)
  std::int64_t a_elements = 0, b_elements = 0, c_elements = 0;  // register fragment elements a thread
  // The operand is a tensor of GMMA descriptors (an SM90 MMA reading it from
  // shared memory): its elements are descriptors, not the operand's values.
  bool a_descriptors = false, b_descriptors = false;
};

// "A 32, B 32, C 128 elements", or "A 4 GMMA descriptors, B 4 GMMA descriptors, C 32 elements".
std::string fragments_text(const MmaSite& m);

// What one stage of the mainloop holds: the shared memory its copies write
// (distinct elements of each site's first execution) and a thread's MMA
// fragments (the largest call of each gemm site, GMMA descriptors left
// out); and how many stages
// (k-tiles) the mainloop ran.
struct StageResources {
  std::int64_t shared_bytes = 0;
  std::int64_t register_elements = 0;
  std::int64_t k_tiles = 0;  // the executions of the first global-to-shared copy (0: there is none)
};

// The offsets a trace keeps at most (both sides of every copy of the CTA):
// a kernel past it is refused rather than allowed to exhaust memory.
inline constexpr std::int64_t kMaxTracedElements = std::int64_t{1} << 23;
inline constexpr std::int64_t kMaxBlockThreads = 1024;

class KernelTrace {
 public:
  // Follow one call; throws Error for a call the report cannot follow (a
  // coordinate tensor copied, element types that differ, an unknown atom).
  void record(const TracedCall& call);

  // Each copy call site's instructions and their cost, in program order;
  // throws SiteError for a site the model cannot count.
  std::vector<SiteTraffic> copy_traffic() const;
  // Each copy call site as the model sees it, one per execution of the site
  // (the e-th call of every thread together), for the per-warp pictures.
  std::vector<std::vector<CopySite>> copy_sites() const;
  std::vector<MmaSite> mma_sites() const;
  // copy_if's predicate at each copy call site, in program order.
  std::vector<Predication> predication() const;
  // Each copy call site's TracedCall::site, in program order.
  std::vector<std::size_t> copy_site_offsets() const;
  StageResources resources() const;
  bool empty() const { return copies_.empty() && mmas_.empty(); }

 private:
  struct Execution {
    std::vector<std::vector<std::int64_t>> src, dst;  // per thread
    std::vector<std::vector<bool>> active;            // per thread, copy_if's: empty where it copies every element
  };
  struct CopyRecord {
    CopySite shape;  // label, kind, element bits, spaces, static layouts (no atom, no offsets)
    Atom atom;       // the copy atom, for CopyKind::Atom
    std::vector<Execution> executions;
    std::map<std::int64_t, std::size_t> calls;  // per thread: calls so far
    std::int64_t threads = 0;
  };
  struct MmaRecord {
    MmaSite site;
    std::map<std::int64_t, std::int64_t> calls;
  };
  void record_copy(const TracedCall& call);
  void record_gemm(const TracedCall& call);

  std::map<std::size_t, CopyRecord> copies_;
  std::map<std::size_t, MmaRecord> mmas_;
  std::int64_t elements_ = 0;  // offsets kept, both sides of every copy
};

}  // namespace layoutx
