#include "metrics/desc.h"

#include <algorithm>

#include "api/field_error.h"

namespace kcm::metrics {

using api::go_quote;
namespace {

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool valid_metric_name(std::string_view name) {
  if (name.empty() || !(is_name_start(name[0]) || name[0] == ':')) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return is_name_start(c) || is_digit(c) || c == ':'; });
}

bool valid_label_name(std::string_view name) {
  if (name.empty() || !is_name_start(name[0])) return false;
  if (name.starts_with("__")) return false;  // reserved for Prometheus itself
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return is_name_start(c) || is_digit(c); });
}

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
      return false;
    }
    i += len;
  }
  return true;
}

}  // namespace

Result<Desc> make_desc(const Opts& opts, std::vector<std::string> label_names) {
  Desc desc{fq_name(opts), annotated_help(opts), std::move(label_names)};
  if (!valid_metric_name(desc.name)) {
    return fail(go_quote(desc.name) + " is not a valid metric name");
  }
  for (const std::string& label : desc.label_names) {
    if (!valid_label_name(label)) {
      return fail(go_quote(label) + " is not a valid label name for metric " + go_quote(desc.name));
    }
  }
  std::vector<std::string> sorted = desc.label_names;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    return fail("duplicate label names in constant and variable labels for metric " +
                go_quote(desc.name));
  }
  return desc;
}

Result<void> check_label_values(const Desc& desc, const std::vector<std::string>& values) {
  if (values.size() != desc.label_names.size()) {
    std::string shown = "[]string{";
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) shown += ", ";
      shown += go_quote(values[i]);
    }
    shown += '}';
    return fail("inconsistent label cardinality: expected " +
                std::to_string(desc.label_names.size()) + " label values but got " +
                std::to_string(values.size()) + " in " + shown);
  }
  for (const std::string& value : values) {
    if (!valid_utf8(value)) return fail("label value " + go_quote(value) + " is not valid UTF-8");
  }
  return {};
}

}  // namespace kcm::metrics
