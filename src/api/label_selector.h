// metav1.LabelSelector: matchLabels + matchExpressions, as written in a
// Deployment's or ReplicaSet's spec.selector. Convert it once with as_selector()
// and match objects with labels::matches().
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"
#include "api/labels.h"
#include "api/result.h"

namespace kcm::api {

// The operators a LabelSelectorRequirement may use.
inline constexpr std::string_view kLabelSelectorOpIn = "In";
inline constexpr std::string_view kLabelSelectorOpNotIn = "NotIn";
inline constexpr std::string_view kLabelSelectorOpExists = "Exists";
inline constexpr std::string_view kLabelSelectorOpDoesNotExist = "DoesNotExist";

struct LabelSelectorRequirement {
  std::string key;
  // Kept as text so that an unknown operator survives to validation's message.
  std::string op;
  std::vector<std::string> values;

  bool operator==(const LabelSelectorRequirement&) const = default;
};

struct LabelSelector {
  labels::LabelSet match_labels;  // sorted by key, unique
  std::vector<LabelSelectorRequirement> match_expressions;

  // {}: selects everything (as opposed to an absent selector, which selects nothing).
  bool empty() const { return match_labels.empty() && match_expressions.empty(); }

  // Reads the wire form. Unknown members are ignored and nulls count as absent (or
  // "" inside lists and maps), as Go's decoder does. The first member of a wrong
  // JSON type is an error worded like Go's: "json: cannot unmarshal number into Go
  // struct field LabelSelector.spec.selector.matchLabels of type string".
  // `json_path` is where the selector sits ("spec.selector"); empty means the value
  // is the whole document. (For a nested selector that is not an object, upstream
  // names the enclosing Go struct, which is unknown here; the path alone is used.)
  static Result<LabelSelector> from_json(const json::value& v, std::string_view json_path = {});

  // The wire form: empty matchLabels / matchExpressions / values are omitted.
  json::value to_json() const;

  bool operator==(const LabelSelector&) const = default;
};

// For optional selectors: nullptr or JSON null gives nullopt (a nil selector).
Result<std::optional<LabelSelector>> label_selector_from_json(const json::value* v,
                                                              std::string_view json_path = {});

// upstream LabelSelectorAsSelector: {} selects everything; matchLabels become '='
// requirements and expressions In/NotIn/Exists/DoesNotExist. Errors are upstream's
// (e.g. `"Foo" is not a valid pod selector operator`, or NewRequirement's
// "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set
// can't be empty").
Result<labels::Selector> as_selector(const LabelSelector& selector);
// A nil selector selects nothing.
Result<labels::Selector> as_selector(const std::optional<LabelSelector>& selector);

// The selector in the string language, as kubectl and controllers send it in
// ?labelSelector= ("app=web,tier in (a,b)").
Result<std::string> to_selector_string(const LabelSelector& selector);

// upstream FormatLabelSelector, for display: "<none>" when empty or nil,
// "<error>" when it does not convert.
std::string format_label_selector(const std::optional<LabelSelector>& selector);

// upstream ParseToLabelSelector: the string language back to a LabelSelector
// (=/== become matchLabels; !=, gt and lt are refused).
Result<LabelSelector> parse_label_selector(std::string_view selector);

struct LabelSelectorValidationOptions {
  // Only for updates of objects stored before values were validated.
  bool allow_invalid_label_value_in_selector = false;
};

// upstream metav1 validation.ValidateLabelSelector. `field` is the selector's path,
// e.g. "spec.selector"; errors read "spec.selector.matchExpressions[0].values: ...".
FieldErrors validate_label_selector(const LabelSelector& selector, std::string_view field,
                                    LabelSelectorValidationOptions options = {});
// A nil selector is valid here (callers that require one check that themselves).
FieldErrors validate_label_selector(const std::optional<LabelSelector>& selector,
                                    std::string_view field,
                                    LabelSelectorValidationOptions options = {});

// upstream LabelSelectorHasInvalidLabelValue: decides
// allow_invalid_label_value_in_selector for an update from the stored object.
bool label_selector_has_invalid_label_value(const LabelSelector& selector);

}  // namespace kcm::api
