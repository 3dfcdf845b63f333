// The program's operator new and delete: small blocks are kept on per-thread
// free lists and handed out again, instead of going through malloc and free
// each time. Evaluating a small expression makes and drops some fifty small
// vectors and strings (int tuples, syntax nodes, values); glibc's malloc/free
// pair costs about ten times the free-list pop/push. Under AddressSanitizer
// the standard operators stay, so that every block is still checked.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LAYOUTX_STANDARD_OPERATOR_NEW 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LAYOUTX_STANDARD_OPERATOR_NEW 1
#endif

#if !defined(LAYOUTX_STANDARD_OPERATOR_NEW)

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

// Every block starts with a header holding its size class: the unsized
// operator delete needs it, and it keeps blocks 16-byte aligned.
constexpr std::size_t kBlockHeader = 16;
constexpr std::size_t kBlockGrain = 16;
constexpr std::size_t kBlockClasses = 256;  // blocks of up to 4 KiB are kept
constexpr std::size_t kLargeBlock = kBlockClasses;
// Bytes of free blocks a thread keeps per class; the rest go back to malloc.
// A list never holds more blocks than the thread once had in use at a time.
constexpr std::size_t kKeptBytesPerClass = std::size_t{64} << 10;

struct FreeBlock {
  FreeBlock* next;
};

struct FreeBlockLists {
  FreeBlock* head[kBlockClasses] = {};
  std::size_t count[kBlockClasses] = {};
  bool closed = false;  // the thread is ending: blocks freed from now on go to free()

  ~FreeBlockLists() {
    closed = true;
    for (std::size_t c = 0; c < kBlockClasses; ++c)
      while (FreeBlock* b = head[c]) {
        head[c] = b->next;
        std::free(b);
      }
  }
};

thread_local FreeBlockLists free_blocks;

std::size_t block_class(std::size_t bytes) { return bytes == 0 ? 0 : (bytes - 1) / kBlockGrain; }

// How many free blocks of each class a thread keeps (a table: no division per free).
struct KeptBlocks {
  std::size_t count[kBlockClasses];
  constexpr KeptBlocks() : count{} {
    for (std::size_t c = 0; c < kBlockClasses; ++c) count[c] = kKeptBytesPerClass / ((c + 1) * kBlockGrain);
  }
};
constexpr KeptBlocks kKept;

void* with_header(void* raw, std::size_t c) {
  if (!raw) throw std::bad_alloc();
  *static_cast<std::size_t*>(raw) = c;
  return static_cast<char*>(raw) + kBlockHeader;
}

}  // namespace

void* operator new(std::size_t bytes) {
  const std::size_t c = block_class(bytes);
  if (c >= kBlockClasses) {
    if (bytes > SIZE_MAX - kBlockHeader) throw std::bad_alloc();  // the header would wrap the size
    return with_header(std::malloc(kBlockHeader + bytes), kLargeBlock);
  }
  FreeBlockLists& lists = free_blocks;
  if (FreeBlock* b = lists.head[c]) {
    lists.head[c] = b->next;
    --lists.count[c];
    return with_header(b, c);
  }
  return with_header(std::malloc(kBlockHeader + (c + 1) * kBlockGrain), c);
}

void operator delete(void* p) noexcept {
  if (!p) return;
  void* raw = static_cast<char*>(p) - kBlockHeader;
  const std::size_t c = *static_cast<std::size_t*>(raw);
  if (c < kBlockClasses) {
    FreeBlockLists& lists = free_blocks;
    if (lists.count[c] < kKept.count[c] && !lists.closed) {
      auto* b = static_cast<FreeBlock*>(raw);
      b->next = lists.head[c];
      lists.head[c] = b;
      ++lists.count[c];
      return;
    }
  }
  std::free(raw);
}

void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

// The array and nothrow forms: the standard ones call the two above, but
// name them here too so that no path pairs a block with the wrong free.
void* operator new[](std::size_t bytes) { return operator new(bytes); }
void operator delete[](void* p) noexcept { operator delete(p); }
void operator delete[](void* p, std::size_t) noexcept { operator delete(p); }

void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  try {
    return operator new(bytes);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  try {
    return operator new(bytes);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p, const std::nothrow_t&) noexcept { operator delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { operator delete(p); }

#endif
