// Custom objects against their schema: kube-openapi's messages as the
// apiextensions-apiserver converts them to field errors.
#include "local/crd/schema_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/name_validation.h"
#include "crd_test_util.h"

namespace kcm::local::crd {
namespace {

using ::testing::ElementsAreArray;
using ::testing::IsEmpty;
using testing::messages;
using testing::parse;

SchemaPtr test_schema() {
  static const SchemaPtr schema = [] {
    auto r = parse_structural_schema(parse(R"({
      "type": "object",
      "properties": {
        "spec": {
          "type": "object",
          "required": ["replicas"],
          "properties": {
            "replicas": {"type": "integer", "minimum": 0, "maximum": 10},
            "name": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "level": {"type": "integer", "enum": [1, 2]},
            "ratio": {"type": "number", "maximum": 1.5, "exclusiveMaximum": true,
                      "minimum": 0.5, "exclusiveMinimum": true},
            "big": {"type": "number", "maximum": 1000000},
            "step": {"type": "integer", "multipleOf": 5},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2},
            "labels": {"type": "object", "additionalProperties": {"type": "string"},
                       "minProperties": 1, "maxProperties": 2},
            "when": {"type": "string", "format": "date-time"},
            "day": {"type": "string", "format": "date"},
            "data": {"type": "string", "format": "byte"},
            "id": {"type": "string", "format": "uuid"},
            "ip": {"type": "string", "format": "ipv4"},
            "port": {"x-kubernetes-int-or-string": true},
            "opt": {"type": "string", "nullable": true},
            "flag": {"type": "boolean"},
            "closed": {"type": "object", "additionalProperties": false},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            "tmpl": {"type": "object", "x-kubernetes-embedded-resource": true,
                     "x-kubernetes-preserve-unknown-fields": true},
            "items": {"type": "array", "items": {
              "type": "object", "required": ["name"],
              "properties": {"name": {"type": "string"}}}}
          }
        }
      }
    })"));
    EXPECT_TRUE(r.ok()) << ::testing::PrintToString(messages(r.error()));
    return *r;
  }();
  return schema;
}

struct Case {
  const char* name;
  const char* spec;  // merged with replicas: 1 unless it sets replicas itself
  std::vector<std::string> errors;
};

class CrdSchemaValidation : public ::testing::TestWithParam<Case> {};

TEST_P(CrdSchemaValidation, Messages) {
  const Case& c = GetParam();
  json::value spec = parse(c.spec);
  if (!spec.get_object().contains("replicas")) spec.get_object()["replicas"] = 1;
  json::object object{{"apiVersion", "example.com/v1"},
                      {"kind", "Widget"},
                      {"metadata", json::object{{"name", "w"}}},
                      {"spec", spec}};
  EXPECT_THAT(messages(validate_against_schema(*test_schema(), object)),
              ElementsAreArray(c.errors));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CrdSchemaValidation,
    ::testing::Values(
        Case{"Valid",
             R"({"name": "abc", "mode": "a", "level": 2, "ratio": 1.0, "tags": ["x"],
                 "labels": {"k": "v"}, "when": "2024-01-02T03:04:05Z", "day": "2024-02-29",
                 "data": "aGVsbG8=", "id": "123e4567-e89b-12d3-a456-426614174000",
                 "ip": "10.0.0.1", "port": 80, "opt": null, "flag": false, "step": 10,
                 "free": {"x": {"y": 1}}, "items": [{"name": "a", "other": 1}],
                 "tmpl": {"apiVersion": "v1", "kind": "Pod", "metadata": {}}})",
             {}},
        Case{"IntegralDoubleIsInteger", R"({"replicas": 3.0})", {}},
        Case{"IntOrStringString", R"({"port": "http"})", {}},
        Case{
            "WrongType",
            R"({"replicas": "x"})",
            {R"(spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string")"}},
        Case{
            "FractionNotInteger",
            R"({"replicas": 1.5})",
            {R"(spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number")"}},
        Case{
            "NullNotNullable",
            R"({"replicas": null})",
            {R"(spec.replicas: Invalid value: "null": spec.replicas in body must be of type integer: "null")"}},
        Case{"Maximum",
             R"({"replicas": 11})",
             {"spec.replicas: Invalid value: 11: spec.replicas in body should be less than or "
              "equal to 10"}},
        Case{"Minimum",
             R"({"replicas": -1})",
             {"spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or "
              "equal to 0"}},
        Case{"ExclusiveBounds",
             R"({"ratio": 1.5, "tags": ["a"]})",
             {"spec.ratio: Invalid value: 1.5: spec.ratio in body should be less than 1.5"}},
        Case{"ExclusiveMinimumIntegerData",
             R"({"ratio": 0})",
             {"spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0.5"}},
        Case{"FloatBoundPrintedAsGo",
             R"({"big": 2000000.5})",
             {"spec.big: Invalid value: 2000000.5: spec.big in body should be less than or equal "
              "to 1e+06"}},
        Case{"MultipleOf",
             R"({"step": 7})",
             {"spec.step: Invalid value: 7: spec.step in body should be a multiple of 5"}},
        Case{"Required",
             R"({"replicas": 1, "items": [{}]})",
             {"spec.items[0].name: Required value"}},
        Case{
            "MinLength",
            R"({"name": "a"})",
            {R"(spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long)"}},
        Case{"MaxLength",
             R"({"name": "abcdef"})",
             {"spec.name: Too long: may not be more than 5 bytes"}},
        Case{"Pattern",
             R"({"name": "AB"})",
             {R"(spec.name: Invalid value: "AB": spec.name in body should match '^[a-z]+$')"}},
        Case{"Enum",
             R"({"mode": "x"})",
             {R"(spec.mode: Unsupported value: "x": supported values: "a", "b")"}},
        Case{"EnumOfNumbers",
             R"({"level": 3})",
             {R"(spec.level: Unsupported value: 3: supported values: "1", "2")"}},
        Case{"MinItems",
             R"({"tags": []})",
             {"spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items"}},
        Case{"MaxItems",
             R"({"tags": ["a", "b", "c"]})",
             {"spec.tags: Too many: 3: must have at most 2 items"}},
        Case{
            "ItemType",
            R"({"tags": [1]})",
            {R"(spec.tags[0]: Invalid value: "integer": spec.tags[0] in body must be of type string: "integer")"}},
        Case{
            "AdditionalPropertiesType",
            R"({"labels": {"a": 1}})",
            {R"(spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer")"}},
        Case{"MinProperties",
             R"({"labels": {}})",
             {"spec.labels: Invalid value: 0: spec.labels in body should have at least 1 "
              "properties"}},
        Case{"MaxProperties",
             R"({"labels": {"a": "1", "b": "2", "c": "3"}})",
             {"spec.labels: Too many: 3: must have at most 2 items"}},
        Case{"ForbiddenProperty",
             R"({"closed": {"x": 1}})",
             {R"(spec.closed: Invalid value: "x": spec.closed.x in body is a forbidden property)"}},
        Case{
            "DateTime",
            R"({"when": "yesterday"})",
            {R"(spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday")"}},
        Case{
            "Date",
            R"({"day": "2023-02-29"})",
            {R"(spec.day: Invalid value: "2023-02-29": spec.day in body must be of type date: "2023-02-29")"}},
        Case{"Byte",
             R"({"data": "abc"})",
             {R"(spec.data: Invalid value: "abc": spec.data in body must be of type byte: "abc")"}},
        Case{"Uuid",
             R"({"id": "nope"})",
             {R"(spec.id: Invalid value: "nope": spec.id in body must be of type uuid: "nope")"}},
        Case{
            "Ipv4",
            R"({"ip": "1.2.3.256"})",
            {R"(spec.ip: Invalid value: "1.2.3.256": spec.ip in body must be of type ipv4: "1.2.3.256")"}},
        Case{
            "IntOrStringWrongType",
            R"({"port": true})",
            {R"(spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean")"}},
        Case{
            "Boolean",
            R"({"flag": "yes"})",
            {R"(spec.flag: Invalid value: "string": spec.flag in body must be of type boolean: "string")"}},
        Case{"EmbeddedResourceNeedsApiVersionAndKind",
             R"({"tmpl": {"metadata": {}}})",
             {"spec.tmpl.apiVersion: Required value: must not be empty",
              "spec.tmpl.kind: Required value: must not be empty"}},
        Case{
            "EmbeddedResourceApiVersion",
            R"({"tmpl": {"apiVersion": "a/b/c", "kind": "Pod"}})",
            {R"(spec.tmpl.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c)"}},
        Case{"SeveralErrors",
             R"({"replicas": 20, "name": "AB", "mode": "c"})",
             {"spec.replicas: Invalid value: 20: spec.replicas in body should be less than or "
              "equal to 10",
              R"(spec.name: Invalid value: "AB": spec.name in body should match '^[a-z]+$')",
              R"(spec.mode: Unsupported value: "c": supported values: "a", "b")"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CrdSchemaValidation, RootRequiredAndWrongRootType) {
  auto schema = parse_structural_schema(parse(
      R"({"type": "object", "required": ["spec"], "properties": {"spec": {"type": "object"}}})"));
  ASSERT_TRUE(schema.ok());
  EXPECT_THAT(messages(validate_against_schema(**schema, parse(R"({"kind": "X"})"))),
              ElementsAreArray({"spec: Required value"}));
  EXPECT_THAT(
      messages(validate_against_schema(**schema, parse(R"({"spec": []})"))),
      ElementsAreArray(
          {R"(spec: Invalid value: "array": spec in body must be of type object: "array")"}));
  EXPECT_THAT(validate_against_schema(**schema, parse(R"({"spec": {}})")), IsEmpty());
}

TEST(CrdSchemaValidation, Junctors) {
  auto schema = parse_structural_schema(parse(R"({
    "type": "object",
    "properties": {
      "a": {"type": "string", "anyOf": [{"pattern": "^x"}, {"pattern": "^y"}]},
      "b": {"type": "string", "not": {"pattern": "^z"}},
      "c": {"type": "integer", "oneOf": [{"minimum": 5}, {"maximum": 7}]}
    }
  })"));
  ASSERT_TRUE(schema.ok()) << ::testing::PrintToString(messages(schema.error()));
  EXPECT_THAT(validate_against_schema(**schema, parse(R"({"a": "xa", "b": "a", "c": 1})")),
              IsEmpty());
  EXPECT_THAT(messages(validate_against_schema(**schema, parse(R"({"a": "q"})"))),
              ElementsAreArray(
                  {R"(<nil>: Invalid value: "": "a" must validate at least one schema (anyOf))",
                   R"(a: Invalid value: "q": a in body should match '^x')"}));
  EXPECT_THAT(
      messages(validate_against_schema(**schema, parse(R"({"b": "zz"})"))),
      ElementsAreArray({R"(<nil>: Invalid value: "": "b" must not validate the schema (not))"}));
  EXPECT_THAT(
      messages(validate_against_schema(**schema, parse(R"({"c": 6})"))),
      ElementsAreArray(
          {R"(<nil>: Invalid value: "": "c" must validate one and only one schema (oneOf). Found 2 valid alternatives)"}));
}

TEST(CrdSchemaValidation, EmbeddedResourceKind) {
  auto errs = validate_against_schema(
      *test_schema(),
      parse(R"({"spec": {"replicas": 1, "tmpl": {"apiVersion": "v1", "kind": "Bad_Kind"}}})"));
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].message(),
            "spec.tmpl.kind: Invalid value: \"Bad_Kind\": may have mixed case, but should "
            "otherwise match: " +
                api::is_dns1035_label("bad_kind")[0]);
}

// Upstream's apiserver/validation TestValidateCustomResource: int-or-string with
// a user-provided allOf/anyOf (upstream compares the errors as a set).
TEST(CrdSchemaValidation, IntOrStringWithUserJunctors) {
  auto schema = parse_structural_schema(parse(R"({"type": "object", "properties": {"field": {
      "nullable": true, "x-kubernetes-int-or-string": true,
      "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}]}}})"));
  ASSERT_TRUE(schema.ok()) << ::testing::PrintToString(messages(schema.error()));
  for (const char* ok :
       {R"({})", R"({"field": null})", R"({"field": 42})", R"({"field": "foo"})"}) {
    EXPECT_THAT(validate_against_schema(**schema, parse(ok)), IsEmpty()) << ok;
  }
  EXPECT_THAT(
      messages(validate_against_schema(**schema, parse(R"({"field": 1.2})"))),
      ::testing::UnorderedElementsAre(
          R"(<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated)",
          R"(<nil>: Invalid value: "": "field" must validate at least one schema (anyOf))",
          R"(field: Invalid value: "number": field in body must be of type integer,string: "number")",
          R"(field: Invalid value: "number": field in body must be of type integer: "number")"));
}

TEST(CrdSchemaValidation, GoFloatFormatting) {
  EXPECT_EQ(go_format_float(10), "10");
  EXPECT_EQ(go_format_float(1.5), "1.5");
  EXPECT_EQ(go_format_float(123456), "123456");
  EXPECT_EQ(go_format_float(1e6), "1e+06");
  EXPECT_EQ(go_format_float(1234567), "1.234567e+06");
  EXPECT_EQ(go_format_float(0.0001), "0.0001");
  EXPECT_EQ(go_format_float(0.00001), "1e-05");
  EXPECT_EQ(go_format_float(-2.25), "-2.25");
}

TEST(CrdSchemaValidation, Formats) {
  struct F {
    const char* format;
    const char* value;
    bool ok;
  };
  for (const F& f : std::vector<F>{
           {"date-time", "2024-01-02T03:04:05.123+01:00", true},
           {"date-time", "2024-01-02t03:04:05z", true},
           {"date-time", "2024-01-02T25:04:05Z", false},
           {"date-time", "2024-01-02", false},
           {"date", "2024-13-01", false},
           {"byte", "", true},
           {"byte", "aGk=", true},
           {"byte", "aGk", false},
           {"ipv6", "::1", true},
           {"ipv6", "2001:db8::8a2e:370:7334", true},
           {"ipv6", "1:2:3:4:5:6:7:8:9", false},
           {"ipv6", "1::2::3", false},
           {"cidr", "10.0.0.0/8", true},
           {"cidr", "10.0.0.0/33", false},
           {"cidr", "fd00::/64", true},
           {"mac", "00:1a:2b:3c:4d:5e", true},
           {"mac", "00:1a:2b", false},
           {"hostname", "my-host.example.com", true},
           {"hostname", "-bad", false},
           {"int32", "anything", true},
           {"unknown", "anything", true},
       }) {
    EXPECT_EQ(is_valid_format(f.format, f.value), f.ok) << f.format << " " << f.value;
  }
}

}  // namespace
}  // namespace kcm::local::crd
