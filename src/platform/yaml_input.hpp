// YamlInput: a YAML document kept together with its source text, so that every complaint about it
// points at the offending node: "file:line:column: what was expected", with the line echoed
// (an InputError built by core/text_locator's error_at).
//
// Locations: yaml-cpp marks are 0-based (line, column), counted in bytes of the UTF-8 stream after
// a byte-order mark has been dropped. They are mapped back to a byte offset of the original text
// (so a BOM does not shift columns on the first line) and reported 1-based. A null value
// (`key:` with nothing after it) has no useful mark of its own (yaml-cpp puts it on the next
// token), so errors about an empty value point at its key.
//
// YamlMap checks the keys of one mapping when it is built: every key is a scalar, appears once and
// is in the mapping's fixed list of valid keys. An unknown key is an error that names the key,
// suggests the nearest valid one and lists them all. A mapping with a scalar `name` is called by
// it in messages ("cluster 'c0'") from the start, so even errors about its keys say which one it
// is. The typed readers (scalar, name, integer, number, boolean, list) throw an InputError at the
// value that says what was expected and what was found.
//
// Documents: the input holds at most one non-empty YAML document; empty documents (a stray `---`)
// are ignored. An input with no document at all has a null root(). The documents are probed once
// before they are built, which also turns a yaml-cpp 0.7 endless loop (a stray ',' starting a
// document) into a syntax error.
//
// Cost: loading is yaml-cpp's (linear in the text, twice; nesting deeper than yaml-cpp's limit,
// about 500 levels, is an error). Building an error is O(text), and happens only when raising one.
// Thread-safety: none; a YamlInput is read by one loader.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace simfab {

class YamlInput {
 public:
  // Parses `text`, named `name` in errors. Throws InputError at the mark of a YAML syntax error and
  // at the start of a second non-empty document. REQUIRES: `text` outlives this object.
  YamlInput(std::string_view text, std::string name);

  const YAML::Node& root() const { return root_; }
  const std::string& name() const { return name_; }
  std::string_view text() const { return text_; }

  // Where a node starts, 1-based.
  SourceLoc loc(const YAML::Node& node) const;
  // "file:line:column" of a node, for messages that mention a second location.
  std::string where(const YAML::Node& node) const;
  // An InputError at the node (or at the mark) echoing its line.
  InputError error(const YAML::Node& node, std::string what) const;
  InputError error(const YAML::Mark& mark, std::string what) const;

 private:
  YAML::Node load() const;
  void check_documents() const;
  size_t offset(const YAML::Mark& mark) const;

  std::string name_;
  std::string_view text_;
  YAML::Node root_;
};

// One key of a mapping: its name, the key node (for locations) and its value.
struct YamlField {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

// "a mapping", "a list", "nothing", or the scalar quoted: for "expected X, got Y" messages.
std::string describe_node(const YAML::Node& node);

class YamlMap {
 public:
  // `what` names the mapping in messages ("host", "cluster"). Throws InputError when `node` is not
  // a mapping, or a key is not a scalar, repeats or is not in `valid`.
  YamlMap(const YamlInput& in, const YAML::Node& node, std::string what,
          std::initializer_list<std::string_view> valid);
  // A mapping whose keys are open (e.g. --cfg keys, which the caller checks against the Config
  // registry): keys are still checked to be scalars given once.
  YamlMap(const YamlInput& in, const YAML::Node& node, std::string what);

  // Renames the mapping in later messages, e.g. to "route a -> b" once its hosts are known.
  void rename(std::string what) { what_ = std::move(what); }
  const std::string& what() const { return what_; }
  const YAML::Node& node() const { return node_; }

  // The field, or nullptr when the key is absent.
  const YamlField* find(std::string_view key) const;
  // Every field, in document order.
  const std::vector<YamlField>& fields() const { return fields_; }
  // The field; when absent, an InputError at the mapping: "<what> needs '<key>' (<hint>)".
  const YamlField& require(std::string_view key, std::string_view hint) const;

  // An InputError at the field's value (at its key when the value is empty).
  InputError error(const YamlField& f, std::string what) const;

  // The value as text. `expected` describes it for the error when it is not a scalar.
  const std::string& scalar(const YamlField& f, std::string_view expected) const;
  // A non-empty scalar.
  const std::string& name(const YamlField& f) const;
  // A decimal integer in [lo, hi].
  int64_t integer(const YamlField& f, int64_t lo, int64_t hi) const;
  // A finite decimal number (e.g. 1.5, 2, 15e-1) for which accept(value) holds; `expected`
  // describes such values for the error ("a number in (0, 2]").
  double number(const YamlField& f, std::string_view expected, bool (*accept)(double)) const;
  // true/false (yaml-cpp's spellings: also yes/no, on/off).
  bool boolean(const YamlField& f) const;
  // The items of a list; an empty value is an empty list.
  std::vector<YAML::Node> list(const YamlField& f, std::string_view of_what) const;

 private:
  // Builds fields_; with `valid` null, any key is accepted.
  void read_fields(const std::span<const std::string_view>* valid);

  const YamlInput& in_;
  YAML::Node node_;
  std::string what_;
  std::vector<YamlField> fields_;  // in document order
};

}  // namespace simfab
