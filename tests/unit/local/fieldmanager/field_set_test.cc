#include "local/fieldmanager/field_set.h"

#include <gtest/gtest.h>

#include "fieldmanager_test_util.h"

namespace kcm::local::fieldmanager {
namespace {

using testing::fields;
using testing::parse;
using testing::text;

std::vector<std::string> paths(const FieldSet& s) {
  std::vector<std::string> out;
  s.for_each([&](const Path& p) { out.push_back(to_string(p)); });
  return out;
}

TEST(FieldSetTest, FieldsV1RoundTripsInStructuredMergeDiffOrder) {
  // Members come before their children's members ("." first); fields before
  // keys before values.
  const std::string in =
      R"({"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},)"
      R"("f:image":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},)"
      R"("f:containerPort":{}}}}}}},"f:replicas":{}},"f:metadata":{"f:finalizers":{"v:\"b\"":{},)"
      R"("v:\"a\"":{}},"f:labels":{".":{},"f:app":{}}}})";
  const FieldSet s = fields(in);
  EXPECT_EQ(
      text(s),
      R"({"f:metadata":{"f:finalizers":{"v:\"a\"":{},"v:\"b\"":{}},"f:labels":{".":{},)"
      R"("f:app":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{)"
      R"("k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:ports":{)"
      R"("k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}})");
  EXPECT_EQ(
      paths(s),
      (std::vector<std::string>{
          R"(.metadata.labels)",
          R"(.metadata.finalizers[="a"])",
          R"(.metadata.finalizers[="b"])",
          R"(.metadata.labels.app)",
          R"(.spec.replicas)",
          R"(.spec.template.spec.containers[name="nginx"])",
          R"(.spec.template.spec.containers[name="nginx"].image)",
          R"(.spec.template.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"])",
          R"(.spec.template.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"].containerPort)",
      }));
}

TEST(FieldSetTest, SetAlgebra) {
  const FieldSet a = fields(R"({"f:a":{},"f:b":{".":{},"f:c":{},"f:d":{}}})");
  const FieldSet b = fields(R"({"f:b":{"f:c":{}},"f:e":{}})");
  EXPECT_EQ(text(a.union_with(b)), R"({"f:a":{},"f:b":{".":{},"f:c":{},"f:d":{}},"f:e":{}})");
  EXPECT_EQ(text(a.difference(b)), R"({"f:a":{},"f:b":{".":{},"f:d":{}}})");
  EXPECT_EQ(text(a.intersection(b)), R"({"f:b":{"f:c":{}}})");
  EXPECT_EQ(text(a.leaves()), R"({"f:a":{},"f:b":{"f:c":{},"f:d":{}}})");
  // A member of the other set takes everything below it.
  EXPECT_EQ(text(a.recursive_difference(fields(R"({"f:b":{}})"))), R"({"f:a":{}})");
  EXPECT_EQ(text(a.difference(fields(R"({"f:b":{}})"))), R"({"f:a":{},"f:b":{"f:c":{},"f:d":{}}})");
  EXPECT_TRUE(a.difference(a).empty());
  EXPECT_TRUE(a.has({PathElement::field("b"), PathElement::field("c")}));
  EXPECT_FALSE(b.has({PathElement::field("b")}));
  EXPECT_EQ(a, fields(text(a)));
}

TEST(FieldSetTest, MalformedFieldsV1IsAnError) {
  struct Case {
    const char* in;
    const char* error;
  };
  const Case cases[] = {
      {R"([])", "expected an object, got array"},
      {R"({"x":{}})", "parsing key as path element: key must be 2 characters long:"},
      {R"({"f-spec":{}})", "parsing key as path element: missing colon: f-spec"},
      {R"({"i:x":{}})",
       R"(parsing key as path element: strconv.Atoi: parsing "x": invalid syntax)"},
      {R"({"f:spec":true})", "expected an object, got boolean"},
  };
  for (const Case& c : cases) {
    auto s = FieldSet::from_fields_v1(parse(c.in));
    ASSERT_FALSE(s) << c.in;
    EXPECT_EQ(s.error(), c.error) << c.in;
  }
}

TEST(FieldSetTest, UnknownKindsOfElementAreDropped) {
  // A later version's kinds of path element are left out, as upstream reads them.
  EXPECT_EQ(text(fields(R"({"q:spec":{},"f:a":{}})")), R"({"f:a":{}})");
}

TEST(PathElementTest, ValuesOrderAsStructuredMergeDiff) {
  // Numbers, then strings, then booleans, then null.
  const json::value order[] = {json::value(-1),     json::value(2.5),   json::value(3),
                               json::value("a"),    json::value(false), json::value(true),
                               json::value(nullptr)};
  for (std::size_t i = 0; i + 1 < std::size(order); ++i) {
    EXPECT_LT(compare_values(order[i], order[i + 1]), 0) << i;
    EXPECT_GT(compare_values(order[i + 1], order[i]), 0) << i;
  }
  EXPECT_EQ(compare_values(json::value(1), json::value(1.0)), 0);
  EXPECT_EQ(value_to_string(json::value("a\"b")), R"("a\"b")");
  EXPECT_EQ(PathElement::index(3).to_string(), "[3]");
  EXPECT_EQ(PathElement::value(json::value(7)).to_fields_v1(), "v:7");
}

}  // namespace
}  // namespace kcm::local::fieldmanager
