#include "platform/yaml_input.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "core/spelling.hpp"
#include "core/text_locator.hpp"

namespace simfab {

namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// Records whether a YAML document has content and where it (or its empty value) starts, without
// building nodes.
class DocumentProbe final : public YAML::EventHandler {
 public:
  bool has_content() const { return has_content_; }
  const YAML::Mark& mark() const { return mark_; }

  void OnDocumentStart(const YAML::Mark&) override {
    has_content_ = false;
    mark_ = YAML::Mark::null_mark();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override {
    if (!has_content_ && mark_.is_null()) mark_ = m;
  }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { content(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override {
    content(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    content(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    content(m);
  }
  void OnMapEnd() override {}

 private:
  void content(const YAML::Mark& m) {
    if (!has_content_) mark_ = m;
    has_content_ = true;
  }

  bool has_content_ = false;
  YAML::Mark mark_;
};

std::string join(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

}  // namespace

YamlInput::YamlInput(std::string_view text, std::string name)
    : name_(std::move(name)), text_(text), root_(load()) {}

YAML::Node YamlInput::load() const {
  std::vector<YAML::Node> docs;
  try {
    check_documents();
    docs = YAML::LoadAll(std::string(text_));
  } catch (const YAML::DeepRecursion& e) {
    // yaml-cpp reports its nesting limit as "bad file".
    throw error(e.mark, "YAML nesting too deep (" + std::to_string(e.depth()) +
                            " levels); a platform file needs a handful");
  } catch (const YAML::ParserException& e) {
    throw error(e.mark, "YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw error(e.mark, "cannot read YAML: " + e.msg);
  }
  for (const YAML::Node& d : docs)
    if (!d.IsNull()) return d;
  return YAML::Node();
}

// A first pass over the documents with a probe, before LoadAll builds them. It rejects a second
// non-empty document, and it protects LoadAll from a yaml-cpp 0.7 bug: a token that cannot start
// a node (a stray ',' at the top of a document) makes the parser report empty documents forever
// without consuming it, and LoadAll collects them until memory runs out (jbeder/yaml-cpp#1040,
// fixed upstream by #1319). Two empty documents at the same mark mean the parser is stuck there.
void YamlInput::check_documents() const {
  std::istringstream stream{std::string(text_)};
  YAML::Parser parser(stream);
  DocumentProbe probe;
  bool seen_content = false;
  int last_empty_pos = -1;
  while (parser.HandleNextDocument(probe)) {
    const YAML::Mark& m = probe.mark();
    if (probe.has_content()) {
      if (seen_content) throw error(m, "expected a single YAML document; a second one starts here");
      seen_content = true;
      last_empty_pos = -1;
    } else if (!m.is_null() && m.pos == last_empty_pos) {
      size_t at = offset(m);
      std::string token = at < text_.size() ? "'" + std::string(1, text_[at]) + "'" : "end of input";
      throw error(m, "YAML syntax error: unexpected " + token + "; a value cannot start here");
    } else {
      last_empty_pos = m.is_null() ? -1 : m.pos;
    }
  }
}

size_t YamlInput::offset(const YAML::Mark& mark) const {
  if (mark.is_null() || mark.line < 0 || mark.column < 0) return 0;
  size_t pos = 0;
  for (int l = 0; l < mark.line; ++l) {
    size_t nl = text_.find('\n', pos);
    if (nl == std::string_view::npos) return text_.size();
    pos = nl + 1;
  }
  if (mark.line == 0 && text_.starts_with(kUtf8Bom)) pos += kUtf8Bom.size();
  size_t end = std::min(text_.find('\n', pos), text_.size());
  return std::min(pos + static_cast<size_t>(mark.column), end);
}

SourceLoc YamlInput::loc(const YAML::Node& node) const { return locate(name_, text_, offset(node.Mark())); }

std::string YamlInput::where(const YAML::Node& node) const {
  SourceLoc l = loc(node);
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

InputError YamlInput::error(const YAML::Mark& mark, std::string what) const {
  return error_at(name_, text_, offset(mark), std::move(what));
}

InputError YamlInput::error(const YAML::Node& node, std::string what) const {
  size_t pos = offset(node.Mark());
  if (!node.IsDefined() || node.IsNull()) {
    // yaml-cpp marks an empty value at the next token; point at the '-', ':' or ',' before it
    // instead, when only blanks separate them.
    size_t p = pos;
    while (p > 0 &&
           (text_[p - 1] == ' ' || text_[p - 1] == '\t' || text_[p - 1] == '\n' || text_[p - 1] == '\r'))
      --p;
    if (p > 0 && (text_[p - 1] == '-' || text_[p - 1] == ':' || text_[p - 1] == ',')) pos = p - 1;
  }
  return error_at(name_, text_, pos, std::move(what));
}

std::string describe_node(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  std::string s = node.Scalar();
  if (s.size() > 60) s = s.substr(0, 60) + "...";
  return "'" + s + "'";
}

YamlMap::YamlMap(const YamlInput& in, const YAML::Node& node, std::string what,
                 std::initializer_list<std::string_view> valid)
    : in_(in), node_(node), what_(std::move(what)) {
  const std::span<const std::string_view> keys(valid.begin(), valid.size());
  read_fields(&keys);
}

YamlMap::YamlMap(const YamlInput& in, const YAML::Node& node, std::string what)
    : in_(in), node_(node), what_(std::move(what)) {
  read_fields(nullptr);
}

void YamlMap::read_fields(const std::span<const std::string_view>* valid) {
  const YamlInput& in = in_;
  if (!node_.IsMap())
    throw in.error(node_, what_ + " must be a mapping of keys to values, got " + describe_node(node_));
  for (const auto& kv : node_) {
    YAML::Node k = kv.first;
    YAML::Node v = kv.second;
    if (k.IsScalar() && k.Scalar() == "name" && v.IsScalar() && !v.Scalar().empty()) {
      what_ += " " + describe_node(v);
      break;
    }
  }
  for (const auto& kv : node_) {
    YAML::Node k = kv.first;
    if (!k.IsScalar()) throw in.error(k, "expected a key name in " + what_ + ", got " + describe_node(k));
    const std::string& key = k.Scalar();
    if (valid && std::find(valid->begin(), valid->end(), key) == valid->end()) {
      std::string msg = "unknown key '" + key + "' in " + what_ + ";";
      std::string near = nearest_name(key, *valid);
      if (!near.empty()) msg += " did you mean '" + near + "'?";
      throw in.error(k, msg + " valid keys: " + join(*valid));
    }
    for (const YamlField& f : fields_)
      if (f.key == key)
        throw in.error(
            k, "duplicate key '" + key + "' in " + what_ + "; first given at " + in.where(f.key_node));
    fields_.push_back(YamlField{key, k, kv.second});
  }
}

const YamlField* YamlMap::find(std::string_view key) const {
  for (const YamlField& f : fields_)
    if (f.key == key) return &f;
  return nullptr;
}

const YamlField& YamlMap::require(std::string_view key, std::string_view hint) const {
  if (const YamlField* f = find(key)) return *f;
  throw in_.error(node_, what_ + " needs '" + std::string(key) + "' (" + std::string(hint) + ")");
}

InputError YamlMap::error(const YamlField& f, std::string what) const {
  bool empty = !f.value.IsDefined() || f.value.IsNull();
  return in_.error(empty ? f.key_node : f.value, std::move(what));
}

const std::string& YamlMap::scalar(const YamlField& f, std::string_view expected) const {
  if (f.value.IsScalar()) return f.value.Scalar();
  if (!f.value.IsDefined() || f.value.IsNull())
    throw error(f, "'" + f.key + "' in " + what_ + " has no value; expected " + std::string(expected));
  throw error(f, "'" + f.key + "' in " + what_ + " must be " + std::string(expected) + ", got " +
                     describe_node(f.value));
}

const std::string& YamlMap::name(const YamlField& f) const {
  const std::string& s = scalar(f, "a name");
  if (s.empty()) throw error(f, "'" + f.key + "' in " + what_ + " must not be empty");
  return s;
}

int64_t YamlMap::integer(const YamlField& f, int64_t lo, int64_t hi) const {
  std::string range = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  const std::string& s = scalar(f, range);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || v < lo || v > hi)
    throw error(f, "'" + f.key + "' in " + what_ + " must be " + range + ", got '" + s + "'");
  return v;
}

double YamlMap::number(const YamlField& f, std::string_view expected, bool (*accept)(double)) const {
  const std::string& s = scalar(f, expected);
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v) || !accept(v))
    throw error(f, "'" + f.key + "' in " + what_ + " must be " + std::string(expected) + ", got '" + s + "'");
  return v;
}

bool YamlMap::boolean(const YamlField& f) const {
  const std::string& s = scalar(f, "true or false");
  bool b = false;
  if (!YAML::convert<bool>::decode(f.value, b))
    throw error(f, "'" + f.key + "' in " + what_ + " must be true or false, got '" + s + "'");
  return b;
}

std::vector<YAML::Node> YamlMap::list(const YamlField& f, std::string_view of_what) const {
  std::vector<YAML::Node> items;
  if (!f.value.IsDefined() || f.value.IsNull()) return items;
  if (!f.value.IsSequence())
    throw error(f, "'" + f.key + "' in " + what_ + " must be a list of " + std::string(of_what) +
                       " (lines starting with '- ', or [a, b]), got " + describe_node(f.value));
  items.reserve(f.value.size());
  for (const YAML::Node& item : f.value) items.push_back(item);
  return items;
}

}  // namespace simfab
