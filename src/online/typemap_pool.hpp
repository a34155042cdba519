// TypemapPool: identical datatype layouts held once for the whole run.
//
// Every rank of a program builds the same derived datatypes (the faces of a halo exchange, the
// struct of a particle), and a typemap can be large (a subarray face of a 16 x 16 x 16 block is 256
// blocks, 10 KiB). Ranks share one process, so intern() hands back the Typemap already held when
// an equal one (same blocks, runs, bounds, alignment and elements) is alive, and a new one
// otherwise: a 512-rank halo exchange holds its four large face layouts once instead of 512 times.
// Entries are weak: a layout goes when the last datatype using it is destroyed.
// Cost: O(blocks) to hash and compare a new layout; one bucket of weak pointers per distinct hash.
#pragma once

#include <memory>

#include "online/typemap.hpp"

namespace simfab::online {

std::shared_ptr<const Typemap> intern(Typemap map);

}  // namespace simfab::online
