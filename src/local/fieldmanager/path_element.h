// One step of a field path, as structured-merge-diff names the parts of an
// object whose ownership server-side apply tracks: a struct field or map key
// (".spec"), the item of an associative list by its key fields
// ("[name=\"nginx\"]"), the item of a set list by its value ("[=\"a\"]"), or
// a list item by position ("[3]", for lists without keys).
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "api/json.h"
#include "api/result.h"

namespace kcm::local::fieldmanager {

namespace json = boost::json;

// A key field of an associative list item: its name and scalar value.
struct KeyField {
  std::string name;
  json::value value;
};

class PathElement {
 public:
  enum class Form { kField, kKey, kValue, kIndex };

  static PathElement field(std::string name);
  static PathElement key(std::vector<KeyField> fields);  // sorted by name here
  static PathElement value(json::value v);
  static PathElement index(int i);

  Form form() const { return static_cast<Form>(v_.index()); }
  // kField only.
  const std::string& field_name() const { return std::get<0>(v_); }

  // structured-merge-diff's order: fields, then keys, then values, then
  // indexes; fields by name, keys field by field, values by value.Compare.
  int compare(const PathElement& other) const;
  bool operator<(const PathElement& other) const { return compare(other) < 0; }
  bool operator==(const PathElement& other) const { return compare(other) == 0; }

  // The form conflict messages print: ".spec", "[name=\"nginx\"]", "[=\"a\"]", "[3]".
  std::string to_string() const;
  // The member name in FieldsV1: "f:spec", "k:{\"name\":\"nginx\"}", "v:\"a\"", "i:3".
  std::string to_fields_v1() const;
  // The inverse of to_fields_v1, with structured-merge-diff's errors.
  static Result<PathElement> from_fields_v1(std::string_view text);

 private:
  using Variant = std::variant<std::string, std::vector<KeyField>, json::value, int>;
  explicit PathElement(Variant v) : v_(std::move(v)) {}
  Variant v_;
};

using Path = std::vector<PathElement>;

// from_fields_v1's error for a prefix other than f:, k:, v: and i:.
inline constexpr std::string_view kUnknownPathElementType = "unknown path element type";

// ".spec.template.spec.containers[name=\"nginx\"].image".
std::string to_string(const Path& path);

// structured-merge-diff's value.Compare: numbers, then strings, then booleans,
// then lists, then maps, then null; within a type by value.
int compare_values(const json::value& a, const json::value& b);
// structured-merge-diff's value.ToString: strings quoted as Go's %q.
std::string value_to_string(const json::value& v);

}  // namespace kcm::local::fieldmanager
