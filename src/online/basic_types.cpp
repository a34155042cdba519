#include "online/basic_types.hpp"

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>

#include "online/reduce_kernels.hpp"

namespace simfab::online {

namespace {

using namespace kernels;

template <class V>
struct CPair {  // the memory layout of MPI_DOUBLE_INT & co.
  V value;
  int index;
};

template <class T>
constexpr BasicType scalar(MPI_Datatype h, const char* name, TypeClass c, KernelPicker k) {
  return {h, name, sizeof(T), sizeof(T), alignof(T), c, MPI_DATATYPE_NULL, 0, k};
}

template <class V>
constexpr BasicType pair(MPI_Datatype h, const char* name, MPI_Datatype value) {
  return {h,
          name,
          static_cast<int32_t>(sizeof(V) + sizeof(int)),
          sizeof(CPair<V>),
          alignof(CPair<V>),
          TypeClass::kPair,
          value,
          offsetof(CPair<V>, index),
          &pair_kernel<V>};
}

static_assert(sizeof(bool) == 1 && sizeof(int) == 4, "C_BOOL / pair layouts assume these sizes");
static_assert(sizeof(std::complex<double>) == 2 * sizeof(double));

// One maker per MPI 3.1 §5.9.2 class: the class decides the kernels.
template <class T>
constexpr BasicType integer(MPI_Datatype h, const char* name) {
  return scalar<T>(h, name, TypeClass::kInteger, &integer_kernel<T>);
}
template <class T>
constexpr BasicType floating(MPI_Datatype h, const char* name) {
  return scalar<T>(h, name, TypeClass::kFloat, &float_kernel<T>);
}
template <class V>
constexpr BasicType complex(MPI_Datatype h, const char* name) {
  return scalar<std::complex<V>>(h, name, TypeClass::kComplex, &complex_kernel<std::complex<V>>);
}
// _Bool and bool are one byte holding 0 or 1; the kernels read it as a byte.
constexpr BasicType logical(MPI_Datatype h, const char* name) {
  return scalar<bool>(h, name, TypeClass::kLogical, &logical_kernel<uint8_t>);
}
template <class T>
constexpr BasicType text(MPI_Datatype h, const char* name) {
  return scalar<T>(h, name, TypeClass::kText, &no_kernel);
}

constexpr std::array kTable{
    text<char>(MPI_CHAR, "MPI_CHAR"),
    integer<signed char>(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR"),
    integer<unsigned char>(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR"),
    scalar<uint8_t>(MPI_BYTE, "MPI_BYTE", TypeClass::kByte, &byte_kernel<uint8_t>),
    text<wchar_t>(MPI_WCHAR, "MPI_WCHAR"),
    integer<short>(MPI_SHORT, "MPI_SHORT"),
    integer<unsigned short>(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT"),
    integer<int>(MPI_INT, "MPI_INT"),
    integer<unsigned>(MPI_UNSIGNED, "MPI_UNSIGNED"),
    integer<long>(MPI_LONG, "MPI_LONG"),
    integer<unsigned long>(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG"),
    integer<long long>(MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT"),
    integer<long long>(MPI_LONG_LONG, "MPI_LONG_LONG"),
    integer<unsigned long long>(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG"),
    floating<float>(MPI_FLOAT, "MPI_FLOAT"),
    floating<double>(MPI_DOUBLE, "MPI_DOUBLE"),
    floating<long double>(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE"),
    integer<int8_t>(MPI_INT8_T, "MPI_INT8_T"),
    integer<int16_t>(MPI_INT16_T, "MPI_INT16_T"),
    integer<int32_t>(MPI_INT32_T, "MPI_INT32_T"),
    integer<int64_t>(MPI_INT64_T, "MPI_INT64_T"),
    integer<uint8_t>(MPI_UINT8_T, "MPI_UINT8_T"),
    integer<uint16_t>(MPI_UINT16_T, "MPI_UINT16_T"),
    integer<uint32_t>(MPI_UINT32_T, "MPI_UINT32_T"),
    integer<uint64_t>(MPI_UINT64_T, "MPI_UINT64_T"),
    logical(MPI_C_BOOL, "MPI_C_BOOL"),
    logical(MPI_CXX_BOOL, "MPI_CXX_BOOL"),
    complex<float>(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX"),
    complex<float>(MPI_C_COMPLEX, "MPI_C_COMPLEX"),
    complex<double>(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX"),
    complex<long double>(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX"),
    complex<float>(MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX"),
    complex<double>(MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX"),
    complex<long double>(MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX"),
    integer<MPI_Aint>(MPI_AINT, "MPI_AINT"),
    integer<MPI_Offset>(MPI_OFFSET, "MPI_OFFSET"),
    integer<MPI_Count>(MPI_COUNT, "MPI_COUNT"),
    scalar<uint8_t>(MPI_PACKED, "MPI_PACKED", TypeClass::kPacked, &no_kernel),
    pair<float>(MPI_FLOAT_INT, "MPI_FLOAT_INT", MPI_FLOAT),
    pair<double>(MPI_DOUBLE_INT, "MPI_DOUBLE_INT", MPI_DOUBLE),
    pair<long>(MPI_LONG_INT, "MPI_LONG_INT", MPI_LONG),
    pair<int>(MPI_2INT, "MPI_2INT", MPI_INT),
    pair<short>(MPI_SHORT_INT, "MPI_SHORT_INT", MPI_SHORT),
    pair<long double>(MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE),
};

constexpr bool indexed_by_handle() {
  for (size_t i = 0; i < kTable.size(); ++i) {
    if (kTable[i].handle != static_cast<MPI_Datatype>(i + 1)) return false;
  }
  return kTable.size() == static_cast<size_t>(kLastPredefinedType);
}
static_assert(indexed_by_handle(), "kTable row i must describe handle i + 1");

}  // namespace

const BasicType* basic_type(MPI_Datatype t) {
  if (t < 1 || t > kLastPredefinedType) return nullptr;
  return &kTable[static_cast<size_t>(t - 1)];
}

}  // namespace simfab::online
