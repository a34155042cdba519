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

constexpr TypeClass kInt = TypeClass::kInteger;
constexpr TypeClass kFlt = TypeClass::kFloat;
constexpr TypeClass kCpx = TypeClass::kComplex;

constexpr std::array kTable{
    scalar<char>(MPI_CHAR, "MPI_CHAR", TypeClass::kText, &no_kernel),
    scalar<signed char>(MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", kInt, &integer_kernel<signed char>),
    scalar<unsigned char>(MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", kInt, &integer_kernel<unsigned char>),
    scalar<uint8_t>(MPI_BYTE, "MPI_BYTE", TypeClass::kByte, &byte_kernel<uint8_t>),
    scalar<wchar_t>(MPI_WCHAR, "MPI_WCHAR", TypeClass::kText, &no_kernel),
    scalar<short>(MPI_SHORT, "MPI_SHORT", kInt, &integer_kernel<short>),
    scalar<unsigned short>(MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", kInt, &integer_kernel<unsigned short>),
    scalar<int>(MPI_INT, "MPI_INT", kInt, &integer_kernel<int>),
    scalar<unsigned>(MPI_UNSIGNED, "MPI_UNSIGNED", kInt, &integer_kernel<unsigned>),
    scalar<long>(MPI_LONG, "MPI_LONG", kInt, &integer_kernel<long>),
    scalar<unsigned long>(MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", kInt, &integer_kernel<unsigned long>),
    scalar<long long>(MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", kInt, &integer_kernel<long long>),
    scalar<long long>(MPI_LONG_LONG, "MPI_LONG_LONG", kInt, &integer_kernel<long long>),
    scalar<unsigned long long>(MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", kInt,
                               &integer_kernel<unsigned long long>),
    scalar<float>(MPI_FLOAT, "MPI_FLOAT", kFlt, &float_kernel<float>),
    scalar<double>(MPI_DOUBLE, "MPI_DOUBLE", kFlt, &float_kernel<double>),
    scalar<long double>(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", kFlt, &float_kernel<long double>),
    scalar<int8_t>(MPI_INT8_T, "MPI_INT8_T", kInt, &integer_kernel<int8_t>),
    scalar<int16_t>(MPI_INT16_T, "MPI_INT16_T", kInt, &integer_kernel<int16_t>),
    scalar<int32_t>(MPI_INT32_T, "MPI_INT32_T", kInt, &integer_kernel<int32_t>),
    scalar<int64_t>(MPI_INT64_T, "MPI_INT64_T", kInt, &integer_kernel<int64_t>),
    scalar<uint8_t>(MPI_UINT8_T, "MPI_UINT8_T", kInt, &integer_kernel<uint8_t>),
    scalar<uint16_t>(MPI_UINT16_T, "MPI_UINT16_T", kInt, &integer_kernel<uint16_t>),
    scalar<uint32_t>(MPI_UINT32_T, "MPI_UINT32_T", kInt, &integer_kernel<uint32_t>),
    scalar<uint64_t>(MPI_UINT64_T, "MPI_UINT64_T", kInt, &integer_kernel<uint64_t>),
    // _Bool and bool are one byte holding 0 or 1; the kernels read it as a byte.
    scalar<bool>(MPI_C_BOOL, "MPI_C_BOOL", TypeClass::kLogical, &logical_kernel<uint8_t>),
    scalar<bool>(MPI_CXX_BOOL, "MPI_CXX_BOOL", TypeClass::kLogical, &logical_kernel<uint8_t>),
    scalar<std::complex<float>>(MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", kCpx,
                                &complex_kernel<std::complex<float>>),
    scalar<std::complex<float>>(MPI_C_COMPLEX, "MPI_C_COMPLEX", kCpx,
                                &complex_kernel<std::complex<float>>),
    scalar<std::complex<double>>(MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", kCpx,
                                 &complex_kernel<std::complex<double>>),
    scalar<std::complex<long double>>(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", kCpx,
                                      &complex_kernel<std::complex<long double>>),
    scalar<std::complex<float>>(MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", kCpx,
                                &complex_kernel<std::complex<float>>),
    scalar<std::complex<double>>(MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", kCpx,
                                 &complex_kernel<std::complex<double>>),
    scalar<std::complex<long double>>(MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX",
                                      kCpx, &complex_kernel<std::complex<long double>>),
    scalar<MPI_Aint>(MPI_AINT, "MPI_AINT", kInt, &integer_kernel<MPI_Aint>),
    scalar<MPI_Offset>(MPI_OFFSET, "MPI_OFFSET", kInt, &integer_kernel<MPI_Offset>),
    scalar<MPI_Count>(MPI_COUNT, "MPI_COUNT", kInt, &integer_kernel<MPI_Count>),
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
