#include "online/libc_state.hpp"

#include <unistd.h>

#include <cerrno>

namespace simfab::online {

void LibcState::save() {
  optind = ::optind;
  opterr = ::opterr;
  optopt = ::optopt;
  optarg = ::optarg;
  errno_value = errno;
}

void LibcState::restore() const {
  ::optind = optind;
  ::opterr = opterr;
  ::optopt = optopt;
  ::optarg = optarg;
  errno = errno_value;
}

}  // namespace simfab::online
