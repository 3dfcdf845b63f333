// What the differential runner prints for each CuTe value: its kind, CuTe's
// print, and for layouts shape/stride/size/rank/depth (report), cosize
// (report_cosize), print_layout (rank 2, size <= 2048) and the offsets
// (size <= 1024) or the coordinates (report_values).  Each case runs in a
// forked child, so a crash or a CuTe runtime assertion is one case's answer.
#pragma once

#include <cute/layout.hpp>
#include <cute/layout_composed.hpp>
#include <cute/tensor_impl.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/util/print_tensor.hpp>
#include <cute/numeric/numeric_types.hpp>
#include <cute/pointer_flagged.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>         // GMMA::Layout_*_Atom<T>
#include <cute/atom/mma_traits_sm90_gmma_sparse.hpp>  // GMMA::Layout_*_SpAtom<T,S>
#include <cute/atom/mma_traits_sm100.hpp>             // UMMA::Layout_*_Atom<T>
#ifdef DIFFX_ATOMS  // TiledMMA and TiledCopy: only the translation units that build them pay for these
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#endif

#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

using namespace cute;

namespace diffx {

template <class T>
struct is_swizzle_fn : std::false_type {};
template <int B, int M, int S>
struct is_swizzle_fn<Swizzle<B, M, S>> : std::true_type {};

// A TiledCopy (it names its TiledLayout_TV), a TiledMMA or ThrMMA (it has a ThrLayoutVMNK) or a ThrCopy.
template <class T, class = void>
struct is_tiled_object : std::false_type {};
template <class T>
struct is_tiled_object<T, std::void_t<typename T::TiledLayout_TV>> : std::true_type {};
template <class T>
struct is_tiled_object<T, std::void_t<decltype(std::declval<T const&>().get_thr_layout_vmnk())>> : std::true_type {};
template <class T>  // a ThrCopy: a thread's slice of a TiledCopy
struct is_tiled_object<T, std::void_t<decltype(std::declval<T const&>().thr_idx_)>> : std::true_type {};

template <class T>
constexpr bool int_leaves();

template <class T, std::size_t... I>
constexpr bool int_leaves_each(std::index_sequence<I...>) {
  return (true && ... && int_leaves<cute::remove_cvref_t<decltype(get<I>(std::declval<T>()))>>());
}

template <class T>
constexpr bool int_leaves() {
  if constexpr (cute::is_tuple<T>::value) {
    return int_leaves_each<T>(std::make_index_sequence<cute::tuple_size<T>::value>{});
  } else {
    return cute::is_integral<T>::value;
  }
}

inline void line(const char* key) { printf("%s ", key); }
inline void end() { printf("\n"); }

template <class L>
void report_layout_like(L const& x, bool has_stride) {
  line("P"); print(x); end();
  line("SH"); print(shape(x)); end();
  if constexpr (cute::is_layout<L>::value && !cute::is_composed_layout<L>::value) {
    if (has_stride) { line("ST"); print(stride(x)); end(); }
  }
  line("SZ"); print(size(x)); end();
  line("RK"); print(rank(x)); end();
  line("DP"); print(depth(x)); end();
}

// cosize and the values are reported apart from report(): CuTe can build and
// print a coordinate layout whose cosize or evaluation does not compile (a sum
// of arithmetic tuples of different depths), and the runner then fences off
// only the part that does not compile.
template <class T>
void report_cosize(T const& x) {
  if constexpr (cute::is_layout<T>::value || cute::is_composed_layout<T>::value) {
    line("CS"); print(cosize(x)); end();
  }
}

// What a layout maps its indices to: print_layout and the offsets, or the
// coordinates of a coordinate layout.
template <class L>
void report_values_of(L const& x) {
  long long n = static_cast<long long>(size(x));
  using Codomain = cute::remove_cvref_t<decltype(x(0))>;
  if constexpr (cute::is_scaled_basis<Codomain>::value || cute::is_tuple<Codomain>::value) {
    // Scaled-basis strides: each index maps to a coordinate, and print_layout does not compile.
    if (n <= 1024) {
      line("CO");
      for (long long i = 0; i < n; ++i) { printf(" "); print(x(static_cast<int>(i))); }
      end();
    }
  } else {
    if constexpr (decltype(rank(x))::value == 2) {
      if (n <= 2048) {
        printf("PL\n");
        print_layout(x);
        printf("PLEND\n");
      }
    }
    if (n <= 1024) {
      line("O");
      for (long long i = 0; i < n; ++i) printf(" %lld", static_cast<long long>(x(static_cast<int>(i))));
      end();
    }
  }
}

template <class T>
void report_values(T const& x) {
  if constexpr (cute::is_layout<T>::value || cute::is_composed_layout<T>::value) report_values_of(x);
}

template <class T>
void report(T const& x) {
  if constexpr (is_tiled_object<T>::value) {
    // CuTe's print of these takes several lines, each ending in a newline
    printf("K object\nPM\n");
    print(x);
    printf("PMEND\n");
  } else if constexpr (cute::is_composed_layout<T>::value) {
    printf("K composed\n");
    report_layout_like(x, false);
  } else if constexpr (cute::is_layout<T>::value) {
    printf("K layout\n");
    report_layout_like(x, true);
  } else if constexpr (is_swizzle_fn<T>::value) {
    printf("K swizzle\n");
    line("P"); print(x); end();
  } else if constexpr (cute::is_tuple<T>::value) {
    printf(int_leaves<T>() ? "K inttuple\n" : "K tile\n");
    line("P"); print(x); end();
  } else if constexpr (cute::is_integral<T>::value) {
    printf("K int\n");
    line("P"); print(x); end();
  } else {
    printf("K other\n");
    line("P"); print(x); end();
  }
}

using CaseFn = void (*)();

// Runs every case in its own child process (5 s each) and frames its output.
inline int run_all(CaseFn const* cases, int n) {
  for (int k = 0; k < n; ++k) {
    printf("@@C %d\n", k);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      alarm(5);
      cases[k]();
      fflush(stdout);
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
      printf("\n@@RT %d %d\n", k, WIFSIGNALED(status) ? WTERMSIG(status) : -WEXITSTATUS(status));
    printf("@@E %d\n", k);
    fflush(stdout);
  }
  return 0;
}

}  // namespace diffx
