#include "core/executable_dir.hpp"

#include <filesystem>
#include <system_error>

namespace simfab {

std::string executable_dir() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : self.parent_path().string();
}

}  // namespace simfab
