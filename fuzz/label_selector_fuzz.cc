// Label selector parser and metav1.LabelSelector decoding on arbitrary bytes.
// Invariants: a parsed selector prints to a string that parses back to the same
// selector; matching, validation and conversion never crash.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/label_selector.h"
#include "api/labels.h"
#include "api/name_validation.h"

namespace {

using kcm::api::LabelSelector;
namespace json = kcm::api::json;
namespace labels = kcm::api::labels;

[[noreturn]] void fail_invariant(const char* what, std::string_view input) {
  std::fprintf(stderr, "invariant broken: %s (input %zu bytes)\n", what, input.size());
  std::abort();
}

// Label sets that exercise both outcomes: a fixed one, and one built from the
// selector's own keys and first values.
void check_matching(const labels::Selector& s, std::string_view input) {
  const labels::LabelSet fixed = {{"a", "b"}, {"app", "web"}, {"k", "3"}, {"x", ""}};
  const labels::LabelSet empty;
  json::object own_json;
  for (const labels::Requirement& r : s.requirements()) {
    own_json[r.key()] = r.values().empty() ? std::string() : r.values().front();
  }
  const labels::LabelSet own = labels::to_label_set(own_json);
  const bool m1 = labels::matches(s, own);
  const bool m2 = labels::matches(s, own_json);
  if (m1 != m2) fail_invariant("LabelSet and JSON matching disagree", input);
  (void)labels::matches(s, fixed);
  if (s.empty() && !labels::matches(s, empty)) fail_invariant("empty selector must match", input);
  for (const labels::Requirement& r : s.requirements())
    (void)s.requires_exact_match(r.key());
}

void check_label_selector_json(std::string_view input) {
  std::string error;
  const auto value = kcm::api::parse_json(input, &error);
  if (!value) return;
  auto ls = LabelSelector::from_json(*value, "spec.selector");
  if (!ls) return;
  auto again = LabelSelector::from_json(ls->to_json(), "spec.selector");
  if (!again || !(*again == *ls)) fail_invariant("LabelSelector JSON round trip", input);
  (void)kcm::api::validate_label_selector(*ls, "spec.selector");
  (void)kcm::api::format_label_selector(*ls);
  if (auto sel = kcm::api::as_selector(*ls)) {
    check_matching(*sel, input);
    // The string form of a converted selector (what a controller sends as
    // ?labelSelector=) parses, and selects what the selector selects.
    auto reparsed = labels::parse(labels::to_string(*sel));
    if (!reparsed) fail_invariant("converted selector string does not parse", input);
    json::object own_json;
    for (const labels::Requirement& r : sel->requirements()) {
      own_json[r.key()] = r.values().empty() ? std::string() : r.values().front();
    }
    if (!sel->matches_nothing() &&
        labels::matches(*reparsed, own_json) != labels::matches(*sel, own_json)) {
      fail_invariant("converted selector string selects differently", input);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  (void)kcm::api::is_qualified_name(input);
  (void)kcm::api::is_valid_label_value(input);
  (void)kcm::api::is_dns1123_label(input);
  (void)kcm::api::name_is_dns_subdomain(input, true);
  (void)kcm::api::validate_path_segment_name(input, false);

  if (auto s = labels::parse(input)) {
    const std::string text = labels::to_string(*s);
    auto again = labels::parse(text);
    if (!again) fail_invariant("to_string output does not parse", input);
    if (!(*again == *s)) fail_invariant("to_string output parses to another selector", input);
    if (labels::to_string(*again) != text) fail_invariant("to_string is not stable", input);
    check_matching(*s, input);

    // The LabelSelector form, when it exists, converts back without error and
    // selects the same label sets (unless a key repeats: "a=x,a=y" keeps one of
    // the two in matchLabels, upstream as here).
    if (auto ls = kcm::api::parse_label_selector(input)) {
      auto converted = kcm::api::as_selector(*ls);
      if (!converted) fail_invariant("ParseToLabelSelector result does not convert", input);
      const auto& reqs = s->requirements();
      const bool unique_keys =
          std::adjacent_find(reqs.begin(), reqs.end(), [](const auto& x, const auto& y) {
            return x.key() == y.key();
          }) == reqs.end();
      labels::LabelSet own;
      for (const labels::Requirement& r : s->requirements()) {
        own.emplace_back(r.key(), r.values().empty() ? std::string() : r.values().front());
      }
      json::object own_json;
      for (const auto& [k, v] : own)
        own_json[k] = v;
      own = labels::to_label_set(own_json);
      if (unique_keys && labels::matches(*converted, own) != labels::matches(*s, own)) {
        fail_invariant("LabelSelector form selects differently", input);
      }
    }
  }

  check_label_selector_json(input);
  return 0;
}
