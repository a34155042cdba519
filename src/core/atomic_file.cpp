#include "core/atomic_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "core/error.hpp"

namespace simfab {

void write_file_atomically(const std::string& path, const std::string& what,
                           const std::function<void(std::ostream&)>& write) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const auto fail = [&]() {
    std::remove(tmp.c_str());
    return InputError(SourceLoc{path, 0, 0}, "cannot write " + what);
  };
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw fail();
    try {
      write(out);
    } catch (...) {
      out.close();
      std::remove(tmp.c_str());
      throw;
    }
    out.flush();
    if (!out) throw fail();
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw fail();
}

}  // namespace simfab
