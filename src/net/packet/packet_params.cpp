#include "net/packet/packet_params.hpp"

#include <charconv>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace simfab::packet {

void register_packet_keys(Config& cfg) {
  auto key = [&](const char* name, CfgType t, const char* def, const char* doc) {
    cfg.declare({name, t, def, doc, {}});
  };
  key("packet/mtu", CfgType::kBytes, "2176", "largest packet including headers (B) [seed 004 §2.7]");
  key("packet/header", CfgType::kBytes, "20", "header bytes of every packet, LRH+BTH (B) [seed 004 §2.7]");
  key("packet/flit", CfgType::kBytes, "64", "flit and flow-control credit size (B) [IBA §7.9.4]");
  key("packet/link-rate", CfgType::kPerByte, "0",
      "data rate of every link (a bandwidth such as 16Gbps, or ps/B); 0: each platform link's bandwidth");
  key("packet/link-width", CfgType::kInt, "0",
      "IB link width, 1, 4, 8 or 12 lanes (0: off): every link's data rate becomes width x lane-rate x 0.8 (8b/10b)");
  key("packet/lane-rate", CfgType::kPerByte, "5Gbps",
      "IB lane signalling rate with packet/link-width: 2.5Gbps (SDR), 5Gbps (DDR), 10Gbps (QDR)");
  key("packet/switch-latency", CfgType::kTime, "27ns",
      "switch traversal latency, head flit in to head flit out (calibrated to seed 004 §3.8's 101 ns path)");
  key("packet/vl-buffer", CfgType::kBytes, "8704", "input buffer per virtual lane per port (B), at least one MTU");
  key("packet/vls", CfgType::kInt, "1", "data virtual lanes, 1 to 15");
  key("packet/sl2vl", CfgType::kText, "mod",
      "SL-to-VL table: up to 16 VLs, comma-separated, for SL 0,1,...; mod: SL mod packet/vls");
  key("packet/sl", CfgType::kInt, "0", "service level (0-15) of messages");
  key("packet/sl-large", CfgType::kInt, "0", "service level of messages above packet/sl-threshold bytes");
  key("packet/sl-threshold", CfgType::kBytes, "0", "messages above this size use packet/sl-large (0: none)");
  key("packet/vlarb-high", CfgType::kText, "none",
      "high-priority VL arbitration table \"vl:weight,...\" (weight in 64-B units, 0-255), or none [IBA §7.6.9]");
  key("packet/vlarb-low", CfgType::kText, "default",
      "low-priority VL arbitration table \"vl:weight,...\", or none; default: every data VL with weight 4");
  key("packet/high-limit", CfgType::kInt, "0",
      "LimitOfHighPriority: 4-KiB units of high-priority data sent before a low-priority packet may go "
      "(255: unlimited) [IBA §7.6.9]");
  key("packet/credit-period", CfgType::kTime, "0",
      "flow-control update period: freed credits are announced at the next multiple (0: at once)");
  key("packet/sink-rate", CfgType::kPerByte, "525",
      "receiving host's PCIe drain (ps/B or a bandwidth): 33.6 ns per 64-B flit [seed 004 §3.8]");
  key("packet/sink-packet-overhead", CfgType::kTime, "32ns",
      "sink time per packet on top of its bytes (calibrated: seed 004 §6 test 12 and §3.4)");
  key("packet/cc", CfgType::kBool, "false", "InfiniBand congestion control (FECN/BECN, CCT) [IBA Annex A10]");
  key("packet/cc-threshold", CfgType::kText, "0.6",
      "congestion: packets queued for a switch output VL above this fraction of one VL buffer (0-1]");
  key("packet/cc-marking-rate", CfgType::kInt, "0", "packets left unmarked between two FECN marks");
  key("packet/cc-cct-step", CfgType::kTime, "1us", "CCT[i] = i x step: injection delay after a packet");
  key("packet/cc-cct-size", CfgType::kInt, "128", "entries of the congestion control table (CCTI_Limit + 1)");
  key("packet/cc-increase", CfgType::kInt, "1", "CCTI_Increase: CCT index added per BECN");
  key("packet/cc-timer", CfgType::kTime, "150us", "CCTI_Timer: the CCT index drops by one per period");
  key("packet/flit-exact", CfgType::kBool, "false",
      "compute every hop flit by flit instead of by the packet-level closed form (validation; slower)");
  key("packet/check-credits", CfgType::kBool, "false",
      "check credit conservation on every link after every event (slow; for validation)");
}

namespace {

[[noreturn]] void bad(const std::string& key, const std::string& what) {
  throw InputError(SourceLoc{"--cfg", 0, 0}, key + ": " + what);
}

int int_in(const Config& cfg, const char* key, int64_t lo, int64_t hi) {
  const int64_t v = cfg.integer(key);
  if (v < lo || v > hi) bad(key, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
                                     ", got " + std::to_string(v));
  return static_cast<int>(v);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const size_t p = s.find(sep);
    out.push_back(s.substr(0, p));
    if (p == std::string_view::npos) return out;
    s.remove_prefix(p + 1);
  }
}

bool parse_int(std::string_view s, int64_t& v) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

std::vector<VlArbEntry> arb_table(const Config& cfg, const char* key, int vls) {
  const std::string& text = cfg.text(key);
  std::vector<VlArbEntry> out;
  if (text == "none" || text == "default") return out;
  for (std::string_view item : split(text, ',')) {
    const auto kv = split(item, ':');
    int64_t vl = 0;
    int64_t w = 0;
    if (kv.size() != 2 || !parse_int(kv[0], vl) || !parse_int(kv[1], w))
      bad(key, "expected entries \"vl:weight\" separated by commas, got '" + std::string(item) + "'");
    if (vl < 0 || vl >= vls)
      bad(key, "VL " + std::to_string(vl) + " does not exist (packet/vls=" + std::to_string(vls) + ": VL 0 to " +
                   std::to_string(vls - 1) + ")");
    if (w < 0 || w > 255) bad(key, "weight " + std::to_string(w) + " is outside 0-255 (64-byte units)");
    out.push_back({static_cast<uint8_t>(vl), static_cast<uint16_t>(w)});
  }
  if (out.size() > 64) bad(key, "at most 64 entries (IBA §7.6.9), got " + std::to_string(out.size()));
  return out;
}

}  // namespace

PacketParams packet_params(const Config& cfg) {
  PacketParams p;
  const Bytes mtu = cfg.bytes("packet/mtu");
  const Bytes header = cfg.bytes("packet/header");
  const Bytes flit = cfg.bytes("packet/flit");
  if (flit < 1 || flit > 4096) bad("packet/flit", "expected 1 B to 4 KiB, got " + std::to_string(flit));
  if (header >= mtu) bad("packet/header", "must be smaller than packet/mtu (" + std::to_string(mtu) + " B)");
  if (mtu > 65535) bad("packet/mtu", "expected at most 65,535 B (IB's largest is 4,096 B + headers), got " +
                                         std::to_string(mtu));
  p.mtu = static_cast<uint32_t>(mtu);
  p.header = static_cast<uint32_t>(header);
  p.flit = static_cast<uint32_t>(flit);
  p.link_ps_per_byte = cfg.per_byte("packet/link-rate");
  if (const int64_t w = cfg.integer("packet/link-width"); w != 0) {
    if (w != 1 && w != 4 && w != 8 && w != 12) bad("packet/link-width", "expected 1, 4, 8 or 12 lanes (0: off), got " + std::to_string(w));
    if (cfg.is_explicit("packet/link-rate")) bad("packet/link-width", "give packet/link-rate or packet/link-width, not both");
    const double lane = cfg.per_byte("packet/lane-rate");
    if (!(lane > 0)) bad("packet/lane-rate", "expected a positive rate such as 5Gbps");
    p.link_ps_per_byte = lane / (static_cast<double>(w) * 0.8);  // 8b/10b: 80 % of the line rate carries data
  }
  p.switch_latency = cfg.time("packet/switch-latency");
  const Bytes buf = cfg.bytes("packet/vl-buffer");
  if (buf < mtu || buf > (Bytes{1} << 30))
    bad("packet/vl-buffer", "must hold one packet/mtu (" + std::to_string(mtu) + " B) and be at most 1 GiB, got " +
                                std::to_string(buf) + " B");
  p.vl_buffer = static_cast<uint32_t>(buf);
  p.vls = int_in(cfg, "packet/vls", 1, kMaxVls);
  for (int s = 0; s < 16; ++s) p.sl2vl[static_cast<size_t>(s)] = static_cast<uint8_t>(s % p.vls);
  if (const std::string& t = cfg.text("packet/sl2vl"); t != "mod") {
    const auto items = split(t, ',');
    if (items.size() > 16) bad("packet/sl2vl", "at most 16 entries (SL 0-15), got " + std::to_string(items.size()));
    for (size_t s = 0; s < items.size(); ++s) {
      int64_t vl = 0;
      if (!parse_int(items[s], vl) || vl < 0 || vl >= p.vls)
        bad("packet/sl2vl", "entry " + std::to_string(s) + " ('" + std::string(items[s]) + "') is not a VL from 0 to " +
                                std::to_string(p.vls - 1));
      p.sl2vl[s] = static_cast<uint8_t>(vl);
    }
  }
  p.sl = int_in(cfg, "packet/sl", 0, 15);
  p.sl_large = int_in(cfg, "packet/sl-large", 0, 15);
  p.sl_threshold = cfg.bytes("packet/sl-threshold");
  p.arb_high = arb_table(cfg, "packet/vlarb-high", p.vls);
  p.arb_low = arb_table(cfg, "packet/vlarb-low", p.vls);
  if (cfg.text("packet/vlarb-low") == "default")
    for (int v = 0; v < p.vls; ++v) p.arb_low.push_back({static_cast<uint8_t>(v), 4});
  p.high_limit = int_in(cfg, "packet/high-limit", 0, 255);
  p.credit_period = cfg.time("packet/credit-period");
  p.sink_ps_per_byte = cfg.per_byte("packet/sink-rate");
  p.sink_packet_overhead = cfg.time("packet/sink-packet-overhead");
  p.cc = cfg.boolean("packet/cc");
  {
    const std::string& t = cfg.text("packet/cc-threshold");
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0' || !(v > 0 && v <= 1))
      bad("packet/cc-threshold", "expected a fraction in (0, 1], got '" + t + "'");
    p.cc_threshold = v;
  }
  p.cc_marking_rate = int_in(cfg, "packet/cc-marking-rate", 0, 65535);
  p.cc_cct_step = cfg.time("packet/cc-cct-step");
  p.cc_cct_size = int_in(cfg, "packet/cc-cct-size", 1, 16384);
  p.cc_increase = int_in(cfg, "packet/cc-increase", 0, 16384);
  p.cc_timer = cfg.time("packet/cc-timer");
  if (p.cc && p.cc_timer == SimTime::zero()) bad("packet/cc-timer", "must be positive when packet/cc is on");
  p.check_credits = cfg.boolean("packet/check-credits");
  p.flit_exact = cfg.boolean("packet/flit-exact");
  p.host = loggops_params(cfg);
  p.host.g = SimTime::zero();
  p.host.G = 0;
  return p;
}

}  // namespace simfab::packet
