#include "sim/hostfile.hpp"

#include <charconv>

#include "core/mapped_file.hpp"
#include "core/spelling.hpp"
#include "core/text_locator.hpp"
#include "core/trim.hpp"

namespace simfab {

namespace {

std::string nearest_host(const Platform& platform, std::string_view name) {
  constexpr size_t kMaxCandidates = 100000;  // an error path: bound its cost on huge platforms
  std::vector<std::string_view> names;
  for (const Host& h : platform.hosts()) {
    if (names.size() == kMaxCandidates) break;
    names.push_back(h.name);
  }
  return nearest_name(name, names);
}

}  // namespace

std::vector<HostId> read_hostfile(const std::string& path, const Platform& platform, int num_ranks) {
  MappedFile file(path);
  const std::string_view text = file.text();
  constexpr int64_t kMaxCount = int64_t{1} << 24;
  std::vector<HostId> entries;
  size_t pos = 0;
  while (pos < text.size() && entries.size() < static_cast<size_t>(num_ranks)) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim_blanks(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line.front() == '#') continue;
    const size_t at = static_cast<size_t>(line.data() - text.data());
    std::string_view name = line;
    int64_t count = 1;
    if (const size_t colon = line.rfind(':'); colon != std::string_view::npos) {
      name = trim_blanks(line.substr(0, colon));
      const std::string_view num = trim_blanks(line.substr(colon + 1));
      auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), count);
      if (ec != std::errc() || p != num.data() + num.size() || count < 1 || count > kMaxCount)
        throw error_at(path, text, at + colon + 1,
                       "bad rank count '" + std::string(num) + "': expected an integer from 1 to " +
                           std::to_string(kMaxCount) + " after 'host:'");
    }
    const auto host = platform.find_host(std::string(name));
    if (!host) {
      const std::string near = nearest_host(platform, name);
      throw error_at(path, text, at,
                     "no host '" + std::string(name) + "' in the platform " + platform.source() +
                         (near.empty() ? "" : "; did you mean '" + near + "'?"));
    }
    for (int64_t i = 0; i < count && entries.size() < static_cast<size_t>(num_ranks); ++i) entries.push_back(*host);
  }
  if (entries.empty())
    throw InputError(SourceLoc{path, 0, 0}, "the hostfile names no host: expected one host name per line (or host:count)");
  std::vector<HostId> rank_host(static_cast<size_t>(num_ranks));
  for (size_t r = 0; r < rank_host.size(); ++r) rank_host[r] = entries[r % entries.size()];
  return rank_host;
}

}  // namespace simfab
