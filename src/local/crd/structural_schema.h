// Structural schemas of CustomResourceDefinitions (apiextensions-apiserver's
// pkg/apiserver/schema): an openAPIV3Schema parsed into an immutable tree that
// validation, pruning and defaulting walk. Parsing also runs upstream's static
// checks of the schema (the CRD's OpenAPI checks and ValidateStructural), so a
// Schema that exists is always structural.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"
#include "api/result.h"

namespace kcm::local::crd {

namespace json = boost::json;

struct Schema;
using SchemaPtr = std::shared_ptr<const Schema>;

struct Schema {
  // Generic.
  std::string type;  // "", object, array, string, integer, number, boolean
  std::string description;
  std::string title;
  bool nullable = false;
  std::optional<json::value> default_value;
  // additionalProperties: absent (nullopt), a bool, or a schema (allows = true).
  std::optional<bool> additional_properties_allows;
  SchemaPtr additional_properties;

  // Structure: properties in document order.
  std::vector<std::pair<std::string, SchemaPtr>> properties;
  SchemaPtr items;

  // Value validation.
  std::string format;
  std::optional<double> maximum;
  bool exclusive_maximum = false;
  std::optional<double> minimum;
  bool exclusive_minimum = false;
  std::optional<std::int64_t> max_length;
  std::optional<std::int64_t> min_length;
  std::string pattern;  // checked to compile when parsed
  std::optional<std::int64_t> max_items;
  std::optional<std::int64_t> min_items;
  bool unique_items = false;
  std::optional<double> multiple_of;
  std::optional<std::int64_t> max_properties;
  std::optional<std::int64_t> min_properties;
  std::vector<std::string> required;
  std::optional<json::array> enum_values;
  std::vector<SchemaPtr> all_of;
  std::vector<SchemaPtr> any_of;
  std::vector<SchemaPtr> one_of;
  SchemaPtr not_;

  // Kubernetes extensions.
  bool preserve_unknown_fields = false;
  bool embedded_resource = false;
  bool int_or_string = false;
  std::optional<std::string> list_type;
  std::vector<std::string> list_map_keys;
  std::optional<std::string> map_type;

  // The schema of property `name`, or nullptr.
  const Schema* property(std::string_view name) const;
};

struct SchemaParseOptions {
  // Where the schema sits in the CRD, for error paths.
  std::string field_path = "spec.versions[0].schema.openAPIV3Schema";
  // With the status subresource only some fields are allowed at the root.
  bool status_subresource_enabled = false;
};

// Parses `openAPIV3Schema` and runs upstream's checks of it: the OpenAPI
// restrictions of CRD validation (no $ref, no patternProperties, uniqueItems,
// list types, ...) and, when those pass, the structural-schema invariants
// (types specified, no generics inside allOf/anyOf/oneOf/not, metadata only
// restricting name/generateName, ...), and when structural, that every
// default is pruned and validates against its own schema. Errors carry full
// paths under `options.field_path`; the structural ones are sorted by message
// as upstream. x-kubernetes-validations (CEL) are accepted and ignored.
Result<SchemaPtr, api::FieldErrors> parse_structural_schema(const json::value& openapi_v3_schema,
                                                            const SchemaParseOptions& options = {});

// Deep semantic equality of JSON values (numbers compared by value, objects
// regardless of member order), as Go compares decoded JSON.
bool json_equal(const json::value& a, const json::value& b);

}  // namespace kcm::local::crd
