#include "local/crd/structural_schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <boost/regex.hpp>
#include <cmath>
#include <set>

#include "local/crd/pruning.h"
#include "local/crd/schema_validation.h"

namespace kcm::local::crd {

namespace {

using api::FieldErrors;

// JSONSchemaProps members by the JSON type Go decodes them into.
enum class Expect {
  kString,
  kNumber,
  kBool,
  kInteger,
  kStringArray,
  kSchemaArray,
  kSchemaMap,
  kSchema,
  kSchemaOrArray,
  kSchemaOrBool,
  kAny,
  kArray,
  kObject
};

struct Member {
  std::string_view name;
  Expect expect;
};

// In Go struct order: the root check for the status subresource walks them so.
constexpr std::array<Member, 43> kMembers = {{
    {"id", Expect::kString},
    {"$schema", Expect::kString},
    {"$ref", Expect::kString},
    {"description", Expect::kString},
    {"type", Expect::kString},
    {"format", Expect::kString},
    {"title", Expect::kString},
    {"default", Expect::kAny},
    {"maximum", Expect::kNumber},
    {"exclusiveMaximum", Expect::kBool},
    {"minimum", Expect::kNumber},
    {"exclusiveMinimum", Expect::kBool},
    {"maxLength", Expect::kInteger},
    {"minLength", Expect::kInteger},
    {"pattern", Expect::kString},
    {"maxItems", Expect::kInteger},
    {"minItems", Expect::kInteger},
    {"uniqueItems", Expect::kBool},
    {"multipleOf", Expect::kNumber},
    {"enum", Expect::kArray},
    {"maxProperties", Expect::kInteger},
    {"minProperties", Expect::kInteger},
    {"required", Expect::kStringArray},
    {"items", Expect::kSchemaOrArray},
    {"allOf", Expect::kSchemaArray},
    {"oneOf", Expect::kSchemaArray},
    {"anyOf", Expect::kSchemaArray},
    {"not", Expect::kSchema},
    {"properties", Expect::kSchemaMap},
    {"additionalProperties", Expect::kSchemaOrBool},
    {"patternProperties", Expect::kSchemaMap},
    {"dependencies", Expect::kObject},
    {"additionalItems", Expect::kSchemaOrBool},
    {"definitions", Expect::kSchemaMap},
    {"externalDocs", Expect::kObject},
    {"example", Expect::kAny},
    {"nullable", Expect::kBool},
    {"x-kubernetes-preserve-unknown-fields", Expect::kBool},
    {"x-kubernetes-embedded-resource", Expect::kBool},
    {"x-kubernetes-int-or-string", Expect::kBool},
    {"x-kubernetes-list-map-keys", Expect::kStringArray},
    {"x-kubernetes-list-type", Expect::kString},
    {"x-kubernetes-map-type", Expect::kString},
}};

// Root members allowed with the status subresource (upstream's Go field names).
constexpr std::string_view kAllowedAtRootWithStatus =
    "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength "
    "MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties "
    "ExternalDocs Example XPreserveUnknownFields XValidations]";
bool allowed_at_root_with_status(std::string_view json_name) {
  static const std::set<std::string_view> kAllowed = {"description",
                                                      "type",
                                                      "format",
                                                      "title",
                                                      "maximum",
                                                      "exclusiveMaximum",
                                                      "minimum",
                                                      "exclusiveMinimum",
                                                      "maxLength",
                                                      "minLength",
                                                      "pattern",
                                                      "maxItems",
                                                      "minItems",
                                                      "uniqueItems",
                                                      "multipleOf",
                                                      "required",
                                                      "items",
                                                      "properties",
                                                      "externalDocs",
                                                      "example",
                                                      "x-kubernetes-preserve-unknown-fields",
                                                      "x-kubernetes-validations"};
  return kAllowed.count(json_name) > 0;
}

std::string_view expect_name(Expect e) {
  switch (e) {
    case Expect::kString:
      return "string";
    case Expect::kNumber:
      return "number";
    case Expect::kBool:
      return "boolean";
    case Expect::kInteger:
      return "integer";
    case Expect::kStringArray:
      return "array of strings";
    case Expect::kSchemaArray:
      return "array of objects";
    case Expect::kArray:
      return "array";
    case Expect::kSchemaMap:
    case Expect::kSchema:
    case Expect::kObject:
      return "object";
    case Expect::kSchemaOrArray:
      return "object or array";
    case Expect::kSchemaOrBool:
      return "object or boolean";
    case Expect::kAny:
      return "any";
  }
  return "any";
}

bool is_integer(const json::value& v) {
  return v.is_int64() || (v.is_uint64() && v.get_uint64() <= INT64_MAX);
}

bool has_expected_type(Expect e, const json::value& v) {
  switch (e) {
    case Expect::kString:
      return v.is_string();
    case Expect::kNumber:
      return v.is_number();
    case Expect::kBool:
      return v.is_bool();
    case Expect::kInteger:
      return is_integer(v);
    case Expect::kStringArray:
      return v.is_array() && std::all_of(v.get_array().begin(), v.get_array().end(),
                                         [](const json::value& x) { return x.is_string(); });
    case Expect::kSchemaArray:
      return v.is_array() && std::all_of(v.get_array().begin(), v.get_array().end(),
                                         [](const json::value& x) { return x.is_object(); });
    case Expect::kArray:
      return v.is_array();
    case Expect::kSchemaMap:
      return v.is_object() && std::all_of(v.get_object().begin(), v.get_object().end(),
                                          [](const auto& kv) { return kv.value().is_object(); });
    case Expect::kSchema:
    case Expect::kObject:
      return v.is_object();
    case Expect::kSchemaOrArray:
      return v.is_object() || v.is_array();
    case Expect::kSchemaOrBool:
      return v.is_object() || v.is_bool();
    case Expect::kAny:
      return true;
  }
  return true;
}

// A member that Go would decode to its zero value.
bool is_zero(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return true;
    case json::kind::bool_:
      return !v.get_bool();
    case json::kind::string:
      return v.get_string().empty();
    case json::kind::int64:
      return v.get_int64() == 0;
    case json::kind::uint64:
      return v.get_uint64() == 0;
    case json::kind::double_:
      return v.get_double() == 0;
    default:
      return false;
  }
}

const json::value* member(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return (v == nullptr || v->is_null()) ? nullptr : v;
}
std::string_view string_member(const json::object& o, std::string_view key) {
  return api::as_string_view(member(o, key));
}
bool bool_member(const json::object& o, std::string_view key) {
  const json::value* v = member(o, key);
  return v != nullptr && v->is_bool() && v->get_bool();
}

std::string props_key(std::string_view path, std::string_view name) {
  return api::key(api::child(path, "properties"), name);
}

// ---- Pass 1: the JSON shape of every member, and the OpenAPI restrictions of
// ValidateCustomResourceDefinitionOpenAPISchema.

void check_openapi(const json::object& s, const std::string& path, FieldErrors& errs);

void check_shape(const json::object& s, const std::string& path, FieldErrors& errs,
                 bool* unsupported) {
  for (const Member& m : kMembers) {
    const json::value* v = member(s, m.name);
    if (v == nullptr) continue;
    if (!has_expected_type(m.expect, *v)) {
      errs.push_back(api::type_invalid(api::child(path, m.name), *v,
                                       fmt::format("must be of type {}", expect_name(m.expect))));
      *unsupported = true;
    }
  }
}

void check_openapi(const json::object& s, const std::string& path, FieldErrors& errs) {
  bool bad_shape = false;
  check_shape(s, path, errs, &bad_shape);
  if (bad_shape) return;

  // specStandardValidatorV3.
  if (!string_member(s, "id").empty()) {
    errs.push_back(api::forbidden(api::child(path, "id"), "id is not supported"));
  }
  if (member(s, "additionalItems") != nullptr) {
    errs.push_back(
        api::forbidden(api::child(path, "additionalItems"), "additionalItems is not supported"));
  }
  if (const json::value* p = member(s, "patternProperties"); p && !p->get_object().empty()) {
    errs.push_back(api::forbidden(api::child(path, "patternProperties"),
                                  "patternProperties is not supported"));
  }
  if (const json::value* d = member(s, "definitions"); d && !d->get_object().empty()) {
    errs.push_back(api::forbidden(api::child(path, "definitions"), "definitions is not supported"));
  }
  if (member(s, "dependencies") != nullptr) {
    errs.push_back(
        api::forbidden(api::child(path, "dependencies"), "dependencies is not supported"));
  }
  if (member(s, "$ref") != nullptr) {
    errs.push_back(api::forbidden(api::child(path, "$ref"), "$ref is not supported"));
  }
  const std::string_view type = string_member(s, "type");
  if (type == "null") {
    errs.push_back(api::forbidden(api::child(path, "type"),
                                  "type cannot be set to null, use nullable as an alternative"));
  }
  static const std::vector<std::string> kTypes = {"array",  "boolean", "integer",
                                                  "number", "object",  "string"};
  if (!type.empty() && std::find(kTypes.begin(), kTypes.end(), type) == kTypes.end()) {
    errs.push_back(api::not_supported(api::child(path, "type"), json::value(type), kTypes));
  }
  const json::value* items = member(s, "items");
  if (items != nullptr && items->is_array()) {
    errs.push_back(api::forbidden(api::child(path, "items"),
                                  "items must be a schema object and not an array"));
  }
  if (const json::value* p = member(s, "x-kubernetes-preserve-unknown-fields");
      p && !p->get_bool()) {
    errs.push_back(api::invalid(api::child(path, "x-kubernetes-preserve-unknown-fields"), false,
                                "must be true or undefined"));
  }

  if (bool_member(s, "uniqueItems")) {
    errs.push_back(
        api::forbidden(api::child(path, "uniqueItems"),
                       "uniqueItems cannot be set to true since the runtime complexity becomes "
                       "quadratic"));
  }

  const json::value* props = member(s, "properties");
  const bool has_props = props != nullptr && !props->get_object().empty();
  const json::value* additional = member(s, "additionalProperties");
  if (additional != nullptr) {
    if (has_props && (additional->is_object() || !additional->get_bool())) {
      errs.push_back(api::forbidden(api::child(path, "additionalProperties"),
                                    "additionalProperties and properties are mutual exclusive"));
    }
    if (additional->is_object()) {
      check_openapi(additional->get_object(), api::child(path, "additionalProperties"), errs);
    }
  }
  if (has_props) {
    for (const auto& kv : props->get_object()) {
      check_openapi(kv.value().get_object(), props_key(path, kv.key()), errs);
    }
  }
  if (const json::value* p = member(s, "patternProperties")) {
    for (const auto& kv : p->get_object()) {
      check_openapi(kv.value().get_object(),
                    api::key(api::child(path, "patternProperties"), kv.key()), errs);
    }
  }
  if (const json::value* a = member(s, "additionalItems"); a && a->is_object()) {
    check_openapi(a->get_object(), api::child(path, "additionalItems"), errs);
  }
  if (const json::value* n = member(s, "not")) {
    check_openapi(n->get_object(), api::child(path, "not"), errs);
  }
  for (std::string_view junctor : {"allOf", "oneOf", "anyOf"}) {
    if (const json::value* arr = member(s, junctor)) {
      std::size_t i = 0;
      for (const json::value& x : arr->get_array()) {
        check_openapi(x.get_object(), api::index(api::child(path, junctor), i++), errs);
      }
    }
  }
  if (const json::value* d = member(s, "definitions")) {
    for (const auto& kv : d->get_object()) {
      check_openapi(kv.value().get_object(), api::key(api::child(path, "definitions"), kv.key()),
                    errs);
    }
  }
  if (items != nullptr) {
    if (items->is_object()) {
      check_openapi(items->get_object(), api::child(path, "items"), errs);
    } else {
      std::size_t i = 0;
      for (const json::value& x : items->get_array()) {
        const std::string p = api::index(api::child(path, "items"), i++);
        if (x.is_object()) {
          check_openapi(x.get_object(), p, errs);
        } else {
          errs.push_back(api::type_invalid(p, x, "must be of type object"));
        }
      }
    }
  }

  // List and map types.
  const json::value* list_type = member(s, "x-kubernetes-list-type");
  const json::value* map_keys = member(s, "x-kubernetes-list-map-keys");
  const std::string_view lt = api::as_string_view(list_type);
  if (list_type != nullptr && lt != "atomic" && lt != "set" && lt != "map") {
    errs.push_back(api::not_supported(api::child(path, "x-kubernetes-list-type"), json::value(lt),
                                      {"atomic", "set", "map"}));
  }
  if (const json::value* mt = member(s, "x-kubernetes-map-type")) {
    const std::string_view m = mt->get_string();
    if (m != "granular" && m != "atomic") {
      errs.push_back(api::not_supported(api::child(path, "x-kubernetes-map-type"), json::value(m),
                                        {"granular", "atomic"}));
    }
  }
  if (map_keys != nullptr && !map_keys->get_array().empty()) {
    if (list_type == nullptr) {
      errs.push_back(api::required(api::child(path, "x-kubernetes-list-type"),
                                   "must be map if x-kubernetes-list-map-keys is non-empty"));
    } else if (lt != "map") {
      errs.push_back(api::invalid(api::child(path, "x-kubernetes-list-type"), json::value(lt),
                                  "must be map if x-kubernetes-list-map-keys is non-empty"));
    }
  }
  if (lt == "map") {
    if (map_keys == nullptr || map_keys->get_array().empty()) {
      errs.push_back(api::required(api::child(path, "x-kubernetes-list-map-keys"),
                                   "must not be empty if x-kubernetes-list-type is map"));
    }
    if (items == nullptr || !items->is_object()) {
      errs.push_back(api::required(api::child(path, "items"),
                                   "must have a schema if x-kubernetes-list-type is map"));
    } else {
      const json::object& item = items->get_object();
      const std::string_view item_type = string_member(item, "type");
      if (item_type != "object") {
        errs.push_back(api::invalid(api::child(api::child(path, "items"), "type"),
                                    json::value(item_type),
                                    "must be object if parent array's x-kubernetes-list-type is "
                                    "map"));
      } else if (map_keys != nullptr) {
        const json::value* item_props = member(item, "properties");
        std::set<std::string_view> seen;
        for (const json::value& k : map_keys->get_array()) {
          const std::string_view key = k.get_string();
          const json::value* p =
              item_props != nullptr ? member(item_props->get_object(), key) : nullptr;
          if (p == nullptr) {
            errs.push_back(api::invalid(api::child(path, "x-kubernetes-list-map-keys"), *map_keys,
                                        "entries must all be names of item properties"));
          } else {
            const std::string_view kt = string_member(p->get_object(), "type");
            if (kt == "array" || kt == "object") {
              errs.push_back(api::invalid(
                  api::child(props_key(api::child(path, "items"), key), "type"), json::value(kt),
                  "must be a scalar type if parent array's x-kubernetes-list-type is map"));
            }
          }
          if (!seen.insert(key).second) {
            errs.push_back(api::invalid(api::child(path, "x-kubernetes-list-map-keys"), *map_keys,
                                        "must not contain duplicate entries"));
          }
        }
      }
    }
  }
}

// ---- Pass 2: the tree.

// Why NewStructural refuses a schema (validation reports these first), or "".
std::string unsupported(const json::object& s) {
  static constexpr std::pair<std::string_view, std::string_view> kStrings[] = {
      {"id", "id"}, {"$schema", "schema"}, {"$ref", "$ref"}};
  for (const auto& [key, name] : kStrings) {
    if (!string_member(s, key).empty()) {
      return fmt::format("OpenAPIV3Schema '{}' is not supported", name);
    }
  }
  if (const json::value* v = member(s, "patternProperties");
      v && v->is_object() && !v->get_object().empty()) {
    return "OpenAPIV3Schema 'patternProperties' is not supported";
  }
  if (member(s, "dependencies") != nullptr) {
    return "OpenAPIV3Schema 'dependencies' is not supported";
  }
  if (member(s, "additionalItems") != nullptr) {
    return "OpenAPIV3Schema 'additionalItems' is not supported";
  }
  if (const json::value* v = member(s, "definitions");
      v && v->is_object() && !v->get_object().empty()) {
    return "OpenAPIV3Schema 'definitions' is not supported";
  }
  if (const json::value* items = member(s, "items"); items && items->is_array()) {
    return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  }
  if (const json::value* p = member(s, "x-kubernetes-preserve-unknown-fields");
      p && p->is_bool() && !p->get_bool()) {
    return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  }
  auto nested = [](const json::value* v) -> std::string {
    return v != nullptr && v->is_object() ? unsupported(v->get_object()) : std::string();
  };
  for (std::string_view k : {"not", "items", "additionalProperties"}) {
    if (std::string why = nested(member(s, k)); !why.empty()) return why;
  }
  for (std::string_view j : {"allOf", "anyOf", "oneOf"}) {
    if (const json::value* arr = member(s, j); arr && arr->is_array()) {
      for (const json::value& x : arr->get_array()) {
        if (std::string why = nested(&x); !why.empty()) return why;
      }
    }
  }
  if (const json::value* p = member(s, "properties"); p && p->is_object()) {
    for (const auto& kv : p->get_object()) {
      if (std::string why = nested(&kv.value()); !why.empty()) return why;
    }
  }
  return {};
}

std::optional<std::int64_t> int_member(const json::object& o, std::string_view key) {
  const json::value* v = member(o, key);
  if (v == nullptr || !is_integer(*v)) return std::nullopt;
  return v->is_int64() ? v->get_int64() : static_cast<std::int64_t>(v->get_uint64());
}
std::optional<double> number_member(const json::object& o, std::string_view key) {
  const json::value* v = member(o, key);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return v->to_number<double>();
}
std::vector<std::string> strings_member(const json::object& o, std::string_view key) {
  std::vector<std::string> out;
  if (const json::value* v = member(o, key); v && v->is_array()) {
    for (const json::value& x : v->get_array()) {
      if (x.is_string()) out.emplace_back(x.get_string());
    }
  }
  return out;
}

SchemaPtr build(const json::object& s) {
  auto out = std::make_shared<Schema>();
  out->type = string_member(s, "type");
  out->description = string_member(s, "description");
  out->title = string_member(s, "title");
  out->nullable = bool_member(s, "nullable");
  if (const json::value* d = member(s, "default")) out->default_value = *d;
  if (const json::value* a = member(s, "additionalProperties")) {
    if (a->is_object()) {
      out->additional_properties_allows = true;
      out->additional_properties = build(a->get_object());
    } else if (a->is_bool()) {
      out->additional_properties_allows = a->get_bool();
    }
  }
  if (const json::value* p = member(s, "properties"); p && p->is_object()) {
    for (const auto& kv : p->get_object()) {
      if (kv.value().is_object()) {
        out->properties.emplace_back(std::string(kv.key()), build(kv.value().get_object()));
      }
    }
  }
  if (const json::value* i = member(s, "items"); i && i->is_object()) {
    out->items = build(i->get_object());
  }
  out->format = string_member(s, "format");
  out->maximum = number_member(s, "maximum");
  out->exclusive_maximum = bool_member(s, "exclusiveMaximum");
  out->minimum = number_member(s, "minimum");
  out->exclusive_minimum = bool_member(s, "exclusiveMinimum");
  out->max_length = int_member(s, "maxLength");
  out->min_length = int_member(s, "minLength");
  out->pattern = string_member(s, "pattern");
  out->max_items = int_member(s, "maxItems");
  out->min_items = int_member(s, "minItems");
  out->unique_items = bool_member(s, "uniqueItems");
  out->multiple_of = number_member(s, "multipleOf");
  out->max_properties = int_member(s, "maxProperties");
  out->min_properties = int_member(s, "minProperties");
  out->required = strings_member(s, "required");
  if (const json::value* e = member(s, "enum"); e && e->is_array())
    out->enum_values = e->get_array();
  for (auto [name, dest] : {std::pair{"allOf", &out->all_of}, std::pair{"anyOf", &out->any_of},
                            std::pair{"oneOf", &out->one_of}}) {
    if (const json::value* arr = member(s, name); arr && arr->is_array()) {
      for (const json::value& x : arr->get_array()) {
        if (x.is_object()) dest->push_back(build(x.get_object()));
      }
    }
  }
  if (const json::value* n = member(s, "not"); n && n->is_object())
    out->not_ = build(n->get_object());
  out->preserve_unknown_fields = bool_member(s, "x-kubernetes-preserve-unknown-fields");
  out->embedded_resource = bool_member(s, "x-kubernetes-embedded-resource");
  out->int_or_string = bool_member(s, "x-kubernetes-int-or-string");
  if (const json::value* lt = member(s, "x-kubernetes-list-type"); lt && lt->is_string()) {
    out->list_type = std::string(lt->get_string());
  }
  out->list_map_keys = strings_member(s, "x-kubernetes-list-map-keys");
  if (const json::value* mt = member(s, "x-kubernetes-map-type"); mt && mt->is_string()) {
    out->map_type = std::string(mt->get_string());
  }
  return out;
}

// ---- Pass 3: ValidateStructural.

enum class Level { kRoot, kItem, kField };

// A schema with nothing but `type` (when allowed) set.
bool only_type(const Schema& s, std::string_view type) {
  Schema zero;
  zero.type = std::string(type);
  return s.type == zero.type && s.description.empty() && s.title.empty() && !s.nullable &&
         !s.default_value && !s.additional_properties_allows && s.properties.empty() && !s.items &&
         s.format.empty() && !s.maximum && !s.exclusive_maximum && !s.minimum &&
         !s.exclusive_minimum && !s.max_length && !s.min_length && s.pattern.empty() &&
         !s.max_items && !s.min_items && !s.unique_items && !s.multiple_of && !s.max_properties &&
         !s.min_properties && s.required.empty() && !s.enum_values && s.all_of.empty() &&
         s.any_of.empty() && s.one_of.empty() && !s.not_ && !s.preserve_unknown_fields &&
         !s.embedded_resource && !s.int_or_string && !s.list_type && s.list_map_keys.empty() &&
         !s.map_type;
}

bool is_int_or_string_any_of(const std::vector<SchemaPtr>& any_of) {
  return any_of.size() == 2 && only_type(*any_of[0], "integer") && only_type(*any_of[1], "string");
}

void validate_value_validation(const Schema& s, bool skip_any_of, bool skip_first_all_of_any_of,
                               Level lvl, const std::string& path, FieldErrors& errs);

void validate_nested(const Schema* v, bool skip_any_of, bool skip_all_of_any_of, Level lvl,
                     const std::string& path, FieldErrors& errs) {
  if (v == nullptr) return;
  validate_value_validation(*v, skip_any_of, skip_all_of_any_of, lvl, path, errs);
  validate_nested(v->items.get(), false, false, lvl, api::child(path, "items"), errs);
  for (const auto& [k, p] : v->properties) {
    validate_nested(p.get(), false, false, Level::kField, props_key(path, k), errs);
  }
  if (!v->type.empty()) {
    errs.push_back(api::forbidden(api::child(path, "type"), "must be empty to be structural"));
  }
  if (v->additional_properties_allows.has_value()) {
    errs.push_back(api::forbidden(api::child(path, "additionalProperties"),
                                  "must be undefined to be structural"));
  }
  if (v->default_value.has_value()) {
    errs.push_back(
        api::forbidden(api::child(path, "default"), "must be undefined to be structural"));
  }
  if (!v->title.empty()) {
    errs.push_back(api::forbidden(api::child(path, "title"), "must be empty to be structural"));
  }
  if (!v->description.empty()) {
    errs.push_back(
        api::forbidden(api::child(path, "description"), "must be empty to be structural"));
  }
  if (v->nullable) {
    errs.push_back(api::forbidden(api::child(path, "nullable"), "must be false to be structural"));
  }
  if (v->preserve_unknown_fields) {
    errs.push_back(api::forbidden(api::child(path, "x-kubernetes-preserve-unknown-fields"),
                                  "must be false to be structural"));
  }
  if (v->embedded_resource) {
    errs.push_back(api::forbidden(api::child(path, "x-kubernetes-embedded-resource"),
                                  "must be false to be structural"));
  }
  if (v->int_or_string) {
    errs.push_back(api::forbidden(api::child(path, "x-kubernetes-int-or-string"),
                                  "must be false to be structural"));
  }
  if (!v->list_map_keys.empty()) {
    errs.push_back(api::forbidden(api::child(path, "x-kubernetes-list-map-keys"),
                                  "must be empty to be structural"));
  }
  if (v->list_type) {
    errs.push_back(api::forbidden(api::child(path, "x-kubernetes-list-type"),
                                  "must be undefined to be structural"));
  }
  if (v->map_type) {
    errs.push_back(api::forbidden(api::child(path, "x-kubernetes-map-type"),
                                  "must be undefined to be structural"));
  }
  if (v->property("metadata") != nullptr) {
    errs.push_back(
        api::forbidden(props_key(path, "metadata"), "must not be specified in a nested context"));
  }
}

std::string regex_error(const std::string& pattern) {
  try {
    boost::regex re(pattern, boost::regex::perl);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

void validate_value_validation(const Schema& s, bool skip_any_of, bool skip_first_all_of_any_of,
                               Level lvl, const std::string& path, FieldErrors& errs) {
  if (!skip_any_of) {
    for (std::size_t i = 0; i < s.any_of.size(); ++i) {
      validate_nested(s.any_of[i].get(), false, false, lvl,
                      api::index(api::child(path, "anyOf"), i), errs);
    }
  }
  for (std::size_t i = 0; i < s.all_of.size(); ++i) {
    validate_nested(s.all_of[i].get(), skip_first_all_of_any_of && i == 0, false, lvl,
                    api::index(api::child(path, "allOf"), i), errs);
  }
  for (std::size_t i = 0; i < s.one_of.size(); ++i) {
    validate_nested(s.one_of[i].get(), false, false, lvl, api::index(api::child(path, "oneOf"), i),
                    errs);
  }
  validate_nested(s.not_.get(), false, false, lvl, api::child(path, "not"), errs);
  if (!s.pattern.empty()) {
    if (std::string err = regex_error(s.pattern); !err.empty()) {
      errs.push_back(api::invalid(api::child(path, "pattern"), json::value(s.pattern),
                                  "must be a valid regular expression, but isn't: " + err));
    }
  }
}

void validate_metadata(const Schema& m, bool check_metadata, Level lvl, const std::string& path,
                       FieldErrors& errs) {
  if (check_metadata && m.type != "object") {
    errs.push_back(api::invalid(api::child(path, "type"), json::value(m.type), "must be object"));
  }
  if (lvl != Level::kRoot) return;
  // Only name and generateName may be restricted; type and default are ignored.
  Schema rest = m;
  const bool name = m.property("name") != nullptr;
  const bool generate_name = m.property("generateName") != nullptr;
  if ((name && generate_name && m.properties.size() == 2) ||
      ((name || generate_name) && m.properties.size() == 1)) {
    rest.properties.clear();
  }
  rest.default_value.reset();
  if (!only_type(rest, m.type)) {
    errs.push_back(api::forbidden(path,
                                  "must not specify anything other than name and generateName, "
                                  "but metadata is implicitly specified"));
  }
}

void validate_invariants(const Schema* s, Level lvl, const std::string& path, FieldErrors& errs) {
  if (s == nullptr) return;
  if (s->type == "array" && !s->items) {
    errs.push_back(api::required(api::child(path, "items"), "must be specified"));
  }
  validate_invariants(s->items.get(), Level::kItem, api::child(path, "items"), errs);
  for (const auto& [k, p] : s->properties) {
    validate_invariants(p.get(), Level::kField, props_key(path, k), errs);
  }
  if (s->additional_properties_allows.has_value()) {
    if (lvl == Level::kRoot) {
      errs.push_back(
          api::forbidden(api::child(path, "additionalProperties"), "must not be used at the root"));
    }
    validate_invariants(s->additional_properties.get(), Level::kField,
                        api::child(path, "additionalProperties"), errs);
  }
  // Extensions.
  if (s->int_or_string && s->preserve_unknown_fields) {
    errs.push_back(api::invalid(api::child(path, "x-kubernetes-preserve-unknown-fields"), true,
                                "must be false if x-kubernetes-int-or-string is true"));
  }
  if (s->int_or_string && s->embedded_resource) {
    errs.push_back(api::invalid(api::child(path, "x-kubernetes-embedded-resource"), true,
                                "must be false if x-kubernetes-int-or-string is true"));
  }
  const bool skip_any_of = is_int_or_string_any_of(s->any_of);
  const bool skip_first_all_of_any_of =
      !s->all_of.empty() && is_int_or_string_any_of(s->all_of[0]->any_of);
  validate_value_validation(*s, skip_any_of, skip_first_all_of_any_of, lvl, path, errs);

  const bool check_metadata = lvl == Level::kRoot || s->embedded_resource;
  if (s->embedded_resource && s->type != "object") {
    if (s->type.empty()) {
      errs.push_back(api::required(api::child(path, "type"),
                                   "must be object if x-kubernetes-embedded-resource is true"));
    } else {
      errs.push_back(api::invalid(api::child(path, "type"), json::value(s->type),
                                  "must be object if x-kubernetes-embedded-resource is true"));
    }
  } else if (s->type.empty() && !s->int_or_string && !s->preserve_unknown_fields) {
    const char* detail = lvl == Level::kRoot   ? "must not be empty at the root"
                         : lvl == Level::kItem ? "must not be empty for specified array items"
                                               : "must not be empty for specified object fields";
    errs.push_back(api::required(api::child(path, "type"), detail));
  }
  if (s->embedded_resource && s->additional_properties_allows.has_value()) {
    errs.push_back(api::forbidden(api::child(path, "additionalProperties"),
                                  "must not be used if x-kubernetes-embedded-resource is set"));
  }
  if (lvl == Level::kRoot && !s->type.empty() && s->type != "object") {
    errs.push_back(
        api::invalid(api::child(path, "type"), json::value(s->type), "must be object at the root"));
  }
  if (check_metadata) {
    for (std::string_view k : {"kind", "apiVersion"}) {
      if (const Schema* p = s->property(k); p != nullptr && p->type != "string") {
        errs.push_back(api::invalid(api::child(props_key(path, k), "type"), json::value(p->type),
                                    "must be string"));
      }
    }
  }
  if (const Schema* m = s->property("metadata")) {
    validate_metadata(*m, check_metadata, lvl, props_key(path, "metadata"), errs);
  }
  if (s->embedded_resource && !s->preserve_unknown_fields && s->properties.empty()) {
    errs.push_back(api::required(api::child(path, "properties"),
                                 "must not be empty if x-kubernetes-embedded-resource is true "
                                 "without x-kubernetes-preserve-unknown-fields"));
  }
}

// validateStructuralCompleteness: what value validations (allOf, ...) mention
// must also be specified in the structural part.
void validate_nested_completeness(const Schema* v, const Schema* s, const std::string& s_path,
                                  const std::string& v_path, FieldErrors& errs);

void validate_value_validation_completeness(const Schema& v, const Schema* s,
                                            const std::string& s_path, const std::string& v_path,
                                            FieldErrors& errs) {
  validate_nested_completeness(v.not_.get(), s, s_path, api::child(v_path, "not"), errs);
  for (std::size_t i = 0; i < v.all_of.size(); ++i) {
    validate_nested_completeness(v.all_of[i].get(), s, s_path,
                                 api::index(api::child(v_path, "allOf"), i), errs);
  }
  for (std::size_t i = 0; i < v.any_of.size(); ++i) {
    validate_nested_completeness(v.any_of[i].get(), s, s_path,
                                 api::index(api::child(v_path, "anyOf"), i), errs);
  }
  for (std::size_t i = 0; i < v.one_of.size(); ++i) {
    validate_nested_completeness(v.one_of[i].get(), s, s_path,
                                 api::index(api::child(v_path, "oneOf"), i), errs);
  }
}

void validate_nested_completeness(const Schema* v, const Schema* s, const std::string& s_path,
                                  const std::string& v_path, FieldErrors& errs) {
  if (v == nullptr) return;
  if (s == nullptr) {
    errs.push_back(api::required(s_path, "because it is defined in " + v_path));
    return;
  }
  validate_value_validation_completeness(*v, s, s_path, v_path, errs);
  for (const auto& [k, vf] : v->properties) {
    const Schema* sf = s->property(k);
    if (sf == nullptr) {
      errs.push_back(
          api::required(props_key(s_path, k), "because it is defined in " + props_key(v_path, k)));
    } else {
      validate_nested_completeness(vf.get(), sf, props_key(s_path, k), props_key(v_path, k), errs);
    }
  }
  if (v->items) {
    validate_nested_completeness(v->items.get(), s->items.get(), api::child(s_path, "items"),
                                 api::child(v_path, "items"), errs);
  }
}

void validate_completeness(const Schema* s, const std::string& path, FieldErrors& errs) {
  if (s == nullptr) return;
  validate_value_validation_completeness(*s, s, path, path, errs);
  validate_completeness(s->items.get(), api::child(path, "items"), errs);
  for (const auto& [k, p] : s->properties)
    validate_completeness(p.get(), props_key(path, k), errs);
  validate_completeness(s->additional_properties.get(), api::child(path, "additionalProperties"),
                        errs);
}

// ---- Pass 4: defaults (structural defaulting's ValidateDefaults).

void validate_defaults(const Schema& s, const std::string& path, FieldErrors& errs) {
  if (s.default_value.has_value()) {
    const std::string default_path = api::child(path, "default");
    json::value pruned = *s.default_value;
    prune(pruned, &s, s.embedded_resource);
    if (!json_equal(pruned, *s.default_value)) {
      errs.push_back(api::invalid(default_path, *s.default_value, "must not have unknown fields"));
    }
    FieldErrors v = validate_value(s, *s.default_value, "", default_path);
    errs.insert(errs.end(), v.begin(), v.end());
  }
  // Upstream does not follow additionalProperties here.
  if (s.items) validate_defaults(*s.items, api::child(path, "items"), errs);
  for (const auto& [k, p] : s.properties)
    validate_defaults(*p, props_key(path, k), errs);
}

}  // namespace

const Schema* Schema::property(std::string_view name) const {
  for (const auto& [k, p] : properties) {
    if (k == name) return p.get();
  }
  return nullptr;
}

bool json_equal(const json::value& a, const json::value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.is_double() || b.is_double()) return a.to_number<double>() == b.to_number<double>();
    if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
    if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
    const json::value& i = a.is_int64() ? a : b;
    const json::value& u = a.is_int64() ? b : a;
    return i.get_int64() >= 0 && static_cast<std::uint64_t>(i.get_int64()) == u.get_uint64();
  }
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case json::kind::array: {
      const json::array& x = a.get_array();
      const json::array& y = b.get_array();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (!json_equal(x[i], y[i])) return false;
      }
      return true;
    }
    case json::kind::object: {
      const json::object& x = a.get_object();
      const json::object& y = b.get_object();
      if (x.size() != y.size()) return false;
      for (const auto& kv : x) {
        const json::value* other = y.if_contains(kv.key());
        if (other == nullptr || !json_equal(kv.value(), *other)) return false;
      }
      return true;
    }
    default:
      return a == b;
  }
}

Result<SchemaPtr, api::FieldErrors> parse_structural_schema(const json::value& openapi_v3_schema,
                                                            const SchemaParseOptions& options) {
  const std::string& path = options.field_path;
  FieldErrors errs;
  if (!openapi_v3_schema.is_object()) {
    errs.push_back(api::type_invalid(path, openapi_v3_schema, "must be of type object"));
    return fail(std::move(errs));
  }
  const json::object& root = openapi_v3_schema.get_object();

  if (options.status_subresource_enabled) {
    for (const Member& m : kMembers) {
      const json::value* v = root.if_contains(m.name);
      if (v == nullptr || is_zero(*v)) continue;
      if (m.name == "type") {
        if (!v->is_string() || v->get_string() != "object") {
          errs.push_back(api::invalid(api::child(path, "type"), *v,
                                      "only \"object\" is allowed as the type at the root of the "
                                      "schema if the status subresource is enabled"));
          break;
        }
        continue;
      }
      if (!allowed_at_root_with_status(m.name)) {
        errs.push_back(api::invalid(path, openapi_v3_schema,
                                    fmt::format("only {} fields are allowed at the root of the "
                                                "schema if the status subresource is enabled",
                                                kAllowedAtRootWithStatus)));
        break;
      }
    }
  }
  if (bool_member(root, "nullable")) {
    errs.push_back(
        api::forbidden(api::child(path, "nullable"), "nullable cannot be true at the root"));
  }

  check_openapi(root, path, errs);
  const bool shape_ok = std::none_of(errs.begin(), errs.end(), [](const api::FieldError& e) {
    return e.type == api::FieldErrorType::kTypeInvalid;
  });
  if (!shape_ok) return fail(std::move(errs));
  if (std::string why = unsupported(root); !why.empty()) {
    // Upstream hides this when validation already explained the problem.
    if (errs.empty()) errs.push_back(api::invalid(path, "", why));
    return fail(std::move(errs));
  }

  SchemaPtr schema = build(root);
  FieldErrors structural;
  validate_invariants(schema.get(), Level::kRoot, path, structural);
  validate_completeness(schema.get(), path, structural);
  std::sort(
      structural.begin(), structural.end(),
      [](const api::FieldError& a, const api::FieldError& b) { return a.message() < b.message(); });
  errs.insert(errs.end(), structural.begin(), structural.end());
  if (!structural.empty()) return fail(std::move(errs));

  validate_defaults(*schema, path, errs);
  if (!errs.empty()) return fail(std::move(errs));
  return schema;
}

}  // namespace kcm::local::crd
