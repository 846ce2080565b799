// Parsing openAPIV3Schema into structural schemas, and upstream's checks of it.
#include "local/crd/structural_schema.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "crd_test_util.h"

namespace kcm::local::crd {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using testing::messages;
using testing::parse;

constexpr const char* kPath = "spec.versions[0].schema.openAPIV3Schema";

TEST(CrdStructuralSchema, ParsesEveryMember) {
  auto r = parse_structural_schema(parse(R"({
    "type": "object",
    "description": "d",
    "properties": {
      "spec": {
        "type": "object",
        "required": ["replicas"],
        "properties": {
          "replicas": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 10,
                       "exclusiveMaximum": true, "default": 2, "multipleOf": 2},
          "name": {"type": "string", "minLength": 1, "maxLength": 5, "pattern": "^[a-z]+$",
                   "enum": ["a", "b"], "nullable": true},
          "list": {"type": "array", "minItems": 1, "maxItems": 3,
                   "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                   "items": {"type": "object", "required": ["k"],
                             "properties": {"k": {"type": "string"}}}},
          "labels": {"type": "object", "additionalProperties": {"type": "string"},
                     "minProperties": 1, "maxProperties": 3, "x-kubernetes-map-type": "granular"},
          "port": {"x-kubernetes-int-or-string": true,
                   "anyOf": [{"type": "integer"}, {"type": "string"}]},
          "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
          "tmpl": {"type": "object", "x-kubernetes-embedded-resource": true,
                   "x-kubernetes-preserve-unknown-fields": true}
        }
      }
    }
  })"));
  ASSERT_TRUE(r.ok()) << ::testing::PrintToString(messages(r.error()));
  const Schema& root = **r;
  EXPECT_EQ(root.type, "object");
  EXPECT_EQ(root.description, "d");
  const Schema* spec = root.property("spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_THAT(spec->required, ElementsAre("replicas"));
  const Schema* replicas = spec->property("replicas");
  ASSERT_NE(replicas, nullptr);
  EXPECT_EQ(replicas->format, "int32");
  EXPECT_EQ(replicas->minimum, 0.0);
  EXPECT_EQ(replicas->maximum, 10.0);
  EXPECT_TRUE(replicas->exclusive_maximum);
  EXPECT_EQ(replicas->multiple_of, 2.0);
  EXPECT_EQ(*replicas->default_value, json::value(2));
  const Schema* name = spec->property("name");
  EXPECT_EQ(name->min_length, 1);
  EXPECT_EQ(name->max_length, 5);
  EXPECT_EQ(name->pattern, "^[a-z]+$");
  EXPECT_EQ(name->enum_values->size(), 2u);
  EXPECT_TRUE(name->nullable);
  const Schema* list = spec->property("list");
  EXPECT_EQ(list->list_type, "map");
  EXPECT_THAT(list->list_map_keys, ElementsAre("k"));
  EXPECT_EQ(list->min_items, 1);
  EXPECT_EQ(list->max_items, 3);
  ASSERT_NE(list->items, nullptr);
  EXPECT_EQ(list->items->type, "object");
  const Schema* labels = spec->property("labels");
  EXPECT_EQ(labels->additional_properties_allows, true);
  ASSERT_NE(labels->additional_properties, nullptr);
  EXPECT_EQ(labels->additional_properties->type, "string");
  EXPECT_EQ(labels->min_properties, 1);
  EXPECT_EQ(labels->max_properties, 3);
  EXPECT_EQ(labels->map_type, "granular");
  EXPECT_TRUE(spec->property("port")->int_or_string);
  EXPECT_EQ(spec->property("port")->any_of.size(), 2u);
  EXPECT_TRUE(spec->property("free")->preserve_unknown_fields);
  EXPECT_TRUE(spec->property("tmpl")->embedded_resource);
  EXPECT_EQ(spec->property("missing"), nullptr);
}

struct BadSchemaCase {
  const char* name;
  const char* schema;
  std::vector<std::string> errors;  // full messages, the schema path written as @
  bool status_enabled = false;
};

// "@" stands for the schema's path.
std::string expand_schema_path(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '@') {
      out += kPath;
    } else {
      out += c;
    }
  }
  return out;
}

class CrdStructuralSchemaBad : public ::testing::TestWithParam<BadSchemaCase> {};

TEST_P(CrdStructuralSchemaBad, ReportsUpstreamErrors) {
  const BadSchemaCase& c = GetParam();
  SchemaParseOptions options;
  options.status_subresource_enabled = c.status_enabled;
  auto r = parse_structural_schema(parse(c.schema), options);
  ASSERT_FALSE(r.ok());
  std::vector<std::string> want;
  for (const std::string& e : c.errors)
    want.push_back(expand_schema_path(e));
  EXPECT_THAT(messages(r.error()), ElementsAreArray(want));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CrdStructuralSchemaBad,
    ::testing::Values(
        BadSchemaCase{
            "NotAnObject", R"("x")", {R"(@: Invalid value: "x": must be of type object)"}},
        BadSchemaCase{"RootTypeMissing",
                      R"({"properties": {"spec": {"type": "object"}}})",
                      {"@.type: Required value: must not be empty at the root"}},
        BadSchemaCase{"RootNotObject",
                      R"({"type": "string"})",
                      {R"(@.type: Invalid value: "string": must be object at the root)"}},
        BadSchemaCase{
            "FieldTypeMissing",
            R"({"type": "object", "properties": {"spec": {"properties": {"a": {"type": "string"}}}}})",
            {"@.properties[spec].type: Required value: must not be empty for specified object "
             "fields"}},
        BadSchemaCase{"ArrayWithoutItems",
                      R"({"type": "object", "properties": {"l": {"type": "array"}}})",
                      {"@.properties[l].items: Required value: must be specified"}},
        BadSchemaCase{
            "ItemsTypeMissing",
            R"({"type": "object", "properties": {"l": {"type": "array", "items": {"description": "x"}}}})",
            {"@.properties[l].items.type: Required value: must not be empty for specified array "
             "items"}},
        BadSchemaCase{"WrongJsonType",
                      R"({"type": 5})",
                      {"@.type: Invalid value: 5: must be of type string"}},
        BadSchemaCase{
            "WrongJsonTypeNested",
            R"({"type": "object", "properties": {"a": {"type": "integer", "minimum": "1"}}})",
            {R"(@.properties[a].minimum: Invalid value: "1": must be of type number)"}},
        BadSchemaCase{"Ref",
                      R"({"type": "object", "properties": {"a": {"$ref": "#/x"}}})",
                      {"@.properties[a].$ref: Forbidden: $ref is not supported"}},
        BadSchemaCase{"DollarSchema",
                      R"({"type": "object", "$schema": "http://json-schema.org/draft-04/schema"})",
                      {R"(@: Invalid value: "": OpenAPIV3Schema 'schema' is not supported)"}},
        BadSchemaCase{
            "TypeNull",
            R"({"type": "object", "properties": {"a": {"type": "null"}}})",
            {"@.properties[a].type: Forbidden: type cannot be set to null, use nullable "
             "as an alternative",
             R"(@.properties[a].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string")"}},
        BadSchemaCase{
            "UnknownType",
            R"({"type": "object", "properties": {"a": {"type": "int"}}})",
            {R"(@.properties[a].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string")"}},
        BadSchemaCase{
            "UniqueItems",
            R"({"type": "object", "properties": {"a": {"type": "array", "uniqueItems": true, "items": {"type": "string"}}}})",
            {"@.properties[a].uniqueItems: Forbidden: uniqueItems cannot be set to true "
             "since the runtime complexity becomes quadratic"}},
        BadSchemaCase{
            "PropertiesAndAdditionalProperties",
            R"({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}, "additionalProperties": {"type": "string"}}}})",
            {"@.properties[a].additionalProperties: Forbidden: additionalProperties and properties "
             "are mutual exclusive"}},
        BadSchemaCase{"AdditionalPropertiesAtRoot",
                      R"({"type": "object", "additionalProperties": {"type": "string"}})",
                      {"@.additionalProperties: Forbidden: must not be used at the root"}},
        BadSchemaCase{
            "TypeInsideAnyOf",
            R"({"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"type": "string"}]}}})",
            {"@.properties[a].anyOf[0].type: Forbidden: must be empty to be structural"}},
        BadSchemaCase{
            "GenericsInsideAllOf",
            R"({"type": "object", "properties": {"a": {"type": "string", "allOf": [{"description": "d", "nullable": true, "default": "x"}]}}})",
            {"@.properties[a].allOf[0].default: Forbidden: must be undefined to be structural",
             "@.properties[a].allOf[0].description: Forbidden: must be empty to be structural",
             "@.properties[a].allOf[0].nullable: Forbidden: must be false to be structural"}},
        BadSchemaCase{
            "ValueValidationPropertyNotSpecified",
            R"({"type": "object", "properties": {"a": {"type": "object", "anyOf": [{"properties": {"b": {"minLength": 1}}}]}}})",
            {"@.properties[a].properties[b]: Required value: because it is defined in "
             "@.properties[a].anyOf[0].properties[b]"}},
        BadSchemaCase{
            "MetadataRestricted",
            R"({"type": "object", "properties": {"metadata": {"type": "object", "properties": {"labels": {"type": "object"}}}}})",
            {"@.properties[metadata]: Forbidden: must not specify anything other than name and "
             "generateName, but metadata is implicitly specified"}},
        BadSchemaCase{"MetadataNotObject",
                      R"({"type": "object", "properties": {"metadata": {"type": "string"}}})",
                      {R"(@.properties[metadata].type: Invalid value: "string": must be object)"}},
        BadSchemaCase{"KindNotString",
                      R"({"type": "object", "properties": {"kind": {"type": "integer"}}})",
                      {R"(@.properties[kind].type: Invalid value: "integer": must be string)"}},
        BadSchemaCase{
            "EmbeddedNotObject",
            R"({"type": "object", "properties": {"a": {"type": "string", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}})",
            {R"(@.properties[a].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true)"}},
        BadSchemaCase{
            "EmbeddedWithoutProperties",
            R"({"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-embedded-resource": true}}})",
            {"@.properties[a].properties: Required value: must not be empty if "
             "x-kubernetes-embedded-resource is true without "
             "x-kubernetes-preserve-unknown-fields"}},
        BadSchemaCase{
            "IntOrStringWithPreserve",
            R"({"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true}}})",
            {"@.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be "
             "false if x-kubernetes-int-or-string is true"}},
        BadSchemaCase{"PreserveFalse",
                      R"({"type": "object", "x-kubernetes-preserve-unknown-fields": false})",
                      {"@.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true "
                       "or undefined"}},
        BadSchemaCase{"NullableRoot",
                      R"({"type": "object", "nullable": true})",
                      {"@.nullable: Forbidden: nullable cannot be true at the root"}},
        BadSchemaCase{
            "DefaultOfWrongType",
            R"({"type": "object", "properties": {"a": {"type": "integer", "default": "x"}}})",
            {R"(@.properties[a].default: Invalid value: "string":  in body must be of type integer: "string")"}},
        BadSchemaCase{
            "DefaultOutOfRange",
            R"({"type": "object", "properties": {"o": {"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}, "default": {"n": 5}}}})",
            {"@.properties[o].default.n: Invalid value: 5: n in body should be less than or equal "
             "to 3"}},
        BadSchemaCase{
            "DefaultWithUnknownFields",
            R"({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}, "default": {"c": 1}}}})",
            {R"(@.properties[a].default: Invalid value: {"c":1}: must not have unknown fields)"}},
        BadSchemaCase{
            "ListMapWithoutKeys",
            R"({"type": "object", "properties": {"l": {"type": "array", "x-kubernetes-list-type": "map", "items": {"type": "object"}}}})",
            {"@.properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if "
             "x-kubernetes-list-type is map"}},
        BadSchemaCase{
            "ListMapKeyNotAProperty",
            R"({"type": "object", "properties": {"l": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], "items": {"type": "object"}}}})",
            {R"(@.properties[l].x-kubernetes-list-map-keys: Invalid value: ["k"]: entries must all be names of item properties)"}},
        BadSchemaCase{
            "ListTypeUnknown",
            R"({"type": "object", "properties": {"l": {"type": "array", "x-kubernetes-list-type": "bag", "items": {"type": "string"}}}})",
            {R"(@.properties[l].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map")"}},
        BadSchemaCase{
            "StatusRootTypeNotObject",
            R"({"type": "string"})",
            {R"(@.type: Invalid value: "string": only "object" is allowed as the type at the root of the schema if the status subresource is enabled)",
             R"(@.type: Invalid value: "string": must be object at the root)"},
            true},
        BadSchemaCase{
            "StatusRootExtraField",
            R"({"type": "object", "minProperties": 1})",
            {R"(@: Invalid value: {"type":"object","minProperties":1}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled)"},
            true}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CrdStructuralSchema, BadPatternIsReported) {
  auto r = parse_structural_schema(
      parse(R"({"type": "object", "properties": {"a": {"type": "string", "pattern": "(("}}})"));
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.error().size(), 1u);
  EXPECT_EQ(r.error()[0].field, std::string(kPath) + ".properties[a].pattern");
  EXPECT_THAT(r.error()[0].message(),
              HasSubstr("Invalid value: \"((\": must be a valid regular expression, but isn't: "));
}

TEST(CrdStructuralSchema, AcceptsUpstreamExceptions) {
  for (
      const char* schema : {
          // The two int-or-string patterns.
          R"({"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}}})",
          R"({"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": true, "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"pattern": "x"}]}}})",
          // metadata restricting name only.
          R"({"type": "object", "properties": {"metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 10}}}}})",
          // Preserved object without type inside.
          R"({"type": "object", "properties": {"a": {"x-kubernetes-preserve-unknown-fields": true}}})",
          // additionalProperties: true next to properties is allowed.
          R"({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}, "additionalProperties": true}}})",
          // With status, the allowed root members.
          R"({"type": "object", "description": "x", "required": ["spec"], "properties": {"spec": {"type": "object"}}, "x-kubernetes-preserve-unknown-fields": true})",
      }) {
    SchemaParseOptions options;
    options.status_subresource_enabled = true;
    auto r = parse_structural_schema(parse(schema), options);
    EXPECT_TRUE(r.ok()) << schema << "\n"
                        << (r.ok() ? "" : ::testing::PrintToString(messages(r.error())));
  }
}

TEST(CrdStructuralSchema, ErrorsUseTheGivenPath) {
  SchemaParseOptions options;
  options.field_path = "spec.versions[2].schema.openAPIV3Schema";
  auto r = parse_structural_schema(parse(R"({"properties": {}})"), options);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(messages(r.error()),
              ElementsAre("spec.versions[2].schema.openAPIV3Schema.type: Required value: must not "
                          "be empty at the root"));
}

TEST(CrdStructuralSchema, JsonEqual) {
  EXPECT_TRUE(json_equal(parse("1"), parse("1.0")));
  EXPECT_TRUE(json_equal(parse(R"({"a":1,"b":[1,2]})"), parse(R"({"b":[1,2],"a":1})")));
  EXPECT_FALSE(json_equal(parse("[1,2]"), parse("[2,1]")));
  EXPECT_FALSE(json_equal(parse("\"1\""), parse("1")));
  EXPECT_FALSE(json_equal(parse(R"({"a":1})"), parse(R"({"a":1,"b":2})")));
}

}  // namespace
}  // namespace kcm::local::crd
