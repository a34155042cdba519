// Portals handles (Portals 4.1 spec §3.3.2): opaque 64-bit values a program gets from PtlNIInit,
// PtlEQAlloc, PtlCTAlloc, PtlMDBind, PtlMEAppend and PtlLEAppend, and gives back to every other
// call. simfab packs into one what it needs to find the object and to refuse a stale or foreign
// handle with PTL_ARG_INVALID instead of crashing:
//
//   bits 60-63  kind (1 NI, 2 EQ, 3 CT, 4 MD, 5 ME, 6 LE; 0 and 15 never valid, so PTL_EQ_NONE,
//               PTL_CT_NONE and PTL_INVALID_HANDLE never decode)
//   bits 36-59  the owning rank (every rank lives in one address space: a handle of another rank
//               is invalid, as it would be in another process)
//   bits 34-35  the NI index within the rank (ni_index(): matching x logical)
//   bits 24-33  generation of the slot (a freed slot reused gets a new one: old handles fail)
//   bits  0-23  slot index in the NI's table of that kind
#pragma once

#include <cstdint>
#include <optional>

namespace simfab::online::portals {

enum class HandleKind : uint8_t { kNone = 0, kNi = 1, kEq = 2, kCt = 3, kMd = 4, kMe = 5, kLe = 6 };

struct HandleParts {
  HandleKind kind = HandleKind::kNone;
  int32_t rank = 0;
  uint32_t ni = 0;
  uint32_t generation = 0;
  uint32_t index = 0;
};

inline constexpr uint32_t kMaxSlots = 1u << 24;
inline constexpr uint32_t kGenerationMask = (1u << 10) - 1;
inline constexpr int32_t kMaxRanks = 1 << 24;

inline uint64_t encode_handle(const HandleParts& p) {
  return (uint64_t{static_cast<uint8_t>(p.kind)} << 60) | (uint64_t{static_cast<uint32_t>(p.rank)} << 36) |
         (uint64_t{p.ni & 3u} << 34) | (uint64_t{p.generation & kGenerationMask} << 24) | (p.index & (kMaxSlots - 1));
}

// nullopt when the value is not a handle of `kind`.
inline std::optional<HandleParts> decode_handle(uint64_t h, HandleKind kind) {
  HandleParts p;
  p.kind = static_cast<HandleKind>(h >> 60);
  if (p.kind != kind || kind == HandleKind::kNone) return std::nullopt;
  p.rank = static_cast<int32_t>((h >> 36) & (uint64_t{kMaxRanks} - 1));
  p.ni = static_cast<uint32_t>((h >> 34) & 3u);
  p.generation = static_cast<uint32_t>((h >> 24) & kGenerationMask);
  p.index = static_cast<uint32_t>(h & (kMaxSlots - 1));
  return p;
}

}  // namespace simfab::online::portals
