#include "noise/two_column_file.hpp"

#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/text_locator.hpp"
#include "core/trim.hpp"

namespace simfab::noise {

namespace {

constexpr int64_t kMaxWhole = (int64_t{1} << 62) / 1000;  // keeps every value below 2^62 thousandths

bool is_blank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

std::optional<int64_t> parse_milli(std::string_view s) {
  size_t i = 0;
  int64_t whole = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
    whole = whole * 10 + (s[i] - '0');
    if (whole > kMaxWhole) return std::nullopt;
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
  return whole * 1000 + frac + (round_up ? 1 : 0);
}

int64_t field_milli(const std::string& name, std::string_view text, std::string_view field, size_t pos,
                    const char* what, const char* unit) {
  const std::string u = unit;
  if (!field.empty() && field.front() == '-')
    throw error_at(name, text, pos, std::string("a negative ") + what + ": expected " + (u.empty() ? "a number" : u) +
                                        " >= 0");
  if (auto v = parse_milli(field)) return *v;
  throw error_at(name, text, pos,
                 std::string("the ") + what + " '" + std::string(field) + "' is not a number" +
                     (u.empty() ? "" : " of " + u) + " (expected digits, optionally with a decimal point)");
}

std::string milli_text(int64_t v) {
  std::string s = std::to_string(v / 1000);
  if (int64_t f = v % 1000; f != 0) {
    std::string d = std::to_string(1000 + f).substr(1);
    while (d.back() == '0') d.pop_back();
    s += "." + d;
  }
  return s;
}

bool read_two_columns(const std::string& name, std::string_view text, const TwoColumnFormat& format,
                      const std::function<void(const ColumnLine&)>& each) {
  bool csv = false, first_data = true;
  int line_no = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    ++line_no;
    const std::string_view line = trim_blanks(text.substr(pos, eol - pos));
    const size_t at = pos + static_cast<size_t>(line.data() - (text.data() + pos));
    pos = eol + 1;
    if (line.empty() || line.front() == '#') continue;
    if (first_data) {
      first_data = false;
      if (line == format.csv_header) {
        csv = true;
        continue;
      }
    }
    ColumnLine c;
    c.at = c.a_at = at;
    c.line = line_no;
    if (csv) {
      const size_t comma = line.find(',');
      if (comma == std::string_view::npos || line.find(',', comma + 1) != std::string_view::npos) {
        const std::string_view h = format.csv_header;
        const size_t hc = h.find(',');
        throw error_at(name, text, at,
                       "expected `<" + std::string(h.substr(0, hc)) + ">,<" + std::string(h.substr(hc + 1)) +
                           ">` (the CSV's header is " + std::string(h) + ")");
      }
      c.a = trim_blanks(line.substr(0, comma));
      const std::string_view rest = line.substr(comma + 1);
      c.b = trim_blanks(rest);
      c.b_at = at + comma + 1 + static_cast<size_t>(c.b.data() - rest.data());
    } else {
      size_t i = 0;
      while (i < line.size() && !is_blank(line[i])) ++i;
      c.a = line.substr(0, i);
      while (i < line.size() && is_blank(line[i])) ++i;
      size_t j = i;
      while (j < line.size() && !is_blank(line[j])) ++j;
      c.b = line.substr(i, j - i);
      c.b_at = at + i;
      if (c.b.empty() || j != line.size()) throw error_at(name, text, at, format.expected);
    }
    each(c);
  }
  return csv;
}

std::string read_whole_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path, 0, 0}, "cannot open the " + what);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace simfab::noise
