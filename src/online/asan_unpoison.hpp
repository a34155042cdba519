// unpoison_mapping: under AddressSanitizer, clears the shadow of memory simfab has just mapped.
// ASan poisons stack redzones in its shadow and does not clear them when a stack's memory is
// unmapped; a new mapping at the same addresses (a program copy, a pooled fiber stack) would then
// read as "stack-buffer-underflow". Without ASan this does nothing.
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
#endif

namespace simfab::online {

inline void unpoison_mapping([[maybe_unused]] void* begin, [[maybe_unused]] size_t bytes) {
#if defined(SIMFAB_ASAN_MAPPINGS)
  __asan_unpoison_memory_region(begin, bytes);
#endif
}

}  // namespace simfab::online
