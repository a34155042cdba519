// The configuration keys of hybrid execution (`simfab hybrid`, issue 25; src/hybrid/).
#pragma once

#include "core/config.hpp"

namespace simfab::hybrid {

void register_hybrid_keys(Config& cfg);

}  // namespace simfab::hybrid
