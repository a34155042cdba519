#include "core/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>

#include "core/spelling.hpp"
#include "core/units.hpp"

namespace simfab {

const char* cfg_type_name(CfgType t) {
  switch (t) {
    case CfgType::kTime: return "time";
    case CfgType::kPerByte: return "time-per-byte";
    case CfgType::kBytes: return "bytes";
    case CfgType::kChoice: return "choice";
    case CfgType::kInt: return "integer";
    case CfgType::kBool: return "boolean";
    case CfgType::kText: return "text";
  }
  return "?";
}

namespace {

const char* expected_form(CfgType t) {
  switch (t) {
    case CfgType::kTime: return "a time such as 2500 (ps), 2.5ns, 1us";
    case CfgType::kPerByte: return "a cost per byte such as 6 (ps/B), 0.5ns, or a bandwidth such as 10Gbps";
    case CfgType::kBytes: return "a size such as 65535 (bytes), 64KiB";
    case CfgType::kChoice: return "one of the listed choices";
    case CfgType::kInt: return "an integer";
    case CfgType::kBool: return "true or false";
    case CfgType::kText: return "a non-empty text";
  }
  return "?";
}

}  // namespace

void Config::declare(CfgKey key) {
  SIMFAB_CHECK(!keys_.count(key.name), "config key declared twice: " + key.name);
  std::string name = key.name;
  CfgValue v = parse(key, key.default_text, SourceLoc{"<default of " + name + ">", 0, 0});
  keys_.emplace(name, std::move(key));
  values_[name] = Slot{std::move(v), false};
}

std::string Config::nearest_key(std::string_view name) const {
  std::vector<std::string_view> names;
  for (const auto& [k, _] : keys_) names.push_back(k);
  return nearest_name(name, names);
}

void Config::set_assignment(std::string_view assignment, const SourceLoc& origin) {
  // key=value, or SimGrid's key:value (keys never hold ':' or '='; values may hold ':').
  auto eq = assignment.find('=');
  if (eq == std::string_view::npos) eq = assignment.find(':');
  if (eq == std::string_view::npos || eq == 0)
    throw InputError(origin, "expected --cfg key=value (or SimGrid's key:value)", std::string(assignment));
  set(assignment.substr(0, eq), assignment.substr(eq + 1), origin);
}

void Config::set(std::string_view key, std::string_view value, const SourceLoc& origin) {
  auto it = keys_.find(key);
  if (it == keys_.end())
  {
    std::string near = nearest_key(key);
    throw InputError(origin,
                     "unknown configuration key '" + std::string(key) + "'" +
                         (near.empty() ? "" : "; did you mean '" + near + "'?") +
                         " (simfab config --list shows every key)",
                     std::string(key) + "=" + std::string(value));
  }
  values_[it->first] = Slot{parse(it->second, value, origin), true};
}

CfgValue Config::parse(const CfgKey& key, std::string_view text, const SourceLoc& origin) const {
  auto fail = [&]() -> InputError {
    std::string msg = "bad value '" + std::string(text) + "' for " + key.name + ": expected " +
                      expected_form(key.type);
    if (key.type == CfgType::kChoice) {
      msg += " (";
      for (size_t i = 0; i < key.choices.size(); ++i) msg += (i ? ", " : "") + key.choices[i];
      msg += ")";
    }
    return InputError(origin, msg, key.name + "=" + std::string(text));
  };
  switch (key.type) {
    case CfgType::kTime:
      if (auto t = units::parse_time(text)) return *t;
      throw fail();
    case CfgType::kPerByte:
      if (auto v = units::parse_ps_per_byte(text)) return *v;
      throw fail();
    case CfgType::kBytes:
      if (auto v = units::parse_bytes(text)) return *v;
      throw fail();
    case CfgType::kChoice:  // case-insensitive (SimGrid writes network/model:SMPI); stored as declared
      for (const std::string& c : key.choices)
        if (std::equal(c.begin(), c.end(), text.begin(), text.end(),
                       [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) ==
                                                   std::tolower(static_cast<unsigned char>(y)); }))
          return c;
      throw fail();
    case CfgType::kInt: {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec == std::errc() && p == text.data() + text.size() && !text.empty()) return v;
      throw fail();
    }
    case CfgType::kText:
      if (!text.empty()) return std::string(text);
      throw fail();
    case CfgType::kBool:
      if (text == "true" || text == "yes" || text == "1" || text == "on") return true;
      if (text == "false" || text == "no" || text == "0" || text == "off") return false;
      throw fail();
  }
  throw fail();
}

const Config::Slot& Config::slot(std::string_view key, CfgType type) const {
  auto k = keys_.find(key);
  SIMFAB_CHECK(k != keys_.end(), "undeclared config key read: " + std::string(key));
  SIMFAB_CHECK(k->second.type == type, "config key read with the wrong type: " + std::string(key));
  return values_.find(key)->second;
}

SimTime Config::time(std::string_view key) const {
  return std::get<SimTime>(slot(key, CfgType::kTime).value);
}
double Config::per_byte(std::string_view key) const {
  return std::get<double>(slot(key, CfgType::kPerByte).value);
}
Bytes Config::bytes(std::string_view key) const {
  return std::get<Bytes>(slot(key, CfgType::kBytes).value);
}
const std::string& Config::choice(std::string_view key) const {
  return std::get<std::string>(slot(key, CfgType::kChoice).value);
}
int64_t Config::integer(std::string_view key) const {
  return std::get<int64_t>(slot(key, CfgType::kInt).value);
}
bool Config::boolean(std::string_view key) const {
  return std::get<bool>(slot(key, CfgType::kBool).value);
}
const std::string& Config::text(std::string_view key) const {
  return std::get<std::string>(slot(key, CfgType::kText).value);
}
bool Config::is_explicit(std::string_view key) const {
  auto it = values_.find(key);
  SIMFAB_CHECK(it != values_.end(), "undeclared config key: " + std::string(key));
  return it->second.is_explicit;
}
const CfgValue& Config::value(std::string_view key) const {
  auto it = values_.find(key);
  SIMFAB_CHECK(it != values_.end(), "undeclared config key: " + std::string(key));
  return it->second.value;
}

std::string Config::value_text(std::string_view key) const {
  const CfgValue& v = value(key);
  std::ostringstream os;
  os.precision(17);
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, SimTime>) os << x.ps();
        else if constexpr (std::is_same_v<T, bool>) os << (x ? "true" : "false");
        else os << x;
      },
      v);
  return os.str();
}

}  // namespace simfab
