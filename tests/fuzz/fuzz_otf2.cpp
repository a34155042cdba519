// Fuzz target: the OTF2 front-end above libotf2 (src/otf2/): definitions and events -> capture
// records (Otf2RankReader), Score-P size decoding (otf2_sizes), the capture alignment and the TI
// writer. libotf2's own binary decoding is the library's concern and is not fuzzed here; the input
// is a small text form of what its callbacks deliver, one item per line:
//   ranks N                              first: N ranks (1..8), locations 0..N-1
//   comm REF PARENT MEMBERS              MEMBERS: world ranks "0,2" or "self"; PARENT "-" for none
//   region REF NAME                      an MPI region when NAME starts with MPI_
//   R enter T REGION | R leave T REGION
//   R send T PEER COMM TAG LEN | R isend T PEER COMM TAG LEN REQ | R isendc T REQ
//   R recv T PEER COMM TAG LEN | R irecvr T REQ | R irecv T PEER COMM TAG LEN REQ | R cancel T REQ
//   R coll T OP COMM ROOT SENT RECEIVED  (OP: OTF2_CollectiveOp's number; ROOT -1: none)
//   R create T COMM | R destroy T COMM
// Unparsable lines are skipped. Bad input must be an InputError, never a crash or a failed
// SIMFAB_CHECK.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "capture/capture_ti_writer.hpp"
#include "core/error.hpp"
#include "otf2/otf2_rank_reader.hpp"
#include "otf2/otf2_reader.hpp"
#include "otf2/otf2_sizes.hpp"

namespace {

using namespace simfab;

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    const size_t b = i;
    while (i < line.size() && line[i] != ' ') ++i;
    if (i > b) out.push_back(line.substr(b, i - b));
  }
  return out;
}

bool num(std::string_view s, uint64_t& v) {
  if (s == "-1") {
    v = OTF2_UNDEFINED_UINT32;
    return true;
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

struct Event {
  int rank = 0;
  std::vector<std::string_view> w;
};

// Feeds one event to its rank's reader; false when the line is not an event.
bool feed(Otf2RankReader& r, uint64_t pos, const std::vector<std::string_view>& w) {
  std::vector<uint64_t> a(w.size() > 2 ? w.size() - 2 : 0);
  for (size_t i = 2; i < w.size(); ++i)
    if (!num(w[i], a[i - 2])) return false;
  const std::string_view k = w[1];
  const auto need = [&](size_t n) { return a.size() == n; };
  const auto u32 = [](uint64_t v) { return static_cast<uint32_t>(v); };
  if (k == "enter" && need(2)) r.enter(pos, a[0], a[1]);
  else if (k == "leave" && need(2)) r.leave(pos, a[0], a[1]);
  else if (k == "send" && need(5)) r.send(pos, a[0], u32(a[1]), a[2], u32(a[3]), a[4], false, 0);
  else if (k == "isend" && need(6)) r.send(pos, a[0], u32(a[1]), a[2], u32(a[3]), a[4], true, a[5]);
  else if (k == "isendc" && need(2)) r.isend_done(pos, a[0], a[1]);
  else if (k == "recv" && need(5)) r.recv(pos, a[0], u32(a[1]), a[2], u32(a[3]), a[4]);
  else if (k == "irecvr" && need(2)) r.irecv_request(pos, a[0], a[1]);
  else if (k == "irecv" && need(6)) r.irecv_done(pos, a[0], u32(a[1]), a[2], u32(a[3]), a[4], a[5]);
  else if (k == "cancel" && need(2)) r.cancelled(pos, a[0], a[1]);
  else if (k == "coll" && need(6))
    r.collective(pos, a[0], static_cast<OTF2_CollectiveOp>(a[1] & 0xff), a[2], u32(a[3]), a[4], a[5]);
  else if (k == "create" && need(2)) r.comm_create(pos, a[0], a[1]);
  else if (k == "destroy" && need(2)) r.comm_destroy(pos, a[0], a[1]);
  else return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Otf2Defs defs;
  defs.resolution = 1000000000;
  std::vector<Event> events;
  int n = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    const auto w = words(line);
    uint64_t v = 0;
    if (w.size() == 2 && w[0] == "ranks" && num(w[1], v) && v >= 1 && v <= 8 && n == 0) {
      n = static_cast<int>(v);
      for (int r = 0; r < n; ++r) {
        defs.rank_location.push_back(static_cast<uint64_t>(r));
        defs.rank_host.push_back("node" + std::to_string(r % 2));
      }
    } else if (w.size() == 4 && w[0] == "comm" && num(w[1], v)) {
      Otf2Comm c;
      uint64_t parent = 0;
      c.parent = w[2] == "-" || !num(w[2], parent) ? OTF2_UNDEFINED_COMM : parent;
      c.self = w[3] == "self";
      for (std::string_view m = w[3]; !c.self && !m.empty();) {
        const size_t comma = m.find(',');
        uint64_t member = 0;
        if (num(m.substr(0, comma), member) && member < static_cast<uint64_t>(n))
          c.members.push_back(static_cast<int32_t>(member));
        m.remove_prefix(comma == std::string_view::npos ? m.size() : comma + 1);
      }
      if (c.self && defs.self == OTF2_UNDEFINED_COMM) defs.self = v;
      if (!c.self && c.parent == OTF2_UNDEFINED_COMM && c.members.size() == static_cast<size_t>(n) &&
          defs.world == OTF2_UNDEFINED_COMM)
        defs.world = v;
      defs.comms[v] = std::move(c);
    } else if (w.size() == 3 && w[0] == "region" && num(w[1], v)) {
      defs.regions[v] = Otf2Region{std::string(w[2]), w[2].substr(0, 4) == "MPI_"};
    } else if (w.size() >= 3 && num(w[0], v) && v < static_cast<uint64_t>(n)) {
      events.push_back(Event{static_cast<int>(v), w});
    }
  }
  if (n == 0) return 0;
  try {
    std::vector<RankCapture> ranks(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
      Otf2RankReader reader(defs, "fuzz.otf2", r, ranks[static_cast<size_t>(r)]);
      uint64_t pos = 0;
      for (const Event& e : events)
        if (e.rank == r && feed(reader, ++pos, e.w)) {
        }
      reader.finish();
    }
    std::unordered_map<int64_t, std::vector<int32_t>> members;
    for (const auto& [ref, c] : defs.comms)
      if (!c.self) members.emplace(static_cast<int64_t>(ref), c.members);
    decode_collective_sizes(ranks, members);
    const CaptureRun run = CaptureRun::align(std::move(ranks), CaptureRun::Options{});
    ConvertOptions options = otf2_convert_defaults("");
    options.speed = (size & 1) ? 1e9 : 0;
    std::ostringstream out;
    for (int r = 0; r < run.num_ranks(); ++r) write_capture_ti_rank(run, r, options, out);
  } catch (const InputError&) {
  }
  return 0;
}
