// trim_blanks: a field or line without its surrounding blanks (spaces, tabs, and the '\r' of a
// CRLF line end), as every line-oriented reader here takes it. O(blanks), no allocation.
#pragma once

#include <string_view>

namespace simfab {

inline std::string_view trim_blanks(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace simfab
