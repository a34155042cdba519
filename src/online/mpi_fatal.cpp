#include "online/mpi_fatal.hpp"

#include "core/atomic_file.hpp"
#include "online/flush_output.hpp"

#include <cstdio>
#include <cstdlib>

namespace simfab::online {

namespace {
DescribeCurrent g_describe = nullptr;
}

void set_fatal_context(DescribeCurrent describe) { g_describe = describe; }

void mpi_fatal(const char* call, const std::string& what) {
  flush_program_output();
  const std::string who = g_describe ? g_describe() : std::string();
  std::fprintf(stderr, "simfab: %s%s%s: %s\n", who.c_str(), who.empty() ? "" : ": ", call, what.c_str());
  std::fflush(stderr);
  remove_pending_outputs();
  std::_Exit(kExitMpiError);
}

}  // namespace simfab::online
