// `simfab platform describe|routes|export`: look at a platform without running anything.
#pragma once

#include <string>
#include <vector>

namespace simfab {

int cmd_platform(const std::vector<std::string>& args);

}  // namespace simfab
