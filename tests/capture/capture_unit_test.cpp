// The capture library's MPI-free parts (apps/capture), on their own:
//   - HandleMap, the handle -> id table, checked against std::unordered_map over random inserts,
//     lookups and erases (backward-shift deletion is the part that can go wrong), with keys shaped
//     like Open MPI's handles (aligned pointers) and MPICH's (ints);
//   - TraceWriter: the file holds exactly what was put, across flushes of the 1 MiB buffer and a
//     record longer than the buffer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>

#include "handle_map.hpp"
#include "trace_writer.hpp"

namespace simfab::capture {
namespace {

void random_ops(std::uintptr_t stride, std::uintptr_t base, int pool, int ops, unsigned seed) {
  HandleMap<std::uint64_t> map;
  std::unordered_map<std::uintptr_t, std::uint64_t> model;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < ops; ++i) {
    const std::uintptr_t key = base + stride * static_cast<std::uintptr_t>(rng() % pool);
    switch (rng() % 3) {
      case 0: {
        const std::uint64_t value = rng();
        map.insert(key, value);
        model[key] = value;
        break;
      }
      case 1: {
        std::uint64_t out = 0;
        const bool erased = map.erase(key, &out);
        const auto it = model.find(key);
        ASSERT_EQ(erased, it != model.end()) << "op " << i;
        if (erased) {
          ASSERT_EQ(out, it->second) << "op " << i;
          model.erase(it);
        }
        break;
      }
      default: {
        const std::uint64_t* found = map.find(key);
        const auto it = model.find(key);
        ASSERT_EQ(found != nullptr, it != model.end()) << "op " << i;
        if (found != nullptr) {
          ASSERT_EQ(*found, it->second) << "op " << i;
        }
      }
    }
    ASSERT_EQ(map.size(), model.size());
  }
  for (const auto& [key, value] : model) {
    const std::uint64_t* found = map.find(key);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(*found, value);
  }
}

TEST(CaptureHandleMap, PointerKeysMatchUnorderedMap) { random_ops(64, 0x7f0000001000, 3000, 200000, 1); }
TEST(CaptureHandleMap, IntKeysMatchUnorderedMap) { random_ops(1, 0x44000000, 100, 100000, 2); }
TEST(CaptureHandleMap, ChurnKeepsEveryKeyReachable) { random_ops(8, 0x1000, 40, 100000, 3); }

TEST(CaptureHandleMap, EmptyMapFindsNothing) {
  HandleMap<int> map;
  EXPECT_EQ(map.find(42), nullptr);
  EXPECT_FALSE(map.erase(42));
  map.insert(HandleMap<int>::key_of(reinterpret_cast<void*>(0x1234)), 7);
  ASSERT_NE(map.find(0x1234), nullptr);
  EXPECT_EQ(*map.find(0x1234), 7);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(CaptureTraceWriter, FileHoldsExactlyWhatWasPutAcrossFlushes) {
  char path[] = "/tmp/simfab-capture-writer-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  TraceWriter w;
  ASSERT_TRUE(w.open(path));
  std::string expected;
  for (std::int64_t i = 0; i < 100000; ++i) {   // about 4 MB: several flushes
    w.put("MPI_Send:");
    w.put_int(i * 1000003 - 7);
    w.put(':');
    w.put_uint(std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(i));
    w.put('\n');
    expected += "MPI_Send:" + std::to_string(i * 1000003 - 7) + ":" +
                std::to_string(std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(i)) + "\n";
    ASSERT_TRUE(w.flush_if_full());
  }
  w.put_int(std::numeric_limits<std::int64_t>::min());
  expected += std::to_string(std::numeric_limits<std::int64_t>::min());
  const std::string long_record(5 * TraceWriter::kFlushBytes, 'x');   // longer than the buffer
  w.put(long_record);
  expected += long_record;
  ASSERT_TRUE(w.close());
  EXPECT_EQ(read_file(path), expected);
  std::remove(path);
}

TEST(CaptureTraceWriter, OpenFailsInAMissingDirectory) {
  TraceWriter w;
  EXPECT_FALSE(w.open("/nonexistent-simfab-dir/rank-0.txt.part"));
  EXPECT_FALSE(w.is_open());
}

}  // namespace
}  // namespace simfab::capture
