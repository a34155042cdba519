#include "online/basic_types.hpp"

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>

#include "online/reduce_kernels.hpp"

namespace simfab::online {

namespace {

using namespace kernels;

template <class V, class I>
struct CPair {  // the memory layout of MPI_DOUBLE_INT & co.
  V value;
  I index;
};

template <class T>
constexpr BasicType scalar(MPI_Datatype h, const char* name, TypeClass c, KernelPicker k) {
  return {h, name, sizeof(T), sizeof(T), alignof(T), c, MPI_DATATYPE_NULL, 0, MPI_DATATYPE_NULL, k};
}

template <class V, class I>
constexpr int32_t index_offset() {
  using P = CPair<V, I>;
  return offsetof(P, index);
}

template <class V, class I = int>
constexpr BasicType pair(MPI_Datatype h, const char* name, MPI_Datatype value, MPI_Datatype index = MPI_INT) {
  return {h,
          name,
          static_cast<int32_t>(sizeof(V) + sizeof(I)),
          sizeof(CPair<V, I>),
          alignof(CPair<V, I>),
          TypeClass::kPair,
          value,
          index_offset<V, I>(),
          index,
          &pair_kernel<V, I>};
}
// Fortran's pairs: the index has the value's type.
template <class V>
constexpr BasicType fortran_pair(MPI_Datatype h, const char* name, MPI_Datatype value) {
  return pair<V, V>(h, name, value, value);
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
// Fortran's LOGICAL(KIND=k): an integer of k bytes, 0 false and anything else true (gfortran
// writes 1 for .TRUE.).
template <class T>
constexpr BasicType fortran_logical(MPI_Datatype h, const char* name) {
  return scalar<T>(h, name, TypeClass::kLogical, &logical_kernel<T>);
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
    text<char>(MPI_CHARACTER, "MPI_CHARACTER"),
    fortran_logical<int32_t>(MPI_LOGICAL, "MPI_LOGICAL"),
    integer<int32_t>(MPI_INTEGER, "MPI_INTEGER"),
    floating<float>(MPI_REAL, "MPI_REAL"),
    floating<double>(MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION"),
    complex<float>(MPI_COMPLEX, "MPI_COMPLEX"),
    complex<double>(MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX"),
    fortran_pair<float>(MPI_2REAL, "MPI_2REAL", MPI_REAL),
    fortran_pair<double>(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", MPI_DOUBLE_PRECISION),
    fortran_pair<int32_t>(MPI_2INTEGER, "MPI_2INTEGER", MPI_INTEGER),
    integer<int8_t>(MPI_INTEGER1, "MPI_INTEGER1"),
    integer<int16_t>(MPI_INTEGER2, "MPI_INTEGER2"),
    integer<int32_t>(MPI_INTEGER4, "MPI_INTEGER4"),
    integer<int64_t>(MPI_INTEGER8, "MPI_INTEGER8"),
    floating<float>(MPI_REAL4, "MPI_REAL4"),
    floating<double>(MPI_REAL8, "MPI_REAL8"),
    complex<float>(MPI_COMPLEX8, "MPI_COMPLEX8"),
    complex<double>(MPI_COMPLEX16, "MPI_COMPLEX16"),
    fortran_logical<int8_t>(MPI_LOGICAL1, "MPI_LOGICAL1"),
    fortran_logical<int16_t>(MPI_LOGICAL2, "MPI_LOGICAL2"),
    fortran_logical<int32_t>(MPI_LOGICAL4, "MPI_LOGICAL4"),
    fortran_logical<int64_t>(MPI_LOGICAL8, "MPI_LOGICAL8"),
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
