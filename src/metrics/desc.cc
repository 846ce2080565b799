#include "metrics/desc.h"

#include <algorithm>

#include "api/field_error.h"
#include "api/utf8.h"

namespace kcm::metrics {

using api::go_quote;
using api::valid_utf8;
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
