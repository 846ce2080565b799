// Pruning of unknown fields.
#include "local/crd/pruning.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "crd_test_util.h"

namespace kcm::local::crd {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::messages;
using testing::parse;

SchemaPtr schema_of(const char* text) {
  auto r = parse_structural_schema(parse(text));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : ::testing::PrintToString(messages(r.error())));
  return r.ok() ? *r : nullptr;
}

struct PruneCase {
  const char* name;
  const char* schema;
  const char* object;
  const char* want;
  std::vector<std::string> pruned;
};

class CrdPruning : public ::testing::TestWithParam<PruneCase> {};

TEST_P(CrdPruning, DropsUnknownFields) {
  const PruneCase& c = GetParam();
  SchemaPtr schema = schema_of(c.schema);
  ASSERT_NE(schema, nullptr);
  json::value object = parse(c.object);
  EXPECT_THAT(prune(object, schema.get(), true), ::testing::ElementsAreArray(c.pruned));
  EXPECT_EQ(object, parse(c.want)) << json::serialize(object);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CrdPruning,
    ::testing::Values(
        PruneCase{
            "RootKeepsTypeMetaAndMetadata",
            R"({"type": "object", "properties": {"spec": {"type": "object", "properties": {"a": {"type": "integer"}}}}})",
            R"({"apiVersion": "e.com/v1", "kind": "W", "metadata": {"name": "w", "x": 1},
                 "spec": {"a": 1, "b": 2}, "extra": true})",
            R"({"apiVersion": "e.com/v1", "kind": "W", "metadata": {"name": "w", "x": 1},
                 "spec": {"a": 1}})",
            {"extra", "spec.b"}},
        PruneCase{"MalformedRootMetaFieldsGoSilently",
                  R"({"type": "object"})",
                  R"({"apiVersion": 1, "kind": "W", "metadata": "x"})",
                  R"({"kind": "W"})",
                  {}},
        PruneCase{
            "ArraysOfObjects",
            R"({"type": "object", "properties": {"l": {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}}}})",
            R"({"l": [{"a": "x", "b": 1}, {"c": {"d": 1}}]})",
            R"({"l": [{"a": "x"}, {}]})",
            {"l[0].b", "l[1].c"}},
        PruneCase{
            "AdditionalPropertiesSchema",
            R"({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "object", "properties": {"a": {"type": "integer"}}}}}})",
            R"({"m": {"k": {"a": 1, "z": 2}}})",
            R"({"m": {"k": {"a": 1}}})",
            {"m.k.z"}},
        PruneCase{
            "PreserveUnknownFieldsKeepsUnknownButPrunesKnown",
            R"({"type": "object", "properties": {"p": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"known": {"type": "object", "properties": {"a": {"type": "string"}}}}}}})",
            R"({"p": {"anything": {"deep": 1}, "known": {"a": "x", "b": 1}}})",
            R"({"p": {"anything": {"deep": 1}, "known": {"a": "x"}}})",
            {"p.known.b"}},
        PruneCase{"PreservedRoot",
                  R"({"type": "object", "x-kubernetes-preserve-unknown-fields": true})",
                  R"({"kind": "W", "spec": {"x": 1}})",
                  R"({"kind": "W", "spec": {"x": 1}})",
                  {}},
        PruneCase{
            "EmbeddedResource",
            R"({"type": "object", "properties": {"t": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "object"}}}}})",
            R"({"t": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"x": 1}, "junk": 1}})",
            R"({"t": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {}}})",
            {"t.junk", "t.spec.x"}},
        PruneCase{
            "ScalarsUntouched",
            R"({"type": "object", "properties": {"s": {"type": "string"}, "n": {"type": "integer"}}})",
            R"({"s": "x", "n": 1})",
            R"({"s": "x", "n": 1})",
            {}},
        // An object where the schema wants a scalar: its members are unknown (validation
        // then reports the type).
        PruneCase{"ObjectForAScalar",
                  R"({"type": "object", "properties": {"s": {"type": "string"}}})",
                  R"({"s": {"not": "a string"}})",
                  R"({"s": {}})",
                  {"s.not"}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CrdPruning, NullSchemaPrunesAllButTypeMeta) {
  json::value object =
      parse(R"({"apiVersion": "v1", "kind": "X", "metadata": {}, "spec": {"a": 1}})");
  EXPECT_THAT(prune(object, nullptr, true), ElementsAre("spec"));
  EXPECT_EQ(object, parse(R"({"apiVersion": "v1", "kind": "X", "metadata": {}})"));
}

TEST(CrdPruning, NonRootDoesNotKeepTypeMeta) {
  SchemaPtr schema = schema_of(R"({"type": "object", "properties": {"a": {"type": "string"}}})");
  json::value value = parse(R"({"a": "x", "kind": "K"})");
  // Upstream never reports apiVersion/kind/metadata at the top, root or not.
  EXPECT_THAT(prune(value, schema.get(), false), IsEmpty());
  EXPECT_EQ(value, parse(R"({"a": "x"})"));
  json::value other = parse(R"({"a": "x", "b": 1})");
  EXPECT_THAT(prune(other, schema.get(), false), ElementsAre("b"));
}

}  // namespace
}  // namespace kcm::local::crd
