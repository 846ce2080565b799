// Custom resources are typed by their CRD's structural schema, as upstream
// converts it for server-side apply: x-kubernetes-list-type and
// -list-map-keys, x-kubernetes-map-type, fields not declared, and the
// apiVersion, kind and ObjectMeta every resource has.
#include <gtest/gtest.h>

#include "fieldmanager_test_util.h"
#include "local/crd/structural_schema.h"
#include "local/fieldmanager/field_manager.h"
#include "local/fieldmanager/typed.h"

namespace kcm::local::fieldmanager {
namespace {

using testing::parse;
using testing::text;

constexpr std::string_view kSchema = R"({"type":"object","properties":{
  "spec":{"type":"object","properties":{
    "ports":{"type":"array","x-kubernetes-list-type":"map",
             "x-kubernetes-list-map-keys":["port","protocol"],
             "items":{"type":"object","required":["port"],"properties":{
               "port":{"type":"integer"},"protocol":{"type":"string","default":"TCP"}}}},
    "tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
    "pools":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}},
    "selector":{"type":"object","x-kubernetes-map-type":"atomic",
                "properties":{"app":{"type":"string"}}},
    "labels":{"type":"object","additionalProperties":{"type":"string"}},
    "free":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
  "status":{"type":"object","properties":{
    "conditions":{"type":"array","x-kubernetes-list-type":"map",
                  "x-kubernetes-list-map-keys":["type"],
                  "items":{"type":"object","required":["type"],"properties":{
                    "type":{"type":"string"},"status":{"type":"string"}}}}}}}})";

crd::SchemaPtr schema() {
  static const crd::SchemaPtr s = [] {
    auto parsed = crd::parse_structural_schema(parse(kSchema));
    EXPECT_TRUE(parsed);
    return parsed ? *parsed : nullptr;
  }();
  return s;
}

TEST(CustomResourceTypeTest, ListsAndMapsFollowTheSchemaExtensions) {
  auto s = to_field_set(parse(R"({"apiVersion":"x.dev/v1","kind":"Pool",
    "metadata":{"name":"p","ownerReferences":[{"uid":"u1","name":"o","kind":"K","apiVersion":"v1"}],
                "finalizers":["a"]},
    "spec":{"ports":[{"port":80}],"tags":["a"],"pools":[{"name":"x"}],"selector":{"app":"a"},
            "labels":{"l":"1"},"free":{"any":{"thing":1}}}})"),
                        TypeRef::of(*schema()));
  ASSERT_TRUE(s) << s.error();
  // Ports by port and the defaulted protocol, tags by value, pools and the
  // selector whole, labels and preserved fields member by member;
  // ownerReferences by uid (each one atomic) and finalizers by value, as
  // ObjectMeta declares them.
  EXPECT_EQ(
      text(*s),
      R"({"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:finalizers":{"v:\"a\"":{}},"f:name":{},)"
      R"("f:ownerReferences":{"k:{\"uid\":\"u1\"}":{}}},)"
      R"("f:spec":{"f:free":{"f:any":{".":{},"f:thing":{}}},)"
      R"("f:labels":{"f:l":{}},"f:pools":{},"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{)"
      R"(".":{},"f:port":{}}},"f:selector":{},"f:tags":{"v:\"a\"":{}}}})");
}

TEST(CustomResourceTypeTest, UndeclaredFieldsAreTypedPatchErrors) {
  auto s = to_field_set(
      parse(R"({"spec":{"size":1,"pools":[{"nme":"x"}],"free":{"ok":1},"labels":{"ok":"1"}}})"),
      TypeRef::of(*schema()));
  ASSERT_FALSE(s);
  // Inside the atomic list too, as upstream reports ".spec.dataPools[0].name".
  EXPECT_EQ(s.error(),
            ".spec.size: field not declared in schema\n"
            ".spec.pools[0].nme: field not declared in schema");
}

TEST(CustomResourceTypeTest, AppliersShareAMapListItemByItem) {
  const FieldManager m(TypeRef::of(*schema()), json::object(), "x.dev/v1", "", FieldSet{},
                       schema());
  json::object live = parse(R"({"apiVersion":"x.dev/v1","kind":"Pool",
    "metadata":{"name":"p","uid":"u1","managedFields":[{"manager":"c","operation":"Update",
    "apiVersion":"x.dev/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{".":{}}}}]},
    "spec":{}})")
                          .as_object();
  auto a = m.apply(live,
                   parse(R"({"apiVersion":"x.dev/v1","kind":"Pool","metadata":{"name":"p"},
    "status":{"conditions":[{"type":"A","status":"True"}]}})")
                       .as_object(),
                   "a", false, "2026-12-04T00:00:01Z");
  ASSERT_TRUE(a) << a.error().message;
  // A second applier's condition is another item, not a conflict over the list.
  auto b = m.apply(*a,
                   parse(R"({"apiVersion":"x.dev/v1","kind":"Pool","metadata":{"name":"p"},
    "status":{"conditions":[{"type":"B","status":"False"}]}})")
                       .as_object(),
                   "b", false, "2026-12-04T00:00:02Z");
  ASSERT_TRUE(b) << (b ? "" : conflict_message(b.error().conflicts) + b.error().message);
  EXPECT_EQ(api::to_json_string(b->at("status")),
            R"({"conditions":[{"type":"A","status":"True"},{"type":"B","status":"False"}]})");
  // Changing the first applier's condition is one.
  auto c = m.apply(*b,
                   parse(R"({"apiVersion":"x.dev/v1","kind":"Pool","metadata":{"name":"p"},
    "status":{"conditions":[{"type":"A","status":"False"}]}})")
                       .as_object(),
                   "b", false, "2026-12-04T00:00:03Z");
  ASSERT_FALSE(c);
  EXPECT_EQ(conflict_message(c.error().conflicts),
            "Apply failed with 1 conflict: conflict with \"a\": "
            ".status.conditions[type=\"A\"].status");
}

}  // namespace
}  // namespace kcm::local::fieldmanager
