#include "core/csv.hpp"

namespace simfab {

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::vector<std::vector<std::string>> parse_csv(std::string_view text, const std::string& name,
                                                std::vector<int>* record_lines) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  int line = 1, record_line = 1;
  size_t i = 0;
  auto end_record = [&] {
    record.push_back(std::move(field));
    field.clear();
    if (record.size() > 1 || !record[0].empty()) {
      records.push_back(std::move(record));
      if (record_lines) record_lines->push_back(record_line);
    }
    record.clear();
  };
  while (i < text.size()) {
    const char c = text[i];
    if (record.empty() && field.empty()) record_line = line;
    if (c == '"' && field.empty()) {  // a quoted field, up to its closing quote
      const int start = line;
      ++i;
      for (;; ++i) {
        if (i >= text.size()) throw InputError(SourceLoc{name, start, 0}, "a quoted field is never closed");
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            field += '"';
            ++i;
            continue;
          }
          break;
        }
        if (text[i] == '\n') ++line;
        field += text[i];
      }
      ++i;
      if (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
        throw InputError(SourceLoc{name, line, 0}, "text after a quoted field's closing quote");
      continue;
    }
    if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      end_record();
      ++line;
    } else if (c != '\r') {
      field += c;
    }
    ++i;
  }
  if (!field.empty() || !record.empty()) end_record();
  return records;
}

}  // namespace simfab
