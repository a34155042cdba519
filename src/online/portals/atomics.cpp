#include "online/portals/atomics.hpp"

#include <complex>
#include <cstring>
#include <type_traits>

namespace simfab::online::portals {

namespace {

enum class Family : uint8_t { kInteger, kFloat, kComplex, kUnknown };

Family family(ptl_datatype_t t) {
  switch (t) {
    case PTL_INT8_T: case PTL_UINT8_T: case PTL_INT16_T: case PTL_UINT16_T: case PTL_INT32_T:
    case PTL_UINT32_T: case PTL_INT64_T: case PTL_UINT64_T:
      return Family::kInteger;
    case PTL_FLOAT: case PTL_DOUBLE: case PTL_LONG_DOUBLE:
      return Family::kFloat;
    case PTL_FLOAT_COMPLEX: case PTL_DOUBLE_COMPLEX: case PTL_LONG_DOUBLE_COMPLEX:
      return Family::kComplex;
  }
  return Family::kUnknown;
}

bool is_conditional(ptl_op_t op) {
  return op == PTL_CSWAP || op == PTL_CSWAP_NE || op == PTL_CSWAP_LE || op == PTL_CSWAP_LT || op == PTL_CSWAP_GE ||
         op == PTL_CSWAP_GT;
}

// compare OP target, the condition of a conditional swap.
template <typename T>
bool condition(ptl_op_t op, const T& compare, const T& target) {
  if constexpr (std::is_arithmetic_v<T>) {
    switch (op) {
      case PTL_CSWAP: return compare == target;
      case PTL_CSWAP_NE: return compare != target;
      case PTL_CSWAP_LE: return compare <= target;
      case PTL_CSWAP_LT: return compare < target;
      case PTL_CSWAP_GE: return compare >= target;
      case PTL_CSWAP_GT: return compare > target;
      default: return false;
    }
  } else {
    return op == PTL_CSWAP ? compare == target : compare != target;
  }
}

template <typename T>
T combine(ptl_op_t op, const T& target, const T& operand, const T& compare) {
  if (op == PTL_SWAP) return operand;
  if (is_conditional(op)) return condition(op, compare, target) ? operand : target;
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case PTL_MIN: return operand < target ? operand : target;
      case PTL_MAX: return operand > target ? operand : target;
      case PTL_SUM: return static_cast<T>(target + operand);
      case PTL_PROD: return static_cast<T>(target * operand);
      case PTL_LOR: return static_cast<T>((target != 0) || (operand != 0));
      case PTL_LAND: return static_cast<T>((target != 0) && (operand != 0));
      case PTL_LXOR: return static_cast<T>((target != 0) != (operand != 0));
      case PTL_BOR: return static_cast<T>(target | operand);
      case PTL_BAND: return static_cast<T>(target & operand);
      case PTL_BXOR: return static_cast<T>(target ^ operand);
      case PTL_MSWAP: return static_cast<T>((target & ~compare) | (operand & compare));
      default: return target;
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case PTL_MIN: return operand < target ? operand : target;
      case PTL_MAX: return operand > target ? operand : target;
      case PTL_SUM: return target + operand;
      case PTL_PROD: return target * operand;
      default: return target;
    }
  } else {
    switch (op) {
      case PTL_SUM: return target + operand;
      case PTL_PROD: return target * operand;
      default: return target;
    }
  }
}

// Element by element through memcpy: the buffers need not be aligned.
template <typename T>
void apply_typed(ptl_op_t op, std::byte* target, const std::byte* operand, const std::byte* compare, std::byte* old_out,
                 size_t bytes) {
  T cmp{};
  if (compare) std::memcpy(&cmp, compare, sizeof(T));
  for (size_t at = 0; at + sizeof(T) <= bytes; at += sizeof(T)) {
    T t, o;
    std::memcpy(&t, target + at, sizeof(T));
    std::memcpy(&o, operand + at, sizeof(T));
    if (old_out) std::memcpy(old_out + at, &t, sizeof(T));
    const T r = combine(op, t, o, cmp);
    std::memcpy(target + at, &r, sizeof(T));
  }
}

}  // namespace

size_t datatype_size(ptl_datatype_t type) {
  switch (type) {
    case PTL_INT8_T: case PTL_UINT8_T: return 1;
    case PTL_INT16_T: case PTL_UINT16_T: return 2;
    case PTL_INT32_T: case PTL_UINT32_T: case PTL_FLOAT: return 4;
    case PTL_INT64_T: case PTL_UINT64_T: case PTL_DOUBLE: case PTL_FLOAT_COMPLEX: return 8;
    case PTL_DOUBLE_COMPLEX: return 16;
    case PTL_LONG_DOUBLE: return sizeof(long double);
    case PTL_LONG_DOUBLE_COMPLEX: return 2 * sizeof(long double);
  }
  return 0;
}

bool atomic_valid(ptl_op_t op, ptl_datatype_t type, uint64_t length) {
  const size_t size = datatype_size(type);
  if (size == 0 || length % size != 0) return false;
  const bool single = is_conditional(op) || op == PTL_MSWAP;
  if (single && length != size) return false;
  switch (family(type)) {
    case Family::kInteger: return op >= PTL_MIN && op <= PTL_MSWAP;
    case Family::kFloat:
      return op == PTL_MIN || op == PTL_MAX || op == PTL_SUM || op == PTL_PROD || op == PTL_SWAP || is_conditional(op);
    case Family::kComplex:
      return op == PTL_SUM || op == PTL_PROD || op == PTL_SWAP || op == PTL_CSWAP || op == PTL_CSWAP_NE;
    case Family::kUnknown: return false;
  }
  return false;
}

void apply_atomic(ptl_op_t op, ptl_datatype_t type, void* target, const void* operand, const void* compare,
                  void* old_out, size_t bytes) {
  auto* t = static_cast<std::byte*>(target);
  const auto* o = static_cast<const std::byte*>(operand);
  const auto* c = static_cast<const std::byte*>(compare);
  auto* old = static_cast<std::byte*>(old_out);
  switch (type) {
    case PTL_INT8_T: return apply_typed<int8_t>(op, t, o, c, old, bytes);
    case PTL_UINT8_T: return apply_typed<uint8_t>(op, t, o, c, old, bytes);
    case PTL_INT16_T: return apply_typed<int16_t>(op, t, o, c, old, bytes);
    case PTL_UINT16_T: return apply_typed<uint16_t>(op, t, o, c, old, bytes);
    case PTL_INT32_T: return apply_typed<int32_t>(op, t, o, c, old, bytes);
    case PTL_UINT32_T: return apply_typed<uint32_t>(op, t, o, c, old, bytes);
    case PTL_INT64_T: return apply_typed<int64_t>(op, t, o, c, old, bytes);
    case PTL_UINT64_T: return apply_typed<uint64_t>(op, t, o, c, old, bytes);
    case PTL_FLOAT: return apply_typed<float>(op, t, o, c, old, bytes);
    case PTL_DOUBLE: return apply_typed<double>(op, t, o, c, old, bytes);
    case PTL_LONG_DOUBLE: return apply_typed<long double>(op, t, o, c, old, bytes);
    case PTL_FLOAT_COMPLEX: return apply_typed<std::complex<float>>(op, t, o, c, old, bytes);
    case PTL_DOUBLE_COMPLEX: return apply_typed<std::complex<double>>(op, t, o, c, old, bytes);
    case PTL_LONG_DOUBLE_COMPLEX: return apply_typed<std::complex<long double>>(op, t, o, c, old, bytes);
  }
}

}  // namespace simfab::online::portals
