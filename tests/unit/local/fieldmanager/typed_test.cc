#include "local/fieldmanager/typed.h"

#include <gtest/gtest.h>

#include "api/schema/canonical.h"
#include "api/schema/registry.h"
#include "fieldmanager_test_util.h"

namespace kcm::local::fieldmanager {
namespace {

using testing::deployment_type;
using testing::fields;
using testing::parse;
using testing::text;

TypeRef deployment() {
  return TypeRef::of(deployment_type());
}

constexpr std::string_view kApplied = R"({
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "web", "labels": {"app": "web"}},
  "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
    "template": {"metadata": {"labels": {"app": "web"}},
      "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25",
                               "ports": [{"containerPort": 80}]}]}}}})";

TEST(TypedTest, FieldSetOfAnAppliedDeployment) {
  // As kube-apiserver records `kubectl apply --server-side` of this manifest
  // (before it strips apiVersion, kind and metadata.name): atomic selector,
  // containers by name, ports by containerPort and the defaulted protocol.
  auto s = to_field_set(parse(kApplied), deployment());
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(
      text(*s),
      R"({"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:labels":{"f:app":{}},"f:name":{}},)"
      R"("f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{)"
      R"("f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},)"
      R"("f:image":{},"f:name":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{)"
      R"(".":{},"f:containerPort":{}}}}}}}}})");
}

TEST(TypedTest, FieldSetErrorsNameThePath) {
  auto s = to_field_set(parse(R"({"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}})"),
                        deployment());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error(),
            ".spec.template.spec.containers: element 0: associative list with keys has an element "
            "that omits key field \"name\" (and doesn't have default value)");
}

TEST(TypedTest, AtomicValuesAreCheckedAgainstTheSchemaToo) {
  // Tolerations are an atomic list and a selector an atomic struct: owned
  // whole, but what they hold must still be declared, as upstream validates
  // the whole typed object (".spec.dataPools[0].name: field not declared").
  auto s = to_field_set(
      parse(R"({"spec":{"selector":{"matchLabels":{"a":"b"},"other":1},"template":{"spec":{)"
            R"("tolerations":[{"key":"k"},{"key":"k","effect2":"x"}]}}}})"),
      deployment());
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error(),
            ".spec.selector.other: field not declared in schema\n"
            ".spec.template.spec.tolerations[1].effect2: field not declared in schema");
  // Declared contents give the atomic values alone.
  s = to_field_set(
      parse(
          R"({"spec":{"template":{"spec":{"tolerations":[{"key":"k","effect":"NoSchedule"}]}}}})"),
      deployment());
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(text(*s), R"({"f:spec":{"f:template":{"f:spec":{"f:tolerations":{}}}}})");
}

TEST(TypedTest, CompareAgainstTheZeroObjectMarksOnlyNewStructsAndItems) {
  // A create is compared with the kind's zero object, whose non-pointer
  // structs exist: spec, strategy and template are not themselves added,
  // labels, rollingUpdate and the container are.
  json::value zero = json::object{};
  api::schema::canonicalize(zero, deployment_type());
  json::value created = parse(R"({"metadata":{"name":"web","labels":{"app":"web"}},
    "spec":{"replicas":1,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%"}},
    "template":{"spec":{"containers":[{"name":"nginx","image":"nginx"}]}}}})");
  api::schema::canonicalize(created, deployment_type());
  auto c = compare(zero, created, deployment());
  ASSERT_TRUE(c) << c.error();
  const FieldSet changed = c->added.union_with(c->modified);
  EXPECT_EQ(
      text(changed),
      R"({"f:metadata":{"f:labels":{".":{},"f:app":{}},"f:name":{}},"f:spec":{"f:replicas":{},)"
      R"("f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{}},"f:type":{}},"f:template":{)"
      R"("f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{},)"
      R"("f:resources":{}}}}}}})");
  EXPECT_TRUE(c->removed.empty()) << text(c->removed);
}

TEST(TypedTest, CompareSeesRemovedItemsAndModifiedLeaves) {
  const json::value before = parse(R"({"spec":{"replicas":1,"template":{"spec":{"containers":[
      {"name":"a","image":"x"},{"name":"b","image":"y"}]}}}})");
  const json::value after = parse(R"({"spec":{"replicas":2,"template":{"spec":{"containers":[
      {"name":"a","image":"x"}]}}}})");
  auto c = compare(before, after, deployment());
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(text(c->modified), R"({"f:spec":{"f:replicas":{}}})");
  EXPECT_EQ(text(c->removed),
            R"({"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"b\"}":{".":{},)"
            R"("f:image":{},"f:name":{}}}}}}})");
  EXPECT_TRUE(c->added.empty());
}

TEST(TypedTest, CompareLeavesOutIgnoredPathsAndAllBelowThem) {
  // A status write's reset fields: spec, and the labels below metadata.
  FieldSet ignored;
  ignored.insert({PathElement::field("spec")});
  ignored.insert({PathElement::field("metadata"), PathElement::field("labels")});
  const json::value from =
      parse(R"({"metadata":{"labels":{"a":"1"},"annotations":{"x":"1"}},"spec":{"replicas":1},)"
            R"("status":{"replicas":1}})");
  const json::value to =
      parse(R"({"metadata":{"labels":{"a":"2"},"annotations":{"x":"2"}},"spec":{"replicas":2,)"
            R"("paused":true},"status":{"replicas":2,"readyReplicas":1}})");
  auto c = compare(from, to, deployment(), &ignored);
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(text(c->modified),
            R"({"f:metadata":{"f:annotations":{"f:x":{}}},"f:status":{"f:replicas":{}}})");
  EXPECT_EQ(text(c->added), R"({"f:status":{"f:readyReplicas":{}}})");
  // Nor are ignored subtrees walked: a spec no list key could be read from
  // is no error when the spec is ignored.
  const json::value broken = parse(R"({"spec":{"template":{"spec":{"containers":[{}]}}}})");
  EXPECT_FALSE(compare(from, broken, deployment()));
  EXPECT_TRUE(compare(from, broken, deployment(), &ignored));
}

TEST(TypedTest, MergeKeepsLiveItemsAndOrdersSharedOnesAsTheConfiguration) {
  const json::value live = parse(R"({"spec":{"replicas":5,"paused":true,"template":{"spec":{
      "containers":[{"name":"a","image":"1"},{"name":"x","image":"live"},{"name":"b","image":"2"}]}}}})");
  const json::value config = parse(R"({"spec":{"replicas":3,"template":{"spec":{
      "containers":[{"name":"b","image":"3"},{"name":"c","image":"4"},{"name":"a"}]}}}})");
  auto m = merge(live, config, deployment());
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(api::to_json_string(*m),
            R"({"spec":{"replicas":3,"paused":true,"template":{"spec":{"containers":[)"
            R"({"name":"x","image":"live"},{"name":"b","image":"3"},{"name":"c","image":"4"},)"
            R"({"name":"a","image":"1"}]}}}})");
}

TEST(TypedTest, MergeReplacesAtomicValues) {
  const json::value live =
      parse(R"({"spec":{"selector":{"matchLabels":{"a":"1","b":"2"}},"template":{"spec":{
      "nodeSelector":{"x":"1"},"containers":[{"name":"a","args":["1","2"]}]}}}})");
  const json::value config =
      parse(R"({"spec":{"selector":{"matchLabels":{"a":"1"}},"template":{"spec":{
      "nodeSelector":{"y":"2"},"containers":[{"name":"a","args":["3"]}]}}}})");
  auto m = merge(live, config, deployment());
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(api::to_json_string(*m),
            R"({"spec":{"selector":{"matchLabels":{"a":"1"}},"template":{"spec":{)"
            R"("nodeSelector":{"y":"2"},"containers":[{"name":"a","args":["3"]}]}}}})");
}

TEST(TypedTest, RemoveItemsTakesMembersWholeAndLeavesNullForEmptied) {
  const json::value v = parse(R"({"metadata":{"labels":{"a":"1","b":"2"},"finalizers":["f"]},
      "spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"a","image":"1"},
      {"name":"b","image":"2"}]}}}})");
  auto set = FieldSet::from_fields_v1(parse(
      R"({"f:metadata":{"f:labels":{"f:a":{}},"f:finalizers":{"v:\"f\"":{}}},"f:spec":{"f:replicas":{},)"
      R"("f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"b\"}":{}}}}}})"));
  ASSERT_TRUE(set) << set.error();
  EXPECT_EQ(api::to_json_string(remove_items(v, *set, deployment())),
            R"({"metadata":{"labels":{"b":"2"},"finalizers":null},"spec":{"template":{"spec":{)"
            R"("containers":[{"name":"a","image":"1"}]}}}})");
}

TEST(TypedTest, NamedFieldsBecomeMembers) {
  auto set = FieldSet::from_fields_v1(parse(
      R"({"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:template":{"f:spec":{"f:containers":{)"
      R"("k:{\"name\":\"b\"}":{"f:image":{}}}}}}})"));
  ASSERT_TRUE(set) << set.error();
  // Struct fields with members below become members; map entries and list
  // items do not.
  EXPECT_EQ(text(ensure_named_fields_are_members(*set, deployment())),
            R"({"f:metadata":{".":{},"f:labels":{".":{},"f:a":{}}},"f:spec":{".":{},"f:template":{)"
            R"(".":{},"f:spec":{".":{},"f:containers":{".":{},"k:{\"name\":\"b\"}":{)"
            R"("f:image":{}}}}}}})");
}

}  // namespace
}  // namespace kcm::local::fieldmanager
