// OTF2 collective sizes -> capture counts: what Score-P's send/receive byte totals say about each
// rank's block (the table in otf2_reader.hpp, "SIZES").
//
// While reading, a collective record keeps OTF2's totals as they came: s_count = bytes sent,
// r_count = bytes received (s_dt = r_dt = 1). decode_collective_sizes then, for every rank at once
// (the v-collectives take other members' totals), writes the counts the converters read
// (capture_convert.hpp's collective_args): s_count / r_count = the rank's block, and the count
// lists of gatherv (root), scatterv (root), allgatherv, reduce_scatter and alltoallv (every rank).
// The k-th collective of a communicator is the same call on every member (the alignment checks it
// later); where the members' k-th records are not all the same function, their lists are zeros and
// the alignment reports the disagreement.
// Cost: O(records + sum over v-collectives of N) time and memory.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include <otf2/otf2.h>

#include "capture/capture_reader.hpp"

namespace simfab {

// Score-P's totals (sent, received) of a collective on `n` ranks as rank `me` with root `root`
// (-1: none), the inverse of the decoding: `b` and `b2` as TI replay reports them (CallInfo):
// the block (bcast, reduce, allreduce, scan, exscan; gather's and scatter's sent; alltoall's and
// allgather's per peer), b2 the second amount (gather's block received per peer, scatter's and
// alltoall's/allgather's received), and for the v-collectives the rank's send and receive totals
// (reduce_scatter: the sum and the rank's own count).
std::pair<uint64_t, uint64_t> scorep_totals(OTF2_CollectiveOp op, int32_t n, int32_t me, int32_t root, uint64_t b,
                                            uint64_t b2);

// The block of a total counted as `n` blocks, or n - 1 (MPI_IN_PLACE) when n does not divide it.
uint64_t block_of(uint64_t total, uint64_t n);

// `members`: per communicator handle, its world ranks by local rank.
void decode_collective_sizes(std::vector<RankCapture>& ranks,
                             const std::unordered_map<int64_t, std::vector<int32_t>>& members);

}  // namespace simfab
