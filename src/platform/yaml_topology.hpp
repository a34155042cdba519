// The `topology:` section of the YAML platform: one generated interconnect (or a list of them),
// read, checked and handed to its generator in src/topo. The format is documented at the top of
// yaml_topology.cpp and in the README.
#pragma once

#include <map>
#include <string>

#include "platform/platform.hpp"
#include "platform/yaml_input.hpp"

namespace simfab {

// Generates the topology described by `node` into `p`. `network_names` holds the names of the
// clusters and topologies already declared (name -> "file:line:column"); the new name is added.
// Throws InputError at the offending key for bad or impossible parameters.
void read_topology(const YamlInput& in, const YAML::Node& node, Platform& p,
                   std::map<std::string, std::string, std::less<>>& network_names);

}  // namespace simfab
