// Spelling suggestions for unknown names (configuration keys, options, YAML keys, actions).
//
// nearest_name returns the candidate a user most plausibly meant: an exact match ignoring case
// wins; otherwise the smallest Levenshtein distance, counting a difference of case only as a half
// edit (so `loggops/l` suggests `loggops/L`, not `loggops/G`), accepted only when it is at most
// max(2, |name|/3) edits and fewer than |name|. Ties go to the earlier candidate (deterministic).
// Empty when nothing is close. O(|candidates| * |name| * |candidate|).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace simfab {

std::string nearest_name(std::string_view name, std::span<const std::string_view> candidates);

}  // namespace simfab
