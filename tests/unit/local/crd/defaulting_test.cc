// Defaulting from structural schemas.
#include "local/crd/defaulting.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "crd_test_util.h"

namespace kcm::local::crd {
namespace {

using testing::messages;
using testing::parse;

SchemaPtr schema() {
  static const SchemaPtr s = [] {
    auto r = parse_structural_schema(parse(R"({
      "type": "object",
      "properties": {
        "spec": {
          "type": "object",
          "default": {},
          "properties": {
            "replicas": {"type": "integer", "default": 1},
            "mode": {"type": "string", "nullable": true, "default": "auto"},
            "plain": {"type": "string"},
            "nested": {"type": "object", "default": {"a": "x"},
                       "properties": {"a": {"type": "string"}, "b": {"type": "integer", "default": 2}}},
            "list": {"type": "array", "items": {"type": "object",
                     "properties": {"port": {"type": "integer", "default": 80}}}},
            "scalars": {"type": "array", "items": {"type": "string", "default": "d"}},
            "map": {"type": "object", "additionalProperties": {
                    "type": "object", "default": {}, "properties": {"w": {"type": "integer", "default": 5}}}}
          }
        }
      }
    })"));
    EXPECT_TRUE(r.ok()) << ::testing::PrintToString(messages(r.error()));
    return *r;
  }();
  return s;
}

struct DefCase {
  const char* name;
  const char* in;
  const char* want;
};

class CrdDefaulting : public ::testing::TestWithParam<DefCase> {};

TEST_P(CrdDefaulting, AppliesDefaults) {
  json::value v = parse(GetParam().in);
  apply_defaults(v, *schema());
  EXPECT_EQ(v, parse(GetParam().want)) << json::serialize(v);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CrdDefaulting,
    ::testing::Values(
        // The default of spec is itself defaulted.
        DefCase{"AbsentParent", R"({})",
                R"({"spec": {"replicas": 1, "mode": "auto", "nested": {"a": "x", "b": 2}}})"},
        DefCase{"PresentValuesKept",
                R"({"spec": {"replicas": 3, "mode": "m", "nested": {"b": 7}}})",
                R"({"spec": {"replicas": 3, "mode": "m", "nested": {"b": 7}}})"},
        DefCase{"NullNotNullableIsDefaulted", R"({"spec": {"replicas": null}})",
                R"({"spec": {"replicas": 1, "mode": "auto", "nested": {"a": "x", "b": 2}}})"},
        DefCase{"NullNullableIsKept", R"({"spec": {"mode": null}})",
                R"({"spec": {"replicas": 1, "mode": null, "nested": {"a": "x", "b": 2}}})"},
        DefCase{"ArrayItems", R"({"spec": {"list": [{}, {"port": 8080}], "scalars": ["a", null]}})",
                R"({"spec": {"replicas": 1, "mode": "auto", "nested": {"a": "x", "b": 2},
                          "list": [{"port": 80}, {"port": 8080}], "scalars": ["a", "d"]}})"},
        DefCase{"AdditionalProperties", R"({"spec": {"map": {"k": null, "j": {"w": 1}, "i": {}}}})",
                R"({"spec": {"replicas": 1, "mode": "auto", "nested": {"a": "x", "b": 2},
                          "map": {"k": {"w": 5}, "j": {"w": 1}, "i": {"w": 5}}}})"},
        DefCase{"WrongTypesIgnored", R"({"spec": "not an object"})",
                R"({"spec": "not an object"})"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CrdDefaulting, DefaultsAreCopies) {
  json::value a = parse("{}");
  apply_defaults(a, *schema());
  a.get_object()["spec"].get_object()["nested"].get_object()["a"] = "changed";
  json::value b = parse("{}");
  apply_defaults(b, *schema());
  EXPECT_EQ(b.at("spec").at("nested").at("a"), json::value("x"));
}

TEST(CrdDefaulting, PruneNonNullableNulls) {
  json::value v = parse(
      R"({"spec": {"plain": null, "mode": null, "replicas": null, "list": [{"port": null}],
                   "map": {"k": null}}, "unknown": null})");
  prune_non_nullable_nulls(v, *schema());
  // plain: dropped; mode: nullable; replicas: has a default; list items: port has a default;
  // map values have a default; unknown fields are pruning's business.
  EXPECT_EQ(v, parse(R"({"spec": {"mode": null, "replicas": null, "list": [{"port": null}],
                                  "map": {"k": null}}, "unknown": null})"))
      << json::serialize(v);
  json::value w = parse(R"({"spec": {"nested": {"a": null}}})");
  prune_non_nullable_nulls(w, *schema());
  EXPECT_EQ(w, parse(R"({"spec": {"nested": {}}})"));
}

}  // namespace
}  // namespace kcm::local::crd
