// unpoison_mapping: under AddressSanitizer, clears the shadow of memory simfab has just mapped.
// ASan poisons stack redzones in its shadow and does not clear them when a stack's memory is
// unmapped; a new mapping at the same addresses (a program copy, a pooled fiber stack) would then
// read as "stack-buffer-underflow". Whole shadow pages are given back to the kernel (MADV_DONTNEED:
// they read as zero, i.e. unpoisoned, and cost nothing), only the partial pages at the ends are
// written, so a 1 GiB .bss does not materialise 128 MiB of shadow. Without ASan this does nothing.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define SIMFAB_ASAN_MAPPINGS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIMFAB_ASAN_MAPPINGS 1
#endif
#endif
#if defined(SIMFAB_ASAN_MAPPINGS)
#include <sanitizer/asan_interface.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#endif

namespace simfab::online {

inline void unpoison_mapping([[maybe_unused]] void* begin, [[maybe_unused]] size_t bytes) {
#if defined(SIMFAB_ASAN_MAPPINGS)
  size_t scale = 0, offset = 0;
  __asan_get_shadow_mapping(&scale, &offset);
  const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto b = reinterpret_cast<uintptr_t>(begin), e = b + bytes;
  const uintptr_t first = (((b >> scale) + offset + page - 1) / page) * page;  // whole shadow pages
  const uintptr_t last = (((e >> scale) + offset) / page) * page;
  if (first >= last) {
    __asan_unpoison_memory_region(begin, bytes);
    return;
  }
  ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
  const uintptr_t covered_begin = (first - offset) << scale, covered_end = (last - offset) << scale;
  __asan_unpoison_memory_region(begin, covered_begin - b);
  __asan_unpoison_memory_region(reinterpret_cast<void*>(covered_end), e - covered_end);
#endif
}

}  // namespace simfab::online
