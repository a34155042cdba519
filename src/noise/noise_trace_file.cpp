#include "noise/noise_trace_file.hpp"

#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "core/error.hpp"
#include "core/text_locator.hpp"
#include "core/trim.hpp"

namespace simfab::noise {

namespace {

constexpr int64_t kMaxNs = (int64_t{1} << 62) / 1000;  // keeps every trace time below 2^62 ps

// Decimal nanoseconds -> picoseconds, rounded half up; nullopt unless digits[.digits].
std::optional<int64_t> parse_ns(std::string_view s) {
  size_t i = 0;
  int64_t ns = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    ns = ns * 10 + (s[i] - '0');
    if (ns > kMaxNs) return std::nullopt;
    ++i;
  }
  if (i == 0) return std::nullopt;
  int64_t frac = 0;
  int digits = 0;
  bool round_up = false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const size_t first = i;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (digits < 3) {
        frac = frac * 10 + (s[i] - '0');
        ++digits;
      } else if (i == first + 3) {
        round_up = s[i] >= '5';
      }
    }
    if (i == first) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  for (; digits < 3; ++digits) frac *= 10;
  return ns * 1000 + frac + (round_up ? 1 : 0);
}

struct Reader {
  const std::string& name;
  std::string_view text;

  // The value of `field` (at offset pos of the text) in ps, or an error naming `what` it is.
  int64_t value(std::string_view field, size_t pos, const char* what) const {
    if (!field.empty() && field.front() == '-')
      throw error_at(name, text, pos, std::string("a negative ") + what + ": expected nanoseconds >= 0");
    if (auto v = parse_ns(field)) return *v;
    throw error_at(name, text, pos,
                   std::string("the ") + what + " '" + std::string(field) +
                       "' is not a number of nanoseconds (expected digits, optionally with a decimal point)");
  }
};

// Picoseconds as nanoseconds, as the trace writes them ("1200", "1200.5").
std::string ns_text(int64_t ps) {
  std::string s = std::to_string(ps / 1000);
  if (int64_t f = ps % 1000; f != 0) {
    std::string d = std::to_string(1000 + f).substr(1);
    while (d.back() == '0') d.pop_back();
    s += "." + d;
  }
  return s;
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

DetourTrace parse_noise_trace(const std::string& name, std::string_view text) {
  const Reader rd{name, text};
  std::vector<Detour> detours;
  bool csv = false, first_data = true;
  int64_t prev_start = 0, prev_end = 0, period = 0;
  int prev_line = 0, line_no = 0;
  bool have_prev = false;
  const char* expected_format = "expected `<start_ns> <duration_ns>` (LogGOPSim's format, tab or space separated)";
  for (size_t pos = 0; pos < text.size();) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    ++line_no;
    const std::string_view line = trim_blanks(text.substr(pos, eol - pos));
    const size_t at = pos + static_cast<size_t>(line.data() - (text.data() + pos));
    const size_t next = eol + 1;
    if (line.empty() || line.front() == '#') {
      pos = next;
      continue;
    }
    if (first_data) {
      first_data = false;
      if (line == "start_ns,duration_ns") {
        csv = true;
        pos = next;
        continue;
      }
    }
    // Split into exactly two fields.
    std::string_view a, b;
    size_t b_at = 0;
    if (csv) {
      const size_t comma = line.find(',');
      if (comma == std::string_view::npos || line.find(',', comma + 1) != std::string_view::npos)
        throw error_at(name, text, at, "expected `<start_ns>,<duration_ns>` (the CSV's header is start_ns,duration_ns)");
      a = trim_blanks(line.substr(0, comma));
      const std::string_view rest = line.substr(comma + 1);
      b = trim_blanks(rest);
      b_at = at + comma + 1 + static_cast<size_t>(b.data() - rest.data());
    } else {
      size_t i = 0;
      while (i < line.size() && !is_blank(line[i])) ++i;
      a = line.substr(0, i);
      while (i < line.size() && is_blank(line[i])) ++i;
      size_t j = i;
      while (j < line.size() && !is_blank(line[j])) ++j;
      b = line.substr(i, j - i);
      b_at = at + i;
      if (b.empty() || j != line.size()) throw error_at(name, text, at, expected_format);
    }
    const int64_t start = rd.value(a, at, "start");
    const int64_t duration = rd.value(b, b_at, "duration");
    if (have_prev && start < prev_start)
      throw error_at(name, text, at,
                     "detours must be sorted by start: this one starts before the one at line " +
                         std::to_string(prev_line));
    if (have_prev && start < prev_end)
      throw error_at(name, text, at,
                     "this detour starts inside the one at line " + std::to_string(prev_line) + " (which ends at " +
                         ns_text(prev_end) + " ns): detours must not overlap");
    if (duration > 0) detours.push_back({start, duration});
    have_prev = true;
    prev_line = line_no;
    prev_start = start;
    prev_end = start + duration;
    period = prev_end;
    pos = next;
  }
  if (detours.empty())
    throw InputError(SourceLoc{name, 0, 0}, csv || have_prev
                                                ? "the noise trace has no detour of positive duration"
                                                : "the noise trace is empty: " + std::string(expected_format) +
                                                      " per detour, or a CSV with the header start_ns,duration_ns");
  int64_t busy = 0;
  for (const Detour& d : detours) busy += d.duration_ps;
  if (busy >= period)
    throw InputError(SourceLoc{name, 0, 0}, "the noise trace's detours fill its whole length (" +
                                                ns_text(period) + " ns): no time is left for computation (add a gap, or a last line "
                                                "`<end_ns> 0` to make the trace longer)");
  return DetourTrace(std::move(detours), period);
}

DetourTrace read_noise_trace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path, 0, 0}, "cannot open the noise trace (noise/trace)");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_noise_trace(path, ss.str());
}

}  // namespace simfab::noise
