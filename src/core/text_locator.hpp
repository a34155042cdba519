// Locating an offset of an input text for error reports: file:line:column and the line itself.
// O(offset) per call (it counts newlines), so it is only used when an error is raised, never on
// the replay path.
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"

namespace simfab {

// The line containing `pos`, without its newline (or carriage return).
std::string_view line_containing(std::string_view text, size_t pos);
SourceLoc locate(const std::string& name, std::string_view text, size_t pos);
// An InputError at `pos` of `text`, echoing its line.
InputError error_at(const std::string& name, std::string_view text, size_t pos, std::string what);

}  // namespace simfab
