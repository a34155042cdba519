// Online mode's data layer (src/online/datatype.hpp, type_constructors.hpp, reduce_op.hpp, ...):
// sizes, extents and packed byte layouts of the MPI 3.1 §4.1 constructors against the typemaps
// the standard's examples spell out (quoted next to each case), every built-in reduction on
// representative types, user operations, and the errors that stop a run (exit status 2).
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "online/datatype.hpp"
#include "online/dims_create.hpp"
#include "online/error_classes.hpp"
#include "online/info.hpp"
#include "online/reduce_op.hpp"
#include "online/type_constructors.hpp"
#include "online/type_queries.hpp"

namespace simfab::online {
namespace {

using testing::ExitedWithCode;

MPI_Datatype committed(MPI_Datatype t) {
  type_commit(t, "test");
  return t;
}

// Packs `count` instances of t from `src` and reads the packed bytes back as T values.
template <class T, class S>
std::vector<T> pack_as(const std::vector<S>& src, int64_t count, MPI_Datatype t) {
  std::vector<std::byte> packed(static_cast<size_t>(count * type_size(t, "test")));
  pack(src.data(), count, t, packed.data());
  std::vector<T> out(packed.size() / sizeof(T));
  std::memcpy(out.data(), packed.data(), out.size() * sizeof(T));
  return out;
}

std::vector<double> iota_doubles(int n) {
  std::vector<double> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0.0);
  return v;
}

// The standard's running example type {(double, 0), (char, 8)}, extent 16 (§4.1.2 onwards).
MPI_Datatype double_char() {
  const int bl[] = {1, 1};
  const MPI_Aint disp[] = {0, 8};
  const MPI_Datatype types[] = {MPI_DOUBLE, MPI_CHAR};
  return type_struct(2, bl, disp, types, "test");
}

TEST(OnlineDatatype, PredefinedLayouts) {
  EXPECT_EQ(type_size(MPI_INT, "t"), 4);
  EXPECT_EQ(type_extent(MPI_INT, "t"), 4);
  EXPECT_EQ(type_size(MPI_LONG_DOUBLE, "t"), 16);
  EXPECT_EQ(type_size(MPI_C_DOUBLE_COMPLEX, "t"), 16);
  EXPECT_EQ(type_size(MPI_WCHAR, "t"), 4);
  EXPECT_EQ(type_size(MPI_C_BOOL, "t"), 1);
  // Pairs: packed value + int, extent of the C struct.
  EXPECT_EQ(type_size(MPI_DOUBLE_INT, "t"), 12);
  EXPECT_EQ(type_extent(MPI_DOUBLE_INT, "t"), 16);
  EXPECT_EQ(type_size(MPI_SHORT_INT, "t"), 6);
  EXPECT_EQ(type_extent(MPI_SHORT_INT, "t"), 8);
  EXPECT_EQ(type_size(MPI_LONG_DOUBLE_INT, "t"), 20);
  EXPECT_EQ(type_extent(MPI_LONG_DOUBLE_INT, "t"), 32);
  EXPECT_EQ(type_size(MPI_2INT, "t"), 8);
  EXPECT_TRUE(is_contiguous(MPI_2INT));
  EXPECT_TRUE(is_contiguous(MPI_FLOAT_INT));
  EXPECT_FALSE(is_contiguous(MPI_DOUBLE_INT));
  EXPECT_STREQ(type_name(MPI_DOUBLE), "MPI_DOUBLE");
  EXPECT_STREQ(type_name(MPI_LONG_LONG), "MPI_LONG_LONG");
  EXPECT_STREQ(type_name(MPI_LONG_DOUBLE_INT), "MPI_LONG_DOUBLE_INT");
}

TEST(OnlineDatatype, PairPacksWithoutPadding) {
  struct DoubleInt {
    double v;
    int i;
  };
  const std::vector<DoubleInt> src{{1.5, 7}, {-2.0, 9}};
  std::vector<std::byte> packed(24);
  pack(src.data(), 2, MPI_DOUBLE_INT, packed.data());
  double v;
  int i;
  std::memcpy(&v, packed.data() + 12, 8);
  std::memcpy(&i, packed.data() + 20, 4);
  EXPECT_EQ(v, -2.0);
  EXPECT_EQ(i, 9);
  std::vector<DoubleInt> back(2, {0, 0});
  unpack(packed.data(), 2, MPI_DOUBLE_INT, back.data());
  EXPECT_EQ(back[1].v, -2.0);
  EXPECT_EQ(back[1].i, 9);
  EXPECT_EQ(back[0].i, 7);
}

TEST(OnlineDatatype, VectorOfTheStandard) {
  // §4.1.3: MPI_TYPE_VECTOR(2, 3, 4, oldtype) with oldtype {(double,0),(char,8)} has typemap
  // {(double,0),(char,8),(double,16),(char,24),(double,32),(char,40),
  //  (double,64),(char,72),(double,80),(char,88),(double,96),(char,104)}: extent 112.
  const MPI_Datatype v = committed(type_vector(2, 3, 4, double_char(), "test"));
  EXPECT_EQ(type_size(v, "t"), 6 * 9);
  EXPECT_EQ(type_extent(v, "t"), 112);
  // On plain doubles: 2 blocks of 3 with stride 4 -> extent (4 + 3) * 8 = 56.
  const MPI_Datatype d = committed(type_vector(2, 3, 4, MPI_DOUBLE, "test"));
  EXPECT_EQ(type_size(d, "t"), 48);
  EXPECT_EQ(type_extent(d, "t"), 56);
  EXPECT_FALSE(is_contiguous(d));
  // Instance 1 starts at 56 bytes = double 7.
  EXPECT_EQ(pack_as<double>(iota_doubles(14), 2, d),
            (std::vector<double>{0, 1, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13}));
  std::vector<double> packed{10, 11, 12, 14, 15, 16};
  std::vector<double> back(7, -1);
  unpack(packed.data(), 1, d, back.data());
  EXPECT_EQ(back, (std::vector<double>{10, 11, 12, -1, 14, 15, 16}));
}

// Equal layouts are held once (TypemapPool): what each rank of a run builds alike costs one copy.
TEST(OnlineDatatype, EqualLayoutsShareOneTypemap) {
  const MPI_Datatype a = committed(type_vector(256, 1, 18, MPI_DOUBLE, "test"));
  const MPI_Datatype b = committed(type_vector(256, 1, 18, MPI_DOUBLE, "test"));
  const MPI_Datatype c = committed(type_vector(256, 1, 19, MPI_DOUBLE, "test"));
  EXPECT_NE(a, b);
  EXPECT_EQ(&type_layout(a, "test"), &type_layout(b, "test"));
  EXPECT_NE(&type_layout(a, "test"), &type_layout(c, "test"));
  type_free(a, "test");
  EXPECT_EQ(type_layout(b, "test").blocks.size(), 256u);  // b keeps the shared layout alive
  EXPECT_EQ(type_size(b, "test"), 256 * 8);
  type_free(b, "test");
  type_free(c, "test");
}

TEST(OnlineDatatype, ContiguousAndHvector) {
  const MPI_Datatype c = committed(type_contiguous(5, MPI_INT, "test"));
  EXPECT_EQ(type_size(c, "t"), 20);
  EXPECT_EQ(type_extent(c, "t"), 20);
  EXPECT_TRUE(is_contiguous(c));
  // hvector(3, 2, 12 bytes, MPI_INT): ints 0 1, 3 4, 6 7; extent 2 * 12 + 8.
  const MPI_Datatype h = committed(type_hvector(3, 2, 12, MPI_INT, "test"));
  EXPECT_EQ(type_size(h, "t"), 24);
  EXPECT_EQ(type_extent(h, "t"), 2 * 12 + 8);
  std::vector<int> src(20);
  std::iota(src.begin(), src.end(), 0);
  EXPECT_EQ(pack_as<int>(src, 1, h), (std::vector<int>{0, 1, 3, 4, 6, 7}));
  // The contiguous of a dense type stays one run, however long.
  const MPI_Datatype big = committed(type_contiguous(1 << 30, MPI_BYTE, "test"));
  EXPECT_EQ(type_size(big, "t"), int64_t{1} << 30);
  EXPECT_TRUE(is_contiguous(big));
}

TEST(OnlineDatatype, IndexedOfTheStandard) {
  // §4.1.5: oldtype {(double,0),(char,8)}, B = (3, 1), D = (4, 0): MPI_TYPE_INDEXED(2, B, D)
  // = {(double,64),(char,72),(double,80),(char,88),(double,96),(char,104),(double,0),(char,8)}.
  const int bl[] = {3, 1};
  const int disp[] = {4, 0};
  const MPI_Datatype t = committed(type_indexed(2, bl, disp, double_char(), "test"));
  EXPECT_EQ(type_size(t, "t"), 36);
  EXPECT_EQ(type_extent(t, "t"), 112);
  MPI_Aint lb = type_layout(t, "t").lb;
  EXPECT_EQ(lb, 0);
  // Packing follows the typemap order: the block at 64 first.
  std::vector<std::byte> mem(112);
  for (size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<std::byte>(i);
  std::vector<std::byte> packed(36);
  pack(mem.data(), 1, t, packed.data());
  EXPECT_EQ(packed[0], std::byte{64});
  EXPECT_EQ(packed[8], std::byte{72});  // the char of the first copy
  EXPECT_EQ(packed[9], std::byte{80});  // the next double
  EXPECT_EQ(packed[27], std::byte{0});  // the block at displacement 0, last
  EXPECT_EQ(packed[35], std::byte{8});
  EXPECT_EQ(elements_of_bytes(36, t, "t"), 8);
}

TEST(OnlineDatatype, IndexedBlockAndHindexed) {
  const int disp[] = {5, 1, 8};
  const MPI_Datatype ib = committed(type_indexed_block(3, 2, disp, MPI_INT, "test"));
  EXPECT_EQ(type_size(ib, "t"), 24);
  EXPECT_EQ(type_layout(ib, "t").lb, 4);
  EXPECT_EQ(type_extent(ib, "t"), 40 - 4);
  std::vector<int> src(12);
  std::iota(src.begin(), src.end(), 100);
  EXPECT_EQ(pack_as<int>(src, 1, ib), (std::vector<int>{105, 106, 101, 102, 108, 109}));

  const int bl[] = {1, 2};
  const MPI_Aint hdisp[] = {12, 0};
  const MPI_Datatype hi = committed(type_hindexed(2, bl, hdisp, MPI_INT, "test"));
  EXPECT_EQ(pack_as<int>(src, 1, hi), (std::vector<int>{103, 100, 101}));
  const MPI_Aint hbdisp[] = {8, 0};
  const MPI_Datatype hb = committed(type_hindexed_block(2, 1, hbdisp, MPI_INT, "test"));
  EXPECT_EQ(pack_as<int>(src, 1, hb), (std::vector<int>{102, 100}));
}

TEST(OnlineDatatype, StructOfTheStandard) {
  // §4.1.6 Example: type1 = {(double,0),(char,8)}, B = (2, 1, 3), D = (0, 16, 26),
  // T = (MPI_FLOAT, type1, MPI_CHAR): {(float,0),(float,4),(double,16),(char,24),(char,26),
  // (char,27),(char,28)}. ub = max(8, 16 + 16, 29) = 32, a multiple of the alignment 8.
  const int bl[] = {2, 1, 3};
  const MPI_Aint disp[] = {0, 16, 26};
  const MPI_Datatype types[] = {MPI_FLOAT, double_char(), MPI_CHAR};
  const MPI_Datatype s = committed(type_struct(3, bl, disp, types, "test"));
  EXPECT_EQ(type_size(s, "t"), 20);
  EXPECT_EQ(type_extent(s, "t"), 32);
  EXPECT_EQ(type_layout(s, "t").true_ub, 29);
  std::vector<std::byte> mem(64);
  for (size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<std::byte>(i);
  std::vector<std::byte> packed(40);
  pack(mem.data(), 2, s, packed.data());
  const std::vector<int> expect_first{0,  1,  2,  3,  4,  5,  6,  7,  16, 17,
                                      18, 19, 20, 21, 22, 23, 24, 26, 27, 28};
  for (size_t k = 0; k < expect_first.size(); ++k) {
    EXPECT_EQ(packed[k], static_cast<std::byte>(expect_first[k])) << k;
    EXPECT_EQ(packed[20 + k], static_cast<std::byte>(32 + expect_first[k])) << k;
  }
  // MPI_Get_elements: 7 basic elements per instance; a float and a half is undefined.
  EXPECT_EQ(elements_of_bytes(40, s, "t"), 14);
  EXPECT_EQ(elements_of_bytes(8, s, "t"), 2);
  EXPECT_EQ(elements_of_bytes(17, s, "t"), 4);
  EXPECT_EQ(elements_of_bytes(10, s, "t"), MPI_UNDEFINED);
  EXPECT_EQ(count_of_bytes(40, s, "t"), 2);
  EXPECT_EQ(count_of_bytes(30, s, "t"), MPI_UNDEFINED);
  EXPECT_EQ(bytes_of_elements(3, s, "t"), 16);
  EXPECT_EQ(bytes_of_elements(9, s, "t"), 28);
}

TEST(OnlineDatatype, StructPadsLikeC) {
  // {double; char} is 16 bytes in C; {char; char} at 0 and 1 stays 2.
  const MPI_Datatype dc = double_char();
  EXPECT_EQ(type_layout(dc, "t").extent(), 16);
  EXPECT_EQ(type_layout(dc, "t").size, 9);
  const int bl[] = {1, 1};
  const MPI_Aint disp[] = {0, 4};
  const MPI_Datatype types[] = {MPI_INT, MPI_INT};
  const MPI_Datatype ii = committed(type_struct(2, bl, disp, types, "test"));
  EXPECT_TRUE(is_contiguous(ii));
  // A resized part has explicit bounds: no padding.
  const MPI_Datatype r = type_resized(MPI_DOUBLE, 0, 9, "test");
  const MPI_Datatype one[] = {r};
  const int bl1[] = {1};
  const MPI_Aint d1[] = {0};
  EXPECT_EQ(type_layout(type_struct(1, bl1, d1, one, "test"), "t").extent(), 9);
}

TEST(OnlineDatatype, Resized) {
  // Every other int: resized(MPI_INT, 0, 8), then 3 of them.
  const MPI_Datatype r = type_resized(MPI_INT, 0, 8, "test");
  const MPI_Datatype c = committed(type_contiguous(3, r, "test"));
  EXPECT_EQ(type_size(c, "t"), 12);
  EXPECT_EQ(type_extent(c, "t"), 24);
  EXPECT_FALSE(is_contiguous(c));
  std::vector<int> src{0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(pack_as<int>(src, 1, c), (std::vector<int>{0, 2, 4}));
  // A negative lb: the data stays at offset 0, the extent runs from -4.
  const MPI_Datatype neg = committed(type_resized(MPI_INT, -4, 12, "test"));
  EXPECT_EQ(type_layout(neg, "t").lb, -4);
  EXPECT_EQ(type_extent(neg, "t"), 12);
  EXPECT_EQ(pack_as<int>(src, 2, neg), (std::vector<int>{0, 3}));
}

TEST(OnlineDatatype, SubarrayCOrder) {
  // A 4 x 5 int array, the 2 x 3 block at (1, 2): elements 7, 8, 9, 12, 13, 14.
  const int sizes[] = {4, 5};
  const int subsizes[] = {2, 3};
  const int starts[] = {1, 2};
  const MPI_Datatype t =
      committed(type_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, "test"));
  EXPECT_EQ(type_size(t, "t"), 24);
  EXPECT_EQ(type_layout(t, "t").lb, 0);
  EXPECT_EQ(type_extent(t, "t"), 80);
  EXPECT_EQ(type_layout(t, "t").true_lb, 28);
  EXPECT_EQ(type_layout(t, "t").true_ub, 60);
  std::vector<int> src(40);
  std::iota(src.begin(), src.end(), 0);
  // Instance 1 is the next full 4 x 5 array.
  EXPECT_EQ(pack_as<int>(src, 2, t),
            (std::vector<int>{7, 8, 9, 12, 13, 14, 27, 28, 29, 32, 33, 34}));
  std::vector<int> in{1, 2, 3, 4, 5, 6};
  std::vector<int> back(20, 0);
  unpack(in.data(), 1, t, back.data());
  EXPECT_EQ(back[7], 1);
  EXPECT_EQ(back[14], 6);
  EXPECT_EQ(std::accumulate(back.begin(), back.end(), 0), 21);
}

TEST(OnlineDatatype, SubarrayFortranOrderAnd3d) {
  // Fortran order: dimension 0 fastest, element (i0, i1) at i0 + 4 * i1.
  const int sizes[] = {4, 5};
  const int subsizes[] = {2, 3};
  const int starts[] = {1, 2};
  const MPI_Datatype f =
      committed(type_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, "test"));
  std::vector<int> src(20);
  std::iota(src.begin(), src.end(), 0);
  EXPECT_EQ(pack_as<int>(src, 1, f), (std::vector<int>{9, 10, 13, 14, 17, 18}));
  // 3 x 3 x 3 doubles, the 1 x 2 x 2 block at (2, 1, 1) in C order: 2*9 + 1*3 + 1 = 22, 23, 25, 26.
  const int s3[] = {3, 3, 3};
  const int sub3[] = {1, 2, 2};
  const int st3[] = {2, 1, 1};
  const MPI_Datatype c3 = committed(type_subarray(3, s3, sub3, st3, MPI_ORDER_C, MPI_DOUBLE, "t"));
  EXPECT_EQ(type_extent(c3, "t"), 27 * 8);
  EXPECT_EQ(pack_as<double>(iota_doubles(27), 1, c3), (std::vector<double>{22, 23, 25, 26}));
}

TEST(OnlineDatatype, DupNamesAndHandles) {
  const MPI_Datatype v = type_vector(2, 1, 2, MPI_INT, "test");
  EXPECT_GE(v, kFirstDerivedType);
  EXPECT_STREQ(type_name(v), ("derived datatype " + std::to_string(v)).c_str());
  EXPECT_EQ(type_get_name(v, "t"), "");
  type_set_name(v, "stencil_row", "t");
  EXPECT_STREQ(type_name(v), "stencil_row");
  EXPECT_EQ(type_get_name(MPI_INT, "t"), "MPI_INT");
  EXPECT_FALSE(type_is_committed(v, "t"));
  const MPI_Datatype d = type_dup(committed(v), "test");
  EXPECT_NE(d, v);
  EXPECT_TRUE(type_is_committed(d, "t"));
  EXPECT_EQ(type_extent(d, "t"), 12);
  const MPI_Datatype di = type_dup(MPI_INT, "test");
  EXPECT_TRUE(type_is_committed(di, "t"));
  EXPECT_EQ(type_size(di, "t"), 4);
}

TEST(OnlineDatatype, FreeWhileRetained) {
  const MPI_Datatype v = committed(type_vector(2, 1, 2, MPI_INT, "test"));
  const size_t live = live_derived_types();
  type_retain(v);  // a pending receive holds it
  type_free(v, "MPI_Type_free");
  EXPECT_EQ(live_derived_types(), live);
  std::vector<int> src{1, 2, 3};
  EXPECT_EQ(pack_as<int>(src, 1, v), (std::vector<int>{1, 3}));
  type_release(v);
  EXPECT_EQ(live_derived_types(), live - 1);
  EXPECT_EXIT(type_size(v, "MPI_Send"), ExitedWithCode(2), "MPI_Send: invalid datatype");
}

TEST(OnlineDatatype, PackAtPosition) {
  const std::vector<int> a{1, 2, 3};
  const std::vector<double> b{0.5};
  std::vector<std::byte> buf(20);
  int position = 0;
  pack_at(a.data(), 3, MPI_INT, buf.data(), 20, &position, "MPI_Pack");
  pack_at(b.data(), 1, MPI_DOUBLE, buf.data(), 20, &position, "MPI_Pack");
  EXPECT_EQ(position, 20);
  std::vector<int> a2(3);
  double b2 = 0;
  position = 0;
  unpack_at(buf.data(), 20, &position, a2.data(), 3, MPI_INT, "MPI_Unpack");
  unpack_at(buf.data(), 20, &position, &b2, 1, MPI_DOUBLE, "MPI_Unpack");
  EXPECT_EQ(a2, a);
  EXPECT_EQ(b2, 0.5);
  EXPECT_EQ(pack_size(7, MPI_DOUBLE_INT, "MPI_Pack_size"), 84);
  EXPECT_EXIT(pack_at(a.data(), 3, MPI_INT, buf.data(), 10, &(position = 0), "MPI_Pack"),
              ExitedWithCode(2), "MPI_Pack: message truncated: 12 bytes");
}

// ---- reductions ----

template <class T>
std::vector<T> reduce(MPI_Op op, std::vector<T> in, std::vector<T> inout, MPI_Datatype t,
                      int64_t count = -1) {
  if (count < 0) count = static_cast<int64_t>(in.size());
  reduce_packed(op, in.data(), inout.data(), count, t, "test");
  return inout;
}

TEST(OnlineReduce, IntegerOps) {
  const std::vector<int> a{6, -3, 0, 5};
  const std::vector<int> b{3, 4, 2, 5};
  EXPECT_EQ(reduce(MPI_MAX, a, b, MPI_INT), (std::vector<int>{6, 4, 2, 5}));
  EXPECT_EQ(reduce(MPI_MIN, a, b, MPI_INT), (std::vector<int>{3, -3, 0, 5}));
  EXPECT_EQ(reduce(MPI_SUM, a, b, MPI_INT), (std::vector<int>{9, 1, 2, 10}));
  EXPECT_EQ(reduce(MPI_PROD, a, b, MPI_INT), (std::vector<int>{18, -12, 0, 25}));
  EXPECT_EQ(reduce(MPI_LAND, a, b, MPI_INT), (std::vector<int>{1, 1, 0, 1}));
  EXPECT_EQ(reduce(MPI_LOR, a, b, MPI_INT), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(reduce(MPI_LXOR, a, b, MPI_INT), (std::vector<int>{0, 0, 1, 0}));
  EXPECT_EQ(reduce(MPI_BAND, a, b, MPI_INT), (std::vector<int>{6 & 3, -3 & 4, 0, 5}));
  EXPECT_EQ(reduce(MPI_BOR, a, b, MPI_INT), (std::vector<int>{7, -3 | 4, 2, 5}));
  EXPECT_EQ(reduce(MPI_BXOR, a, b, MPI_INT), (std::vector<int>{5, -3 ^ 4, 2, 0}));
  EXPECT_EQ(reduce(MPI_REPLACE, a, b, MPI_INT), a);
  EXPECT_EQ(reduce(MPI_NO_OP, a, b, MPI_INT), b);
  // Wrap-around instead of undefined behaviour.
  EXPECT_EQ(reduce<int64_t>(MPI_SUM, {INT64_MAX}, {1}, MPI_INT64_T),
            (std::vector<int64_t>{INT64_MIN}));
  EXPECT_EQ(reduce<uint16_t>(MPI_PROD, {65535}, {65535}, MPI_UNSIGNED_SHORT),
            (std::vector<uint16_t>{1}));
  EXPECT_EQ(reduce<uint8_t>(MPI_BXOR, {0xF0}, {0x3C}, MPI_BYTE), (std::vector<uint8_t>{0xCC}));
  EXPECT_EQ(reduce<long>(MPI_MAX, {-1, 9}, {2, 3}, MPI_AINT), (std::vector<long>{2, 9}));
}

TEST(OnlineReduce, FloatComplexAndLogical) {
  EXPECT_EQ(reduce<double>(MPI_SUM, {1.5, 2}, {0.25, -2}, MPI_DOUBLE),
            (std::vector<double>{1.75, 0}));
  EXPECT_EQ(reduce<double>(MPI_MAX, {1.5, 2}, {0.25, 3}, MPI_DOUBLE),
            (std::vector<double>{1.5, 3}));
  EXPECT_EQ(reduce<float>(MPI_MIN, {1.5f}, {0.25f}, MPI_FLOAT), (std::vector<float>{0.25f}));
  EXPECT_EQ(reduce<long double>(MPI_PROD, {1.5L}, {4.0L}, MPI_LONG_DOUBLE),
            (std::vector<long double>{6.0L}));
  using C = std::complex<double>;
  EXPECT_EQ(reduce<C>(MPI_PROD, {C(1, 2)}, {C(3, -1)}, MPI_C_DOUBLE_COMPLEX),
            (std::vector<C>{C(5, 5)}));
  EXPECT_EQ(reduce<C>(MPI_SUM, {C(1, 2)}, {C(3, -1)}, MPI_CXX_DOUBLE_COMPLEX),
            (std::vector<C>{C(4, 1)}));
  const std::vector<uint8_t> p{1, 1, 0, 0};
  const std::vector<uint8_t> q{1, 0, 1, 0};
  EXPECT_EQ(reduce(MPI_LAND, p, q, MPI_C_BOOL), (std::vector<uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(reduce(MPI_LOR, p, q, MPI_C_BOOL), (std::vector<uint8_t>{1, 1, 1, 0}));
  EXPECT_EQ(reduce(MPI_LXOR, p, q, MPI_CXX_BOOL), (std::vector<uint8_t>{0, 1, 1, 0}));
}

// Fortran's types (gfortran layouts): INTEGER, REAL, DOUBLE PRECISION, COMPLEX, LOGICAL (4 bytes,
// .TRUE. = 1) and the pairs whose index has the value's type.
TEST(OnlineReduce, FortranTypes) {
  EXPECT_EQ(type_size(MPI_INTEGER, "t"), 4);
  EXPECT_EQ(type_size(MPI_DOUBLE_PRECISION, "t"), 8);
  EXPECT_EQ(type_size(MPI_COMPLEX, "t"), 8);
  EXPECT_EQ(type_size(MPI_DOUBLE_COMPLEX, "t"), 16);
  EXPECT_EQ(type_size(MPI_LOGICAL, "t"), 4);
  EXPECT_EQ(type_size(MPI_INTEGER8, "t"), 8);
  EXPECT_EQ(type_size(MPI_2DOUBLE_PRECISION, "t"), 16);
  EXPECT_EQ(type_extent(MPI_2REAL, "t"), 8);
  EXPECT_STREQ(type_name(MPI_DOUBLE_PRECISION), "MPI_DOUBLE_PRECISION");
  EXPECT_EQ(reduce<int32_t>(MPI_SUM, {1, -2}, {5, 7}, MPI_INTEGER), (std::vector<int32_t>{6, 5}));
  EXPECT_EQ(reduce<double>(MPI_MAX, {1.5, 2}, {0.25, 3}, MPI_REAL8), (std::vector<double>{1.5, 3}));
  using C = std::complex<float>;
  EXPECT_EQ(reduce<C>(MPI_PROD, {C(1, 2)}, {C(3, -1)}, MPI_COMPLEX), (std::vector<C>{C(5, 5)}));
  EXPECT_EQ(reduce<int32_t>(MPI_LAND, {1, 1, 0}, {1, 0, 0}, MPI_LOGICAL), (std::vector<int32_t>{1, 0, 0}));
  EXPECT_EQ(reduce<int32_t>(MPI_LXOR, {1, 1, 0}, {1, 0, 0}, MPI_LOGICAL), (std::vector<int32_t>{0, 1, 0}));
  // (value, index) pairs of one type: ties keep the lower index.
  EXPECT_EQ(reduce<double>(MPI_MAXLOC, {2.0, 7.0, 3.0, 1.0}, {2.0, 4.0, 5.0, 2.0}, MPI_2DOUBLE_PRECISION, 2),
            (std::vector<double>{2.0, 4.0, 5.0, 2.0}));
  EXPECT_EQ(reduce<double>(MPI_MINLOC, {2.0, 7.0, 3.0, 1.0}, {2.0, 4.0, 5.0, 2.0}, MPI_2DOUBLE_PRECISION, 2),
            (std::vector<double>{2.0, 4.0, 3.0, 1.0}));
  EXPECT_EQ(reduce<float>(MPI_MINLOC, {2.0f, 7.0f}, {1.0f, 9.0f}, MPI_2REAL, 1), (std::vector<float>{1.0f, 9.0f}));
  EXPECT_EQ(reduce<int32_t>(MPI_MAXLOC, {4, 1}, {4, 0}, MPI_2INTEGER, 1), (std::vector<int32_t>{4, 0}));
  EXPECT_TRUE(is_contiguous(MPI_2DOUBLE_PRECISION));
}

// Packed MPI_DOUBLE_INT elements (12 bytes, no padding).
std::vector<std::byte> double_ints(const std::vector<std::pair<double, int>>& v) {
  std::vector<std::byte> out(v.size() * 12);
  for (size_t k = 0; k < v.size(); ++k) {
    std::memcpy(out.data() + 12 * k, &v[k].first, 8);
    std::memcpy(out.data() + 12 * k + 8, &v[k].second, 4);
  }
  return out;
}

TEST(OnlineReduce, MinlocMaxlocTiesPickTheLowerIndex) {
  const auto in = double_ints({{1.0, 3}, {5.0, 7}, {2.0, 4}, {2.0, 1}});
  const auto inout = double_ints({{2.0, 0}, {5.0, 2}, {2.0, 9}, {1.0, 8}});
  auto lo = inout;
  reduce_packed(MPI_MINLOC, in.data(), lo.data(), 4, MPI_DOUBLE_INT, "test");
  EXPECT_EQ(lo, double_ints({{1.0, 3}, {5.0, 2}, {2.0, 4}, {1.0, 8}}));
  auto hi = inout;
  reduce_packed(MPI_MAXLOC, in.data(), hi.data(), 4, MPI_DOUBLE_INT, "test");
  EXPECT_EQ(hi, double_ints({{2.0, 0}, {5.0, 2}, {2.0, 4}, {2.0, 1}}));
  // MPI_2INT and a contiguous of pairs.
  EXPECT_EQ(reduce<int>(MPI_MAXLOC, {4, 1, 9, 2}, {4, 0, 10, 5}, MPI_2INT, 2),
            (std::vector<int>{4, 0, 10, 5}));
  const MPI_Datatype pairs = committed(type_contiguous(2, MPI_2INT, "test"));
  EXPECT_EQ(reduce<int>(MPI_MINLOC, {4, 1, 9, 2}, {4, 0, 10, 5}, pairs, 1),
            (std::vector<int>{4, 0, 9, 2}));
}

TEST(OnlineReduce, DerivedTypesOfOneBasicType) {
  // Packed vector(2, 1, 2, MPI_DOUBLE) holds 2 doubles per instance.
  const MPI_Datatype v = committed(type_vector(2, 1, 2, MPI_DOUBLE, "test"));
  EXPECT_EQ(reduce<double>(MPI_SUM, {1, 2, 3, 4}, {10, 20, 30, 40}, v, 2),
            (std::vector<double>{11, 22, 33, 44}));
  const int bl[] = {1, 1};
  const MPI_Aint disp[] = {0, 8};
  const MPI_Datatype types[] = {MPI_INT, MPI_INT};
  const MPI_Datatype s = committed(type_struct(2, bl, disp, types, "test"));
  EXPECT_EQ(reduce<int>(MPI_MAX, {1, 9}, {5, 2}, s, 1), (std::vector<int>{5, 9}));
  // A mixed struct takes MPI_REPLACE.
  const MPI_Datatype dc = committed(double_char());
  std::vector<std::byte> a(9, std::byte{7});
  std::vector<std::byte> b(9, std::byte{1});
  reduce_packed(MPI_REPLACE, a.data(), b.data(), 1, dc, "test");
  EXPECT_EQ(b, a);
}

// inout = in * 10 + inout: not commutative, shows which operand is which.
void shift_in(void* in, void* inout, int* len, MPI_Datatype*) {
  for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] += 10 * static_cast<int*>(in)[i];
}

MPI_Datatype g_seen_type = MPI_DATATYPE_NULL;
int g_seen_len = 0;
// On vector(2, 1, 2, MPI_INT) (extent 3 ints): the native layout, element i's ints at 3 i and
// 3 i + 2.
void sum_strided(void* in, void* inout, int* len, MPI_Datatype* t) {
  g_seen_type = *t;
  g_seen_len = *len;
  for (int i = 0; i < *len; ++i) {
    for (int j : {0, 2}) static_cast<int*>(inout)[3 * i + j] += static_cast<int*>(in)[3 * i + j];
  }
}

TEST(OnlineReduce, UserOps) {
  const MPI_Op op = op_create(&shift_in, false, "MPI_Op_create");
  EXPECT_GE(op, kFirstUserOp);
  EXPECT_FALSE(op_is_commutative(op, "t"));
  EXPECT_TRUE(op_is_commutative(MPI_SUM, "t"));
  EXPECT_EQ(reduce<int>(op, {1, 2}, {3, 4}, MPI_INT), (std::vector<int>{13, 24}));

  const MPI_Datatype v = committed(type_vector(2, 1, 2, MPI_INT, "test"));
  const MPI_Op strided = op_create(&sum_strided, true, "MPI_Op_create");
  std::vector<int> in{1, 2, 3, 4};  // packed: 2 instances
  std::vector<int> io{10, 20, 30, 40};
  reduce_packed(strided, in.data(), io.data(), 2, v, "t");
  EXPECT_EQ(io, (std::vector<int>{11, 22, 33, 44}));
  EXPECT_EQ(g_seen_type, v);
  EXPECT_EQ(g_seen_len, 2);
  // MPI_Reduce_local works on the native layout directly.
  std::vector<int> nin{1, -1, 2, 3, -1, 4};
  std::vector<int> nio{5, 0, 6, 7, 0, 8};
  reduce_native(MPI_SUM, nin.data(), nio.data(), 2, v, "MPI_Reduce_local");
  EXPECT_EQ(nio, (std::vector<int>{6, 0, 8, 10, 0, 12}));
  // A user function on MPI_Reduce_local sees the caller's buffers.
  g_seen_len = 0;
  reduce_native(strided, nin.data(), nio.data(), 2, v, "MPI_Reduce_local");
  EXPECT_EQ(nio, (std::vector<int>{7, 0, 10, 13, 0, 16}));
  EXPECT_EQ(g_seen_len, 2);
  op_free(op, "MPI_Op_free");
  EXPECT_EXIT(op_is_commutative(op, "MPI_Op_commutative"), ExitedWithCode(2),
              "invalid reduction operation");
}

// ---- errors ----

TEST(OnlineDatatypeDeath, UndefinedReductions) {
  std::vector<std::byte> a(64), b(64);
  EXPECT_EXIT(reduce_packed(MPI_SUM, a.data(), b.data(), 1, MPI_BYTE, "MPI_Allreduce"),
              ExitedWithCode(2), "MPI_Allreduce: MPI_SUM is not defined on MPI_BYTE");
  EXPECT_EXIT(reduce_packed(MPI_MAX, a.data(), b.data(), 1, MPI_C_FLOAT_COMPLEX, "MPI_Reduce"),
              ExitedWithCode(2), "MPI_MAX is not defined on MPI_C_FLOAT_COMPLEX");
  EXPECT_EXIT(reduce_packed(MPI_MINLOC, a.data(), b.data(), 1, MPI_DOUBLE, "MPI_Reduce"),
              ExitedWithCode(2), "MPI_MINLOC is not defined on MPI_DOUBLE; it takes a pair type");
  EXPECT_EXIT(reduce_packed(MPI_BAND, a.data(), b.data(), 1, MPI_DOUBLE, "MPI_Reduce"),
              ExitedWithCode(2), "MPI_BAND is not defined on MPI_DOUBLE");
  EXPECT_EXIT(reduce_packed(MPI_SUM, a.data(), b.data(), 1, MPI_CHAR, "MPI_Reduce"),
              ExitedWithCode(2), "MPI_SUM is not defined on MPI_CHAR");
  EXPECT_EXIT(reduce_packed(MPI_LAND, a.data(), b.data(), 1, MPI_FLOAT, "MPI_Reduce"),
              ExitedWithCode(2), "MPI_LAND is not defined on MPI_FLOAT");
  const MPI_Datatype dc = committed(double_char());
  EXPECT_EXIT(reduce_packed(MPI_SUM, a.data(), b.data(), 1, dc, "MPI_Reduce"), ExitedWithCode(2),
              "MPI_SUM is not defined on derived datatype [0-9]+, which mixes several basic types");
  const MPI_Datatype bytes = committed(type_contiguous(4, MPI_BYTE, "test"));
  EXPECT_EXIT(reduce_packed(MPI_PROD, a.data(), b.data(), 1, bytes, "MPI_Reduce"),
              ExitedWithCode(2),
              "MPI_PROD is not defined on MPI_BYTE \\(the basic type of derived");
  EXPECT_EXIT(reduce_packed(MPI_OP_NULL, a.data(), b.data(), 1, MPI_INT, "MPI_Reduce"),
              ExitedWithCode(2), "MPI_OP_NULL is not a reduction operation");
  EXPECT_EXIT(reduce_packed(77, a.data(), b.data(), 1, MPI_INT, "MPI_Reduce"), ExitedWithCode(2),
              "invalid reduction operation 77");
}

TEST(OnlineDatatypeDeath, BadTypesAndArguments) {
  const MPI_Datatype v = type_vector(2, 1, 2, MPI_INT, "test");
  EXPECT_EXIT(type_size(v, "MPI_Send"), ExitedWithCode(2),
              "MPI_Send: derived datatype [0-9]+ is not committed");
  EXPECT_EXIT(type_size(MPI_DATATYPE_NULL, "MPI_Send"), ExitedWithCode(2),
              "MPI_DATATYPE_NULL is not a datatype");
  EXPECT_EXIT(type_size(999, "MPI_Recv"), ExitedWithCode(2), "MPI_Recv: invalid datatype 999");
  EXPECT_EXIT(type_free(MPI_INT, "MPI_Type_free"), ExitedWithCode(2),
              "MPI_Type_free: cannot free the predefined datatype MPI_INT");
  EXPECT_EXIT(type_vector(-3, 1, 1, MPI_INT, "MPI_Type_vector"), ExitedWithCode(2),
              "MPI_Type_vector: count -3 < 0");
  EXPECT_EXIT(type_vector(2, -1, 1, MPI_INT, "MPI_Type_vector"), ExitedWithCode(2),
              "blocklength -1 < 0");
  const int bl[] = {1, -2};
  const int disp[] = {0, 4};
  EXPECT_EXIT(type_indexed(2, bl, disp, MPI_INT, "MPI_Type_indexed"), ExitedWithCode(2),
              "array_of_blocklengths\\[1\\] -2 < 0");
  EXPECT_EXIT(type_indexed(2, bl, nullptr, MPI_INT, "MPI_Type_indexed"), ExitedWithCode(2),
              "array_of_displacements is NULL");
  const int sizes[] = {4};
  const int subsizes[] = {3};
  const int starts[] = {2};
  EXPECT_EXIT(
      type_subarray(1, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, "MPI_Type_create_subarray"),
      ExitedWithCode(2), "start 2 \\+ subsize 3 > size 4");
  const MPI_Datatype freed = type_contiguous(2, MPI_INT, "test");
  type_free(freed, "MPI_Type_free");
  EXPECT_EXIT(type_contiguous(2, freed, "MPI_Type_contiguous"), ExitedWithCode(2),
              "invalid datatype [0-9]+ \\(freed, or never created\\)");
}

// ---- small utilities ----

std::vector<int> dims(int nnodes, std::vector<int> d) {
  dims_create(nnodes, static_cast<int>(d.size()), d.data(), "MPI_Dims_create");
  return d;
}

TEST(OnlineMisc, DimsCreate) {
  // MPI 3.1 §7.5.2's table: (6, 2) -> (3, 2); (7, 2) -> (7, 1); (6, {0,3,0}) -> (2, 3, 1).
  EXPECT_EQ(dims(6, {0, 0}), (std::vector<int>{3, 2}));
  EXPECT_EQ(dims(7, {0, 0}), (std::vector<int>{7, 1}));
  EXPECT_EQ(dims(6, {0, 3, 0}), (std::vector<int>{2, 3, 1}));
  EXPECT_EQ(dims(12, {0, 0, 0}), (std::vector<int>{3, 2, 2}));
  EXPECT_EQ(dims(64, {0, 0, 0}), (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(dims(24, {0, 0}), (std::vector<int>{6, 4}));
  EXPECT_EQ(dims(1, {0, 0}), (std::vector<int>{1, 1}));
  EXPECT_EXIT(dims(7, {0, 3, 0}), ExitedWithCode(2), "MPI_Dims_create: 7 ranks do not fill");
}

TEST(OnlineMisc, InfoObjects) {
  const MPI_Info info = info_create();
  EXPECT_GE(info, kFirstUserInfo);
  info_set(info, "cb_nodes", "4", "t");
  info_set(info, "striping_unit", "1048576", "t");
  info_set(info, "cb_nodes", "8", "t");
  EXPECT_EQ(info_nkeys(info, "t"), 2);
  EXPECT_EQ(info_nthkey(info, 0, "t"), "cb_nodes");
  EXPECT_EQ(info_get(info, "cb_nodes", "t"), std::optional<std::string>("8"));
  EXPECT_EQ(info_get(info, "nope", "t"), std::nullopt);
  const MPI_Info copy = info_dup(info, "t");
  info_delete(info, "cb_nodes", "t");
  EXPECT_EQ(info_nkeys(info, "t"), 1);
  EXPECT_EQ(info_nkeys(copy, "t"), 2);
  EXPECT_EQ(info_nkeys(MPI_INFO_ENV, "t"), 0);
  info_free(info, "t");
  EXPECT_EXIT(info_nkeys(info, "MPI_Info_get_nkeys"), ExitedWithCode(2), "invalid info");
  EXPECT_EXIT(info_delete(copy, "x", "MPI_Info_delete"), ExitedWithCode(2), "no key \"x\"");
}

TEST(OnlineMisc, ErrorStrings) {
  EXPECT_STREQ(error_string(MPI_SUCCESS), "MPI_SUCCESS: no errors");
  EXPECT_STREQ(error_string(MPI_ERR_TRUNCATE), "MPI_ERR_TRUNCATE: message truncated");
  EXPECT_STREQ(error_string(MPI_ERR_RMA_FLAVOR), "MPI_ERR_RMA_FLAVOR: wrong window flavor");
  EXPECT_EQ(error_string(MPI_ERR_LASTCODE + 1), nullptr);
  EXPECT_EQ(error_string(-1), nullptr);
}

}  // namespace
}  // namespace simfab::online
