// Config: the registry of typed, documented model parameters set with `--cfg key=value`.
//
// Every key is declared once, by the module that reads it (see the register_*_keys functions, all
// called from sim/simulation's register_builtin_keys), with its type, default and one line of documentation. Values are
// parsed when set, so a bad value is reported at once with its origin; an unknown key is an error
// that names the nearest declared key (edit distance). `simfab config --list` prints the registry.
//
// Types and the units a bare number is read in (see core/units.hpp for the suffixes):
//   kTime -> SimTime (ps)   kPerByte -> double ps/B   kBytes -> Bytes   kChoice -> one of a list
//   kInt  -> int64          kBool -> true/false/yes/no/1/0
//   kText -> a string the reading module validates itself (e.g. a segment table), naming the key
//
// The effective configuration (every key with its value, defaults included) is recorded in each
// result so a run can be reproduced from its JSON. Iteration order is the key's name order.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "core/sim_time.hpp"

namespace simfab {

enum class CfgType { kTime, kPerByte, kBytes, kChoice, kInt, kBool, kText };

using CfgValue = std::variant<SimTime, double, Bytes, std::string, int64_t, bool>;

struct CfgKey {
  std::string name;
  CfgType type;
  std::string default_text;
  std::string doc;
  std::vector<std::string> choices;  // kChoice only
};

class Config {
 public:
  // Declares a key. REQUIRES: the name is new and default_text parses as `type`.
  void declare(CfgKey key);

  // Parses "key=value" or SimGrid's "key:value" (as given to --cfg) and sets it. Choices match
  // case-insensitively. Throws InputError naming `origin`.
  void set_assignment(std::string_view assignment, const SourceLoc& origin);
  void set(std::string_view key, std::string_view value, const SourceLoc& origin);

  SimTime time(std::string_view key) const;
  double per_byte(std::string_view key) const;
  Bytes bytes(std::string_view key) const;
  const std::string& choice(std::string_view key) const;
  int64_t integer(std::string_view key) const;
  bool boolean(std::string_view key) const;
  const std::string& text(std::string_view key) const;
  bool is_explicit(std::string_view key) const;

  const std::map<std::string, CfgKey, std::less<>>& keys() const { return keys_; }
  const CfgValue& value(std::string_view key) const;
  // The value as text in internal units ("2500" for 2.5ns), for listings.
  std::string value_text(std::string_view key) const;

  // The declared key a misspelt `name` most plausibly meant (core/spelling.hpp), or empty.
  std::string nearest_key(std::string_view name) const;

 private:
  struct Slot {
    CfgValue value;
    bool is_explicit = false;
  };
  const Slot& slot(std::string_view key, CfgType type) const;
  CfgValue parse(const CfgKey& key, std::string_view text, const SourceLoc& origin) const;

  std::map<std::string, CfgKey, std::less<>> keys_;
  std::map<std::string, Slot, std::less<>> values_;
};

const char* cfg_type_name(CfgType t);

}  // namespace simfab
