#include "platform/platform_vars.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/error.hpp"

namespace simfab {
namespace {

SourceLoc at(const std::string& file, std::string_view text, size_t pos) {
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < pos; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return SourceLoc{file, line, static_cast<int>(pos - line_start) + 1};
}

std::string line_of(std::string_view text, size_t pos) {
  const size_t begin = text.rfind('\n', pos == 0 ? 0 : pos - 1);
  const size_t from = begin == std::string_view::npos || pos == 0 ? 0 : begin + 1;
  const size_t end = text.find('\n', pos);
  return std::string(text.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from));
}

std::string names_of(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

}  // namespace

bool is_platform_var_name(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::pair<std::string, std::string> parse_platform_var(const std::string& assignment, const std::string& where) {
  const size_t eq = assignment.find('=');
  const std::string name = assignment.substr(0, eq);
  if (eq == std::string::npos || !is_platform_var_name(name))
    throw InputError(SourceLoc{where, 0, 0},
                     "a platform variable is NAME=VALUE with NAME made of letters, digits and '_' (not first)",
                     assignment);
  return {name, assignment.substr(eq + 1)};
}

std::string substitute_platform_vars(std::string_view text, const std::string& file, const PlatformVars& vars,
                                     PlatformSyntax syntax) {
  std::map<std::string, std::string> given;
  for (const auto& [name, value] : vars) {
    const SourceLoc cli{"--platform-var", 0, 0};
    if (!is_platform_var_name(name)) throw InputError(cli, "'" + name + "' is not a platform variable name", name);
    if (value.find('\n') != std::string::npos)
      throw InputError(cli, "the value of platform variable '" + name + "' holds a newline", value);
    if (!given.emplace(name, value).second)
      throw InputError(cli, "platform variable '" + name + "' is given twice", name + "=" + value);
  }
  if (vars.empty() && text.find("${") == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  std::set<std::string> named;
  for (size_t i = 0; i < text.size(); ++i) {
    // A comment is copied as it is, up to its end (excluded for YAML: the newline is copied next).
    size_t comment_end = std::string_view::npos;
    const bool after_blank = i == 0 || std::isspace(static_cast<unsigned char>(text[i - 1]));
    if (syntax == PlatformSyntax::kYaml && text[i] == '#' && after_blank) {
      comment_end = std::min(text.find('\n', i), text.size());
    } else if (syntax == PlatformSyntax::kXml && text.compare(i, 4, "<!--") == 0) {
      const size_t close = text.find("-->", i + 4);
      comment_end = close == std::string_view::npos ? text.size() : close + 3;
    }
    if (comment_end != std::string_view::npos) {
      out.append(text.substr(i, comment_end - i));
      i = comment_end - 1;
      continue;
    }
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    if (text[i + 1] == '$' && i + 2 < text.size() && text[i + 2] == '{') {  // $${ -> ${
      out += '$';
      ++i;
      continue;
    }
    if (text[i + 1] != '{') {
      out += '$';
      continue;
    }
    const size_t close = text.find('}', i + 2);
    const size_t eol = text.find('\n', i);
    if (close == std::string_view::npos || (eol != std::string_view::npos && close > eol))
      throw InputError(at(file, text, i), "'${' is not closed by '}' on its line: a platform variable is ${NAME} or "
                       "${NAME:-DEFAULT}", line_of(text, i));
    const std::string_view body = text.substr(i + 2, close - i - 2);
    const size_t dash = body.find(":-");
    const std::string name(body.substr(0, dash));
    if (!is_platform_var_name(name))
      throw InputError(at(file, text, i), "'" + name + "' is not a platform variable name (letters, digits and '_', "
                       "not a digit first)", line_of(text, i));
    named.insert(name);
    if (const auto v = given.find(name); v != given.end()) {
      out += v->second;
    } else if (dash != std::string_view::npos) {
      out += body.substr(dash + 2);
    } else {
      throw InputError(at(file, text, i), "platform variable '" + name + "' has no value: give --platform-var " +
                       name + "=VALUE (a sweep: a $" + name + " setting), or write ${" + name + ":-DEFAULT}",
                       line_of(text, i));
    }
    i = close;
  }
  for (const auto& [name, value] : vars)
    if (!named.count(name))
      throw InputError(SourceLoc{"--platform-var", 0, 0}, "platform variable '" + name + "' is not used by " + file +
                       " (it names: " + names_of(named) + ")", name + "=" + value);
  return out;
}

}  // namespace simfab
