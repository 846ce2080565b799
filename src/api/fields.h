// Field selectors (upstream k8s.io/apimachinery/pkg/fields):
// "metadata.name=web,status.phase!=Running,involvedObject.namespace=".
//
// Terms are split on unescaped commas and sorted; each splits at its first "!=",
// "==" or "=". Values may escape '\', ',' and '=' with a backslash. Which field
// names a resource accepts is the API server's business: check_supported_fields().
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/result.h"

namespace kcm::api::fields {

enum class Operator : std::uint8_t {
  kEquals,     // "=" or "=="
  kNotEquals,  // "!="
};

struct Requirement {
  std::string field;
  Operator op = Operator::kEquals;
  std::string value;  // unescaped

  bool operator==(const Requirement&) const = default;
};

class Selector {
 public:
  Selector() = default;  // everything
  static Selector everything() { return {}; }
  // upstream OneTermEqualSelector ("metadata.name=web", what SingleObject uses).
  static Selector one_term_equal(std::string field, std::string value);
  // The terms in the given order.
  static Selector from_requirements(std::vector<Requirement> reqs);

  bool empty() const { return terms_.empty(); }
  // The terms in order (sorted by their text when parsed).
  const std::vector<Requirement>& requirements() const { return terms_; }
  // The value the first '=' term on `field` requires, like RequiresExactMatch.
  std::optional<std::string_view> requires_exact_match(std::string_view field) const;

  bool operator==(const Selector&) const = default;

 private:
  std::vector<Requirement> terms_;
};

// upstream fields.ParseSelector. Errors are upstream's:
//   invalid selector: 'a'; can't understand 'a'
//   invalid field selector: invalid escape sequence: \x
//   invalid field selector: unescaped character in value: 61
// A term with an empty field and an empty value ("=") is dropped, as upstream's
// transform step does.
Result<Selector> parse(std::string_view selector);

// upstream String(): "field=value" / "field!=value" joined by ',', values escaped.
std::string to_string(const Selector& selector);

// Escapes '\', ',' and '=' with a backslash; unescape_value undoes it (upstream
// EscapeValue / UnescapeValue, with the same errors).
std::string escape_value(std::string_view value);
Result<std::string> unescape_value(std::string_view value);

// Maps a field name to the object's value; "" when the object has no such field
// (upstream compares missing fields as ""). Returned views must stay valid for the
// duration of the match call.
using FieldGetter = std::function<std::string_view(std::string_view field)>;
bool matches(const Selector& selector, const FieldGetter& get);
// Matching against an explicit set of (field, value) pairs (upstream fields.Set).
bool matches(const Selector& selector, std::span<const std::pair<std::string, std::string>> set);

// Refuses a selector naming a field outside `supported`, with the message of the
// API server's field label conversion: "field label not supported: spec.foo".
Result<void> check_supported_fields(const Selector& selector,
                                    std::span<const std::string_view> supported);
// The default for kinds without their own field selectors (custom resources and
// most built-ins): only metadata.name and metadata.namespace, refused with
// "\"spec.foo\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"".
Result<void> check_metadata_fields(const Selector& selector);

}  // namespace kcm::api::fields
