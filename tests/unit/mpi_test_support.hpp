// Helpers shared by the MPI group and communicator tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "mpi/call_error.hpp"

namespace simfab::mpi::testing {

// Runs `f`, which must throw MpiCallError for `call` with `detail` in its message.
template <class F>
void expect_call_error(F&& f, const std::string& call, const std::string& detail) {
  try {
    f();
    ADD_FAILURE() << "no error; expected " << call << ": ..." << detail << "...";
  } catch (const MpiCallError& e) {
    EXPECT_EQ(e.call(), call) << e.what();
    EXPECT_NE(std::string(e.what()).find(detail), std::string::npos) << e.what();
  }
}

}  // namespace simfab::mpi::testing
