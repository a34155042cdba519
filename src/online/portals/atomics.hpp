// Portals atomic operations (Portals 4.1 spec §3.15.4; seed 000 §2.4, test 2): PtlAtomic,
// PtlFetchAtomic and PtlSwap apply an operation element by element to the target entry's memory,
// target := op(target, operand), where the operand is the initiator's put-MD data. Fetching
// variants return the target's value from before the operation into the initiator's get MD.
//
//   MIN MAX SUM PROD          integers, floats; SUM/PROD also complex
//   LOR LAND LXOR BOR BAND BXOR   integers only (logical ones treat non-zero as true)
//   SWAP                      any type: target := operand
//   CSWAP[_NE|_LE|_LT|_GE|_GT]   one element: if (compare OP target) then target := operand, where
//                             compare is PtlSwap's `operand` argument; complex only CSWAP/CSWAP_NE
//   MSWAP                     one element, integers: target := (target & ~mask) | (operand & mask),
//                             mask = PtlSwap's `operand` argument
// The element granularity is the datatype's size; a length that is not a multiple of it, or a
// conditional/masked swap of more than one element, is PTL_ARG_INVALID at the initiator.
#pragma once

#include <simfab/portals4.h>

#include <cstddef>
#include <cstdint>

namespace simfab::online::portals {

// Bytes of one element of `type`; 0 for an unknown type.
size_t datatype_size(ptl_datatype_t type);

// True when `op` is defined on `type` for `length` bytes (see above).
bool atomic_valid(ptl_op_t op, ptl_datatype_t type, uint64_t length);

// Applies `op` to `bytes` bytes of `target` (a whole number of elements), element by element.
// `operand`: the initiator's data (bytes long); `compare`: PtlSwap's operand (one element; CSWAP
// and MSWAP only, else ignored); `old_out`: if not null, receives the target's previous bytes.
// REQUIRES: atomic_valid(op, type, bytes). `old_out` may not overlap `target`.
void apply_atomic(ptl_op_t op, ptl_datatype_t type, void* target, const void* operand, const void* compare,
                  void* old_out, size_t bytes);

}  // namespace simfab::online::portals
