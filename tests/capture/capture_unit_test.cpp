// The capture library's MPI-free parts (apps/capture), on their own:
//   - HandleMap, the handle -> id table, checked against std::unordered_map over random inserts,
//     lookups and erases (backward-shift deletion is the part that can go wrong), with keys shaped
//     like Open MPI's handles (aligned pointers) and MPICH's (ints);
//   - TraceWriter: the file holds exactly what was put, across flushes of the 1 MiB buffer and a
//     record longer than the buffer;
//   - a persistent request's handle carries a new request id at each MPI_Start (insert replaces);
//   - the refusal at MPI_Init (unrecorded_calls.hpp): canonical names of C, PMPI and Fortran
//     spellings, the allow-list, which imports pass, the message's list of names, and a scan of this
//     process (which imports no MPI function) finding nothing.
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
#include "unrecorded_calls.hpp"

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

// MPI_Start re-inserts a persistent handle under the next request id: the handle maps to the newest
// id, and a completion takes it out until the next start.
TEST(CaptureHandleMap, ReinsertedHandleTakesTheNewestValue) {
  HandleMap<std::uint64_t> map;
  const std::uintptr_t handle = 0x7f0000001230;
  std::uint64_t taken = 0;
  for (std::uint64_t id = 3; id <= 6; ++id) {
    map.insert(handle, id);
    ASSERT_NE(map.find(handle), nullptr);
    EXPECT_EQ(*map.find(handle), id);
    EXPECT_EQ(map.size(), 1u);
    if (id % 2 == 0) {  // completed before the next start
      EXPECT_TRUE(map.erase(handle, &taken));
      EXPECT_EQ(taken, id);
      EXPECT_EQ(map.find(handle), nullptr);
    }
  }
}

TEST(CaptureUnrecordedCalls, CanonicalNames) {
  EXPECT_EQ(canonical_mpi_name("MPI_Send"), "mpi_send");
  EXPECT_EQ(canonical_mpi_name("PMPI_Win_fence"), "mpi_win_fence");
  EXPECT_EQ(canonical_mpi_name("mpi_send_"), "mpi_send");
  EXPECT_EQ(canonical_mpi_name("mpi_send__"), "mpi_send");
  EXPECT_EQ(canonical_mpi_name("MPI_SEND"), "mpi_send");
  EXPECT_EQ(canonical_mpi_name("pmpi_comm_rank_"), "mpi_comm_rank");
  EXPECT_EQ(canonical_mpi_name("mpi_send_f08"), "mpi_send");
  EXPECT_EQ(canonical_mpi_name("ompi_mpi_comm_world"), "");
  EXPECT_EQ(canonical_mpi_name("MPI_"), "");
}

TEST(CaptureUnrecordedCalls, AllowList) {
  for (const char* ok : {"mpi_comm_rank", "mpi_wtime", "mpi_get_count", "mpi_type_create_struct", "mpi_group_incl",
                         "mpi_info_set", "mpi_cancel", "mpi_comm_c2f", "mpi_t_init_thread", "mpi_abort"})
    EXPECT_TRUE(allowed_unrecorded(ok)) << ok;
  for (const char* no : {"mpi_send", "mpi_put", "mpi_win_fence", "mpi_ineighbor_alltoall", "mpi_comm_idup",
                         "mpi_intercomm_create", "mpi_file_write", "mpi_comm_spawn"})
    EXPECT_FALSE(allowed_unrecorded(no)) << no;
}

TEST(CaptureUnrecordedCalls, WhichImportsPass) {
  const std::vector<std::string> wrapped = {"MPI_Send", "MPI_Start", "MPI_Ibarrier"};
  EXPECT_TRUE(call_is_covered("MPI_Send", wrapped));
  EXPECT_TRUE(call_is_covered("MPI_Comm_rank", wrapped));     // allowed
  EXPECT_TRUE(call_is_covered("mpi_comm_rank_", wrapped));    // allowed in any spelling
  EXPECT_TRUE(call_is_covered("PMPI_Wtime", wrapped));
  EXPECT_FALSE(call_is_covered("PMPI_Send", wrapped));        // bypasses the wrapper
  EXPECT_FALSE(call_is_covered("mpi_send_", wrapped));        // Fortran is not wrapped
  EXPECT_FALSE(call_is_covered("MPI_Win_fence", wrapped));
  EXPECT_FALSE(call_is_covered("MPI_Recv", wrapped));         // not in this wrapped set
}

TEST(CaptureUnrecordedCalls, MessageListAndScan) {
  EXPECT_EQ(join_call_names({{"MPI_Put", "a"}}), "MPI_Put");
  EXPECT_EQ(join_call_names({{"MPI_Put", "a"}, {"MPI_Win_fence", "a"}}), "MPI_Put and MPI_Win_fence");
  EXPECT_EQ(join_call_names({{"MPI_Get", "a"}, {"MPI_Put", "a"}, {"mpi_send_", "b"}}), "MPI_Get, MPI_Put and mpi_send_");
  // This test program imports no MPI function: nothing to refuse.
  EXPECT_TRUE(find_unrecorded_calls(reinterpret_cast<const void*>(&join_call_names)).empty());
}

}  // namespace
}  // namespace simfab::capture
