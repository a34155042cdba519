// `simfab report` (see html_report.hpp): trace-out files (or a sweep's CSV) -> the page's data -> the page.
#include "report/html_report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <queue>
#include <set>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "report/html_assets.hpp"
#include "report/sweep_panel.hpp"

namespace simfab {

namespace {

using Json = nlohmann::json;

// The Gantt colours' keys, in legend order; a trace's unknown category counts as "other".
constexpr std::string_view kCategories[] = {"compute", "p2p", "collective", "wait", "other", "cpu"};
constexpr uint8_t kOther = 4, kCpu = 5;
constexpr int64_t kMaxRanks = int64_t{1} << 24;  // GOAL's limit; larger pids are not ranks

uint8_t category_index(std::string_view cat) {
  for (uint8_t i = 0; i < kCpu; ++i)
    if (kCategories[i] == cat) return i;
  return kOther;
}

// One drawn rectangle of the Gantt chart.
struct Slice {
  int64_t begin_ps;
  int64_t dur_ps;
  int32_t rank;
  uint32_t label;  // index into the run's label table
  uint8_t cat;     // index into kCategories
};

// The `cap` longest slices offered, by a min-heap on duration: O(log cap) per slice, O(cap) memory.
class LongestSlices {
 public:
  explicit LongestSlices(size_t cap) : cap_(cap) {}
  void add(const Slice& s) {
    if (cap_ == 0) return;
    if (heap_.size() < cap_) {
      heap_.push(s);
    } else if (s.dur_ps > heap_.top().dur_ps) {
      heap_.pop();
      heap_.push(s);
    }
  }
  std::vector<Slice> take() {
    std::vector<Slice> out;
    out.reserve(heap_.size());
    for (; !heap_.empty(); heap_.pop()) out.push_back(heap_.top());
    return out;
  }

 private:
  struct Longer {
    bool operator()(const Slice& a, const Slice& b) const { return a.dur_ps > b.dur_ps; }
  };
  size_t cap_;
  std::priority_queue<Slice, std::vector<Slice>, Longer> heap_;
};

// Microseconds (the trace's unit) -> picoseconds, the unit of everything on the page.
int64_t us_to_ps(double us) { return std::llround(us * 1e6); }

// Consumes one trace's events as the parser completes them: the MPI-track and CPU-track slices
// (kept separately, since CPU slices are drawn only for ranks without MPI slices), their counts per
// rank, and the ranks' process names. Zero-length slices are neither kept nor counted.
class TraceEvents {
 public:
  TraceEvents(std::string file, size_t cap) : file_(std::move(file)), mpi_(cap), cpu_(cap), cap_(cap) {}

  void add(const Json& e) {
    ++index_;
    if (!e.is_object()) return;
    try {
      const std::string ph = e.value("ph", "");
      if (ph == "M") add_metadata(e);
      if (ph == "X") add_slice(e);
    } catch (const Json::exception& ex) {
      throw bad_event(std::string("a field has the wrong type (") + ex.what() + ")");
    }
  }

  // The page's "rank_names" and "gantt" for a run of `num_ranks` ranks.
  void to_json(int64_t num_ranks, Json& run) {
    Json names = Json::array();
    for (int64_t r = 0; r < num_ranks; ++r) {
      auto it = names_.find(r);
      names.push_back(it != names_.end() ? it->second : "rank " + std::to_string(r));
    }
    run["rank_names"] = std::move(names);

    // Ranks without MPI slices are drawn from their CPU tracks.
    auto count = [](const std::vector<uint64_t>& v, int64_t r) { return r < int64_t(v.size()) ? v[r] : 0; };
    std::vector<bool> from_cpu(num_ranks);
    uint64_t total = 0;
    int64_t cpu_ranks = 0;
    for (int64_t r = 0; r < num_ranks; ++r) {
      from_cpu[r] = count(mpi_count_, r) == 0 && count(cpu_count_, r) > 0;
      cpu_ranks += from_cpu[r];
      total += from_cpu[r] ? count(cpu_count_, r) : count(mpi_count_, r);
    }
    std::vector<Slice> kept;
    for (const Slice& s : mpi_.take())
      if (s.rank < num_ranks) kept.push_back(s);
    for (const Slice& s : cpu_.take())
      if (s.rank < num_ranks && from_cpu[s.rank]) kept.push_back(s);
    if (kept.size() > cap_) {
      std::nth_element(kept.begin(), kept.begin() + cap_, kept.end(),
                       [](const Slice& a, const Slice& b) { return a.dur_ps > b.dur_ps; });
      kept.resize(cap_);
    }
    std::sort(kept.begin(), kept.end(), [](const Slice& a, const Slice& b) {
      return std::pair(a.rank, a.begin_ps) < std::pair(b.rank, b.begin_ps);
    });

    Json g;
    g["categories"] = kCategories;
    g["labels"] = labels_;
    g["total"] = total;
    g["shown"] = kept.size();
    g["cpu_ranks"] = cpu_ranks;
    Json rank = Json::array(), begin = Json::array(), dur = Json::array(), cat = Json::array(), label = Json::array();
    for (const Slice& s : kept) {
      rank.push_back(s.rank);
      begin.push_back(s.begin_ps);
      dur.push_back(s.dur_ps);
      cat.push_back(s.cat);
      label.push_back(s.label);
    }
    g["rank"] = std::move(rank);
    g["begin_ps"] = std::move(begin);
    g["dur_ps"] = std::move(dur);
    g["cat"] = std::move(cat);
    g["label"] = std::move(label);
    run["gantt"] = std::move(g);
  }

 private:
  InputError bad_event(const std::string& what) const {
    return InputError({file_}, "traceEvents[" + std::to_string(index_ - 1) + "]: " + what);
  }

  // pid as a rank, or -1 when the event belongs to no rank.
  static int64_t rank_of(const Json& e) {
    auto it = e.find("pid");
    if (it == e.end() || !it->is_number_integer()) return -1;
    const int64_t pid = it->get<int64_t>();
    return pid >= 0 && pid < kMaxRanks ? pid : -1;
  }

  void add_metadata(const Json& e) {
    const int64_t rank = rank_of(e);
    if (rank < 0 || e.value("name", "") != "process_name") return;
    auto args = e.find("args");
    if (args != e.end() && args->is_object()) names_[rank] = args->value("name", "rank " + std::to_string(rank));
  }

  void add_slice(const Json& e) {
    const int64_t rank = rank_of(e);
    if (rank < 0) return;
    const auto ts = e.find("ts"), dur = e.find("dur"), tid = e.find("tid");
    if (ts == e.end() || !ts->is_number() || dur == e.end() || !dur->is_number() || tid == e.end() ||
        !tid->is_number_integer())
      throw bad_event("an \"X\" event needs numbers ts, dur and an integer tid");
    Slice s{us_to_ps(ts->get<double>()), us_to_ps(dur->get<double>()), int32_t(rank), 0, kCpu};
    if (s.dur_ps < 0 || s.begin_ps < 0) throw bad_event("ts and dur must not be negative");
    if (s.dur_ps == 0) return;  // nothing to draw
    const bool mpi = tid->get<int64_t>() == 0;
    bump(mpi ? mpi_count_ : cpu_count_, rank);
    std::string label = e.value("name", "?");
    if (mpi) {
      s.cat = category_index(e.value("cat", "other"));
      auto args = e.find("args");
      if (args != e.end() && args->is_object() && args->contains("algorithm"))
        label += " (" + args->value("algorithm", "?") + ")";
    }
    s.label = intern(label);
    (mpi ? mpi_ : cpu_).add(s);
  }

  static void bump(std::vector<uint64_t>& counts, int64_t rank) {
    if (rank >= int64_t(counts.size())) counts.resize(rank + 1);
    ++counts[rank];
  }

  uint32_t intern(const std::string& label) {
    auto [it, added] = label_ids_.try_emplace(label, uint32_t(labels_.size()));
    if (added) labels_.push_back(label);
    return it->second;
  }

  std::string file_;
  uint64_t index_ = 0;  // events seen, for error messages
  LongestSlices mpi_, cpu_;
  size_t cap_;
  std::vector<uint64_t> mpi_count_, cpu_count_;  // slices per rank (zero-length ones are not drawn)
  std::unordered_map<int64_t, std::string> names_;
  std::vector<std::string> labels_;
  std::unordered_map<std::string, uint32_t> label_ids_;
};

// "[json.exception.parse_error.101] parse error at line 1, ..." -> "parse error at line 1, ...".
std::string parser_message(const std::string& what) {
  const size_t close = what.find("] ");
  return close == std::string::npos ? what : what.substr(close + 2);
}

// A `simfab run --json` result (summary.hpp's contract): the makespan, each rank's finish and the
// optional sections, but no timeline nor statistics.
bool is_result_file(const Json& top) {
  return top.is_object() && !top.contains("simfab") && top.contains("version") && top.contains("makespan_ps") &&
         top.contains("num_ranks") && top.contains("ranks") && top["ranks"].is_array();
}

// The page's RUN object for a --json result: result_only tells the page to say, in the panels it
// cannot draw, that they need the --trace-out file.
Json result_only_run(const std::string& path, const Json& top) {
  if (!top["num_ranks"].is_number_integer() || top["num_ranks"] < 0 || top["num_ranks"] > kMaxRanks)
    throw InputError({path}, "num_ranks must be a rank count: expected a `simfab run --json FILE` result");
  Json run;
  run["file"] = std::filesystem::path(path).filename().string();
  run["result"] = top;
  run["stats"] = Json::object();
  run["result_only"] = true;
  TraceEvents(path, 1).to_json(top["num_ranks"].get<int64_t>(), run);
  return run;
}

// One trace-out file -> the page's RUN object (html_report.hpp).
Json read_run(const std::string& path, size_t max_slices) {
  const MappedFile file(path);
  TraceEvents events(path, max_slices);
  bool in_events = false;  // inside the top-level "traceEvents" array
  // Depth 1 is the top-level object's members, depth 2 the elements of its arrays. Each finished
  // event is handed over and discarded (returning false), so the trace is never held as a DOM.
  auto on_parse = [&](int depth, Json::parse_event_t ev, Json& parsed) {
    if (depth == 1 && ev == Json::parse_event_t::key) in_events = parsed == "traceEvents";
    if (depth == 2 && in_events &&
        (ev == Json::parse_event_t::object_end || ev == Json::parse_event_t::value)) {
      events.add(parsed);
      return false;
    }
    return true;
  };
  Json top;
  try {
    top = Json::parse(file.text(), on_parse);
  } catch (const Json::parse_error& e) {
    throw InputError({path}, "not a JSON file: " + parser_message(e.what()));
  }
  const std::string expected = "a file written by `simfab run ... --trace-out FILE` or `--json FILE`";
  if (is_result_file(top)) return result_only_run(path, top);
  if (!top.is_object() || !top.contains("simfab"))
    throw InputError({path}, "not a simfab run file (no \"simfab\" key): expected " + expected);
  const Json& simfab = top["simfab"];
  if (!simfab.is_object() || !simfab.contains("result") || !simfab["result"].is_object() ||
      !simfab.contains("stats") || !simfab["stats"].is_object())
    throw InputError({path}, "its \"simfab\" key needs the objects \"result\" and \"stats\": expected " + expected);
  const Json& result = simfab["result"];
  if (!result.contains("num_ranks") || !result["num_ranks"].is_number_integer() || result["num_ranks"] < 0 ||
      result["num_ranks"] > kMaxRanks)
    throw InputError({path}, "simfab.result.num_ranks must be a rank count: expected " + expected);
  if (!top.contains("traceEvents") || !top["traceEvents"].is_array())
    throw InputError({path}, "no \"traceEvents\" array: expected " + expected);

  Json run;
  run["file"] = std::filesystem::path(path).filename().string();
  run["result"] = result;
  run["stats"] = simfab["stats"];
  events.to_json(result["num_ranks"].get<int64_t>(), run);
  return run;
}

// Basename of a run's application, for default titles. A generic name (smpirun's "list", a
// "trace.ti", "traces.otf2") says nothing: the folder that holds it names the application then.
std::string application_name(const Json& run) {
  const Json& result = run["result"];
  if (result.contains("inputs") && result["inputs"].is_object()) {
    const std::filesystem::path app(result["inputs"].value("application", ""));
    if (!app.empty()) {
      static const std::set<std::string> kGeneric = {"list", "trace", "traces", "index", "ti", "goal", "run"};
      if (kGeneric.count(app.stem().string()) && app.has_parent_path() && !app.parent_path().filename().empty() &&
          app.parent_path().filename() != "." && app.parent_path().filename() != "..")
        return (app.parent_path().filename() / app.filename()).string();
      return app.filename().string();
    }
  }
  return run["file"].get<std::string>();
}

std::string default_title(const Json& runs) {
  if (runs.size() == 1) return "simfab report: " + application_name(runs[0]);
  return "simfab comparison: " + runs[0]["file"].get<std::string>() + " vs " + runs[1]["file"].get<std::string>();
}

std::string escape_html(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

// An asset inlined in a <script> or <style> element must not close it early.
std::string_view inlinable(std::string_view asset, std::string_view closing_tag) {
  std::string lower(asset);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  SIMFAB_CHECK(lower.find(closing_tag) == std::string::npos,
               "an embedded report asset contains " + std::string(closing_tag));
  return asset;
}

// The template with each {{NAME}} replaced by value(NAME), in one pass: substituted text is never
// searched again, so an asset containing "{{" is copied as it is.
template <class Lookup>
std::string fill_template(std::string_view tpl, const Lookup& value) {
  std::string out;
  size_t at = 0;
  for (size_t open; (open = tpl.find("{{", at)) != std::string_view::npos;) {
    const size_t close = tpl.find("}}", open);
    SIMFAB_CHECK(close != std::string_view::npos, "unclosed placeholder in web/report/report.html");
    out += tpl.substr(at, open - at);
    out += value(tpl.substr(open + 2, close - open - 2));
    at = close + 2;
  }
  out += tpl.substr(at);
  return out;
}

}  // namespace

std::string escape_script_json(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    if (json[i] == '<' && json.substr(i, 2) == "</") {
      out += "<\\/";
      ++i;
    } else if (json[i] == '<' && json.substr(i, 4) == "<!--") {
      out += "\\u003c";
    } else {
      out += json[i];
    }
  }
  return out;
}

void write_html_report(const HtmlReportOptions& options) {
  SIMFAB_CHECK(html_assets::have_echarts(), "write_html_report needs the embedded chart library");
  Json data;
  std::string_view page_js = html_assets::report_js();
  const auto sweep = std::find_if(options.inputs.begin(), options.inputs.end(), is_sweep_results);
  if (sweep != options.inputs.end()) {
    if (options.inputs.size() > 1)
      throw InputError({*sweep}, "a sweep's results are reported alone: simfab report " + *sweep + " -o REPORT.html");
    data["sweep"] = sweep_panel_json(read_sweep_table(*sweep));
    data["title"] = "simfab sweep: " + std::filesystem::path(*sweep).filename().string();
    page_js = html_assets::sweep_js();
  } else {
    data["runs"] = Json::array();
    for (const std::string& path : options.inputs) data["runs"].push_back(read_run(path, options.max_slices));
    data["title"] = default_title(data["runs"]);
    data["max_slices"] = options.max_slices;
  }
  if (!options.title.empty()) data["title"] = options.title;
  const std::string title = data["title"];

  const std::string page = fill_template(html_assets::report_html(), [&](std::string_view name) -> std::string {
    if (name == "TITLE") return escape_html(title);
    if (name == "VERSION") return SIMFAB_VERSION;
    if (name == "CSS") return std::string(inlinable(html_assets::report_css(), "</style"));
    if (name == "ECHARTS") return std::string(inlinable(html_assets::echarts_js(), "</script"));
    if (name == "COMMON_JS") return std::string(inlinable(html_assets::common_js(), "</script"));
    if (name == "PAGE_JS") return std::string(inlinable(page_js, "</script"));
    if (name == "DATA") return escape_script_json(data.dump(-1, ' ', false, Json::error_handler_t::replace));
    check_failed("known placeholder", __FILE__, __LINE__, "unknown placeholder {{" + std::string(name) + "}}");
  });
  write_file_atomically(options.output, "the HTML report", [&](std::ostream& out) { out << page; });
}

}  // namespace simfab
