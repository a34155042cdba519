#include "net/network_registry.hpp"

#include "net/flow/flow_network.hpp"
#include "net/loggops/loggops_network.hpp"
#include "net/packet/packet_network.hpp"
#include "net/riesen/riesen_network.hpp"

namespace simfab {

const std::vector<NetworkModelInfo>& network_models() {
  static const std::vector<NetworkModelInfo> models = {
      {"loggops", "LogGOPS analytic model with LogGOPSim's exact semantics (no contention) [seed 004]"},
      {"flow", "flow-level model: max-min fair bandwidth sharing over routes, SMPI-style size tables [seed 003]"},
      {"smpi", "SimGrid 3.32's SMPI model (smpirun's default): the flow model with SimGrid's factors, penalties, "
               "cross traffic and thresholds, configured by SimGrid's own keys (smpi/..., network/...) [seed 003]"},
      {"packet", "packet-level InfiniBand-style model: MTU packets, per-VL credit flow control, VL arbitration, "
                 "congestion control (FECN/BECN), PCIe sink; host overheads from loggops/o, O, S [seed 004]"},
      {"riesen", "seed 002's model: delta = s / (alpha B) + beta L per message, gamma x delta for collectives' "
                 "(hybrid/bw-scale, lat-scale, coll-scale); no overheads, protocols nor contention [seed 002]"},
  };
  return models;
}

void register_network_keys(Config& cfg) {
  std::vector<std::string> names;
  std::string doc = "network model:";
  for (const auto& m : network_models()) {
    names.emplace_back(m.name);
    doc += std::string(" ") + m.name + " = " + m.description + ";";
  }
  doc.pop_back();
  cfg.declare({"network/model", CfgType::kChoice, "loggops", doc, names});
  register_loggops_keys(cfg);
  flow::register_flow_keys(cfg);
  flow::register_smpi_keys(cfg);
  packet::register_packet_keys(cfg);
  register_riesen_keys(cfg);
}

std::unique_ptr<Network> make_network(Engine& engine, const Platform& platform, const Config& cfg) {
  return make_network(engine, platform, cfg, cfg.choice("network/model"), EventKinds{});
}

std::unique_ptr<Network> make_network(Engine& engine, const Platform& platform, const Config& cfg,
                                      const std::string& name, EventKinds kinds) {
  if (name == "loggops") return std::make_unique<LogGOPSNetwork>(engine, platform, cfg, kinds);
  if (name == "flow") return std::make_unique<flow::FlowNetwork>(engine, platform, flow::flow_params(cfg), kinds);
  if (name == "smpi") return std::make_unique<flow::FlowNetwork>(engine, platform, flow::smpi_params(cfg), kinds);
  if (name == "packet")
    return std::make_unique<packet::PacketNetwork>(engine, platform, packet::packet_params(cfg), kinds);
  if (name == "riesen") return std::make_unique<RiesenNetwork>(engine, platform, riesen_params(cfg), kinds);
  SIMFAB_CHECK(false, "network model registered but not buildable: " + name);
  return nullptr;
}

}  // namespace simfab
