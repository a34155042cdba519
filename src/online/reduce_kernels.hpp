// reduce_kernels: the built-in reduction operations (MPI_MAX .. MPI_MAXLOC) as one template
// kernel per (C type, operation), instantiated only where MPI 3.1 §5.9.2 defines the pair.
//
// A kernel computes inout[i] = in[i] op inout[i] over n elements in PACKED form: elements are
// read and written with memcpy, so buffers need no alignment (a packed struct type puts a double
// at any byte). Pair elements (MINLOC/MAXLOC) are {value, index} with no padding; the index is an
// int32, or of the value's type for Fortran's MPI_2REAL & co.
// Integer SUM and PROD wrap around (computed in unsigned arithmetic, as every MPI does in
// practice; signed overflow is not undefined behaviour here). Logical operations yield 0 or 1.
// MINLOC / MAXLOC keep the lower index on equal values (MPI 3.1 §5.9.4).
// Category pickers (integer_kernel<T>, ...) map an MPI_Op to its kernel or nullptr, through one
// variadic list of operation functors per category: the op x type matrix is these lists.
// Complexity: O(n), no allocation.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "online/basic_types.hpp"

namespace simfab::online::kernels {

template <class V, class I = int32_t>
struct ValueIndex {
  V value;
  I index;
};

template <class T>
struct Codec {
  static constexpr int64_t kSize = sizeof(T);
  static T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
  static void store(std::byte* p, const T& v) { std::memcpy(p, &v, sizeof(T)); }
};

template <class V, class I>
struct Codec<ValueIndex<V, I>> {
  static constexpr int64_t kSize = sizeof(V) + sizeof(I);
  static ValueIndex<V, I> load(const std::byte* p) {
    return {Codec<V>::load(p), Codec<I>::load(p + sizeof(V))};
  }
  static void store(std::byte* p, const ValueIndex<V, I>& v) {
    Codec<V>::store(p, v.value);
    Codec<I>::store(p + sizeof(V), v.index);
  }
};

// Unsigned arithmetic of at least int's width for integer T (no promotion to signed int).
template <class T>
using Wrapping = decltype(std::make_unsigned_t<T>{} + 0u);

struct Max {
  static constexpr MPI_Op kOp = MPI_MAX;
  template <class T>
  static T apply(T a, T b) {
    return b < a ? a : b;
  }
};
struct Min {
  static constexpr MPI_Op kOp = MPI_MIN;
  template <class T>
  static T apply(T a, T b) {
    return a < b ? a : b;
  }
};
struct Sum {
  static constexpr MPI_Op kOp = MPI_SUM;
  template <class T>
  static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(static_cast<Wrapping<T>>(a) + static_cast<Wrapping<T>>(b));
    } else {
      return a + b;
    }
  }
};
struct Prod {
  static constexpr MPI_Op kOp = MPI_PROD;
  template <class T>
  static T apply(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      return static_cast<T>(static_cast<Wrapping<T>>(a) * static_cast<Wrapping<T>>(b));
    } else {
      return a * b;
    }
  }
};
struct Land {
  static constexpr MPI_Op kOp = MPI_LAND;
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>(a != T{} && b != T{});
  }
};
struct Lor {
  static constexpr MPI_Op kOp = MPI_LOR;
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>(a != T{} || b != T{});
  }
};
struct Lxor {
  static constexpr MPI_Op kOp = MPI_LXOR;
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>((a != T{}) != (b != T{}));
  }
};
struct Band {
  static constexpr MPI_Op kOp = MPI_BAND;
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>(a & b);
  }
};
struct Bor {
  static constexpr MPI_Op kOp = MPI_BOR;
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>(a | b);
  }
};
struct Bxor {
  static constexpr MPI_Op kOp = MPI_BXOR;
  template <class T>
  static T apply(T a, T b) {
    return static_cast<T>(a ^ b);
  }
};
// Pairs: a = in, b = inout; equal values keep the lower index.
struct Minloc {
  static constexpr MPI_Op kOp = MPI_MINLOC;
  template <class V, class I>
  static ValueIndex<V, I> apply(ValueIndex<V, I> a, ValueIndex<V, I> b) {
    if (a.value < b.value) return a;
    if (b.value < a.value) return b;
    return {a.value, a.index < b.index ? a.index : b.index};
  }
};
struct Maxloc {
  static constexpr MPI_Op kOp = MPI_MAXLOC;
  template <class V, class I>
  static ValueIndex<V, I> apply(ValueIndex<V, I> a, ValueIndex<V, I> b) {
    if (b.value < a.value) return a;
    if (a.value < b.value) return b;
    return {a.value, a.index < b.index ? a.index : b.index};
  }
};

template <class T, class Op>
void reduce(const std::byte* in, std::byte* inout, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t at = i * Codec<T>::kSize;
    Codec<T>::store(inout + at, Op::apply(Codec<T>::load(in + at), Codec<T>::load(inout + at)));
  }
}

template <class T, class... Ops>
ReduceKernel pick(MPI_Op op) {
  ReduceKernel k = nullptr;
  (void)((op == Ops::kOp && (k = &reduce<T, Ops>, true)) || ...);
  return k;
}

template <class T>
ReduceKernel integer_kernel(MPI_Op op) {
  return pick<T, Max, Min, Sum, Prod, Land, Lor, Lxor, Band, Bor, Bxor>(op);
}
template <class T>
ReduceKernel float_kernel(MPI_Op op) {
  return pick<T, Max, Min, Sum, Prod>(op);
}
template <class T>
ReduceKernel complex_kernel(MPI_Op op) {
  return pick<T, Sum, Prod>(op);
}
template <class T>
ReduceKernel logical_kernel(MPI_Op op) {
  return pick<T, Land, Lor, Lxor>(op);
}
template <class T>
ReduceKernel byte_kernel(MPI_Op op) {
  return pick<T, Band, Bor, Bxor>(op);
}
template <class V, class I = int32_t>
ReduceKernel pair_kernel(MPI_Op op) {
  return pick<ValueIndex<V, I>, Minloc, Maxloc>(op);
}
inline ReduceKernel no_kernel(MPI_Op) { return nullptr; }

}  // namespace simfab::online::kernels
