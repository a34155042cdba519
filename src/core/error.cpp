#include "core/error.hpp"

namespace simfab {

namespace {
std::string compose(const SourceLoc& loc, const std::string& what) {
  std::string out;
  if (!loc.file.empty()) {
    out.append(loc.file);
    if (loc.line > 0) out.append(":").append(std::to_string(loc.line));
    if (loc.column > 0) out.append(":").append(std::to_string(loc.column));
    out.append(": ");
  }
  return out + what;
}
}  // namespace

InputError::InputError(SourceLoc loc, std::string what, std::string text)
    : std::runtime_error(compose(loc, what)), loc_(std::move(loc)), message_(std::move(what)),
      text_(std::move(text)) {}

std::string format_error(const InputError& e) {
  std::string out = "simfab: error: ";
  out += e.what();
  out += "\n";
  if (!e.text().empty()) {
    out += "    " + e.text() + "\n";
    if (e.loc().column > 0 && static_cast<size_t>(e.loc().column) <= e.text().size() + 1)
      out += "    " + std::string(static_cast<size_t>(e.loc().column - 1), ' ') + "^\n";
  }
  return out;
}

void check_failed(const char* cond, const char* file, int line, const std::string& msg) {
  std::fprintf(stderr, "simfab: internal error at %s:%d: check '%s' failed: %s\n", file, line, cond,
               msg.c_str());
  std::abort();
}

}  // namespace simfab
