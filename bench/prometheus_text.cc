#include "bench/prometheus_text.h"

#include <cstdlib>
#include <optional>

namespace kcm::bench {

namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == ':';
}

// `{a="x",b="y\"z"}` starting at text[pos] == '{'; pos ends after the '}'.
std::optional<std::map<std::string, std::string>> parse_labels(std::string_view text,
                                                               std::size_t& pos) {
  std::map<std::string, std::string> out;
  ++pos;  // '{'
  for (;;) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == ','))
      ++pos;
    if (pos >= text.size()) return std::nullopt;
    if (text[pos] == '}') {
      ++pos;
      return out;
    }
    const std::size_t name_start = pos;
    while (pos < text.size() && is_name_char(text[pos]))
      ++pos;
    const std::string name(text.substr(name_start, pos - name_start));
    if (name.empty() || pos + 1 >= text.size() || text[pos] != '=' || text[pos + 1] != '"') {
      return std::nullopt;
    }
    pos += 2;
    std::string value;
    for (;;) {
      if (pos >= text.size()) return std::nullopt;
      const char c = text[pos++];
      if (c == '"') break;
      if (c == '\\' && pos < text.size()) {
        const char e = text[pos++];
        value += e == 'n' ? '\n' : e;
      } else {
        value += c;
      }
    }
    out.emplace(name, std::move(value));
  }
}

}  // namespace

std::vector<PrometheusSample> prometheus_samples(std::string_view text, std::string_view name) {
  std::vector<PrometheusSample> out;
  std::size_t line_start = 0;
  while (line_start < text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view line = text.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    if (line.size() <= name.size() || line.compare(0, name.size(), name) != 0) continue;
    std::size_t pos = name.size();
    PrometheusSample sample;
    if (line[pos] == '{') {
      auto labels = parse_labels(line, pos);
      if (!labels) continue;
      sample.labels = std::move(*labels);
    } else if (line[pos] != ' ') {
      continue;  // a longer name with this prefix
    }
    while (pos < line.size() && line[pos] == ' ')
      ++pos;
    const std::string number(line.substr(pos, line.find(' ', pos) - pos));
    char* end = nullptr;
    sample.value = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size()) continue;
    out.push_back(std::move(sample));
  }
  return out;
}

bool has_prometheus_metric(std::string_view text, std::string_view name) {
  const std::string type_line = "# TYPE " + std::string(name) + " ";
  return text.find(type_line) != std::string_view::npos || !prometheus_samples(text, name).empty();
}

std::map<std::string, double> sum_by_label(const std::vector<PrometheusSample>& samples,
                                           std::string_view label) {
  std::map<std::string, double> out;
  for (const auto& s : samples) {
    const auto it = s.labels.find(std::string(label));
    out[it == s.labels.end() ? std::string() : it->second] += s.value;
  }
  return out;
}

}  // namespace kcm::bench
