// The label selector language (upstream k8s.io/apimachinery/pkg/labels):
// "a=b,c!=d,e in (x,y),f notin (z),!g,h,i==j,k>3,l<5".
//
// parse() follows upstream's lexer and parser token by token, so accepted input,
// the resulting requirements and the error texts are the same ("unable to parse
// requirement: <nil>: Invalid value: ..."). Matching never allocates: the API
// server runs one selector over every object of a list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/json.h"
#include "api/result.h"

namespace kcm::api::labels {

// upstream selection.Operator.
enum class Operator : std::uint8_t {
  kEquals,        // "="
  kDoubleEquals,  // "=="
  kNotEquals,     // "!="
  kIn,            // "in"
  kNotIn,         // "notin"
  kExists,        // "exists" (written as a bare key)
  kDoesNotExist,  // "!"
  kGreaterThan,   // "gt" (written '>')
  kLessThan,      // "lt" (written '<')
};

// upstream's string value of the operator: "=", "==", "!=", "in", "notin", "exists",
// "!", "gt", "lt".
std::string_view operator_name(Operator op);

// A label set as sorted (key, value) pairs with unique keys: the compact form of
// metadata.labels that caches can keep per object.
using LabelSet = std::vector<std::pair<std::string, std::string>>;

// metadata.labels as a LabelSet (non-string values are skipped).
LabelSet to_label_set(const json::object& labels);

class Requirement {
 public:
  // upstream NewRequirement: checks the key (a qualified name), the number of values
  // for the operator, integer values for gt/lt and every value as a label value.
  // `path` prefixes the field paths of the errors ("" is upstream's nil path). The
  // error is upstream's aggregate text: one message, or "[m1, m2]".
  static Result<Requirement> create(std::string key, Operator op, std::vector<std::string> values,
                                    std::string_view path = {});
  // Without validation, for input validated elsewhere (SelectorFromValidatedSet).
  static Requirement make_unchecked(std::string key, Operator op, std::vector<std::string> values);

  const std::string& key() const { return key_; }
  Operator op() const { return op_; }
  // The values as given (upstream's ValuesUnsorted); to_string() prints them sorted.
  const std::vector<std::string>& values() const { return values_; }

  // `value` is the object's value for key(), or nullopt when the label is absent.
  bool matches(std::optional<std::string_view> value) const;

  // upstream Requirement.String(): "!k", "k", "k=v", "k in (a,b)", "k>3".
  std::string to_string() const;

  bool operator==(const Requirement& other) const {
    return key_ == other.key_ && op_ == other.op_ && values_ == other.values_;
  }

 private:
  Requirement(std::string key, Operator op, std::vector<std::string> values);

  std::string key_;
  Operator op_ = Operator::kExists;
  std::vector<std::string> values_;
  // gt/lt: the parsed bound, kept so matching does not re-parse it.
  std::optional<std::int64_t> bound_;
};

// A conjunction of requirements, sorted by key. The default selector is upstream's
// Everything(); nothing() is upstream's Nothing() (what a nil LabelSelector means).
class Selector {
 public:
  Selector() = default;
  static Selector everything() { return {}; }
  static Selector nothing();
  // The conjunction of `reqs`, sorted by key (stable for equal keys, as upstream's
  // sort is for the sizes selectors have).
  static Selector from_requirements(std::vector<Requirement> reqs);
  // upstream SelectorFromValidatedSet: key=value for every pair, unchecked.
  static Selector from_set(const LabelSet& set);
  // upstream ValidatedSelectorFromSet: as from_set, validating each pair.
  static Result<Selector> from_set_checked(const LabelSet& set);

  // True when the selector does not restrict anything (Everything()).
  bool empty() const { return !nothing_ && requirements_.empty(); }
  // True only for nothing(): matches no object at all.
  bool matches_nothing() const { return nothing_; }

  // Adds requirements, keeping them sorted by key (stable for equal keys).
  // Adding to nothing() leaves it nothing().
  void add(Requirement r);

  const std::vector<Requirement>& requirements() const { return requirements_; }

  // The single value the selector requires for `label` (=, == or in with one value
  // on the first requirement with that key), like upstream RequiresExactMatch.
  std::optional<std::string_view> requires_exact_match(std::string_view label) const;

  bool operator==(const Selector& other) const = default;

 private:
  std::vector<Requirement> requirements_;
  bool nothing_ = false;
};

// upstream labels.Parse. `path` is only used in error messages ("" means upstream's
// nil path, printed as "<nil>" for an invalid key).
Result<Selector> parse(std::string_view selector, std::string_view path = {});

// upstream Selector.String(): requirements in key order joined by ','; "" for both
// everything() and nothing().
std::string to_string(const Selector& selector);

// Matching: every requirement must hold. `labels` is the metadata.labels object
// (a non-string value counts as absent) or a sorted LabelSet.
bool matches(const Selector& selector, const json::object& labels);
bool matches(const Selector& selector, const LabelSet& labels);

}  // namespace kcm::api::labels
