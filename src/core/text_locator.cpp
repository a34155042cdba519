#include "core/text_locator.hpp"

#include <algorithm>

namespace simfab {

std::string_view line_containing(std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  size_t b = pos;
  while (b > 0 && text[b - 1] != '\n') --b;
  size_t e = text.find('\n', pos);
  if (e == std::string_view::npos) e = text.size();
  if (e > b && text[e - 1] == '\r') --e;
  return text.substr(b, e - b);
}

SourceLoc locate(const std::string& name, std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
  size_t b = pos;
  while (b > 0 && text[b - 1] != '\n') --b;
  return SourceLoc{name, line, static_cast<int>(pos - b) + 1};
}

InputError error_at(const std::string& name, std::string_view text, size_t pos, std::string what) {
  std::string line(line_containing(text, pos));
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t') c = '?';
  if (line.size() > 200) line = line.substr(0, 200) + "...";
  return InputError(locate(name, text, pos), std::move(what), std::move(line));
}

}  // namespace simfab
