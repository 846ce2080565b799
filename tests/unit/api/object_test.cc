#include "api/object.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace kcm::api {
namespace {

std::string read_text(const std::string& name) {
  std::ifstream in(std::string(KCM_TEST_DATA_DIR) + "/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Object obj(std::string_view text) {
  auto o = Object::parse(text);
  EXPECT_TRUE(o.ok()) << text << ": " << o.error();
  return o.ok() ? *o : Object();
}

TEST(ObjectTest, TypicalPodRoundTrip) {
  const std::string text = read_text("pod-typical.json");
  const json::value original = json::parse(text);
  Object pod = obj(text);
  EXPECT_EQ(pod.to_json(), original);
  EXPECT_EQ(pod.to_json_string(), json::serialize(original));

  EXPECT_EQ(pod.api_version(), "v1");
  EXPECT_EQ(pod.kind(), "Pod");
  EXPECT_EQ(pod.name(), "checkout-0-lldrhptrbr-bbbbb");
  EXPECT_EQ(pod.generate_name(), "checkout-0-lldrhptrbr-");
  EXPECT_EQ(pod.namespace_(), "load-0");
  EXPECT_EQ(pod.uid(), "6f1c2a9e-0000-4000-8000-000000000000");
  EXPECT_EQ(pod.resource_version(), "12345");
  EXPECT_EQ(pod.generation(), 0);
  EXPECT_EQ(pod.key(), "load-0/checkout-0-lldrhptrbr-bbbbb");
  ASSERT_NE(pod.labels(), nullptr);
  EXPECT_EQ(pod.labels()->size(), 8u);
  ASSERT_NE(pod.annotations(), nullptr);
  EXPECT_EQ(pod.annotations()->size(), 3u);

  // Typed metadata written back unchanged leaves the object identical.
  auto meta = pod.metadata();
  ASSERT_TRUE(meta.ok()) << meta.error();
  pod.set_metadata(*meta);
  EXPECT_EQ(pod.to_json(), original);
  pod.set_type_meta(pod.type_meta());
  EXPECT_EQ(pod.to_json(), original);
  // Re-encoded metadata is in upstream's member order with sorted maps,
  // as the API server writes it.
  const std::string meta_text = json::serialize(pod.as_object().at("metadata"));
  EXPECT_EQ(meta_text.substr(0, 221),
            R"({"name":"checkout-0-lldrhptrbr-bbbbb","generateName":"checkout-0-lldrhptrbr-",)"
            R"("namespace":"load-0","uid":"6f1c2a9e-0000-4000-8000-000000000000",)"
            R"("resourceVersion":"12345","creationTimestamp":"2026-11-30T10:00:00Z","labels")");
}

TEST(ObjectTest, MetadataWritesTouchOnlyMetadata) {
  const std::string text = read_text("pod-typical.json");
  const json::value original = json::parse(text);
  Object pod = obj(text);
  auto meta = pod.metadata();
  ASSERT_TRUE(meta.ok());
  meta->labels["tier"] = "backend";
  meta->deletion_timestamp = *Time::parse("2026-11-30T11:00:00Z");
  pod.set_metadata(*meta);

  // Every top-level member other than metadata is untouched and in place.
  const json::object& after = pod.as_object();
  const json::object& before = original.get_object();
  ASSERT_EQ(after.size(), before.size());
  auto a = after.begin();
  for (auto b = before.begin(); b != before.end(); ++a, ++b) {
    EXPECT_EQ(a->key(), b->key());
    if (b->key() != "metadata") {
      EXPECT_EQ(a->value(), b->value()) << b->key();
    }
  }
  const json::object& m = after.at("metadata").get_object();
  EXPECT_EQ(m.at("labels").at("tier"), "backend");
  EXPECT_EQ(m.at("deletionTimestamp"), "2026-11-30T11:00:00Z");
  EXPECT_EQ(m.at("creationTimestamp"), "2026-11-30T10:00:00Z");
  EXPECT_EQ(m.at("ownerReferences"), original.at("metadata").at("ownerReferences"));
}

TEST(ObjectTest, DirectMemberWrites) {
  struct Case {
    const char* name;
    const char* in;
    void (*edit)(Object&);
    const char* out;
  };
  const Case cases[] = {
      {"metadata inserted after type meta", R"({"apiVersion":"v1","kind":"Pod","spec":{}})",
       [](Object& o) { o.set_name("p"); },
       R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{}})"},
      {"metadata first without type meta", R"({"spec":{}})",
       [](Object& o) { o.set_namespace("ns"); }, R"({"metadata":{"namespace":"ns"},"spec":{}})"},
      {"in place", R"({"metadata":{"name":"p","resourceVersion":"1","uid":"u"}})",
       [](Object& o) { o.set_resource_version("2"); },
       R"({"metadata":{"name":"p","resourceVersion":"2","uid":"u"}})"},
      {"appended member", R"({"metadata":{"name":"p"}})",
       [](Object& o) {
         o.set_uid("u");
         o.set_generation(4);
         o.set_generate_name("g-");
       },
       R"({"metadata":{"name":"p","uid":"u","generation":4,"generateName":"g-"}})"},
      {"creation timestamp", R"({"metadata":{}})",
       [](Object& o) { o.set_creation_timestamp(*Time::parse("2026-11-30T12:00:00+02:00")); },
       R"({"metadata":{"creationTimestamp":"2026-11-30T10:00:00Z"}})"},
      {"null metadata replaced", R"({"kind":"X","metadata":null})",
       [](Object& o) { o.set_name("n"); }, R"({"kind":"X","metadata":{"name":"n"}})"},
      {"kind goes first", R"({"metadata":{}})", [](Object& o) { o.set_kind("Pod"); },
       R"({"kind":"Pod","metadata":{}})"},
      {"apiVersion after kind", R"({"kind":"Pod","metadata":{}})",
       [](Object& o) { o.set_api_version("v1"); },
       R"({"kind":"Pod","apiVersion":"v1","metadata":{}})"},
      {"type meta in place", R"({"apiVersion":"v1","kind":"Pod"})",
       [](Object& o) {
         TypeMeta tm;
         tm.api_version = "apps/v1";
         tm.kind = "Deployment";
         o.set_type_meta(tm);
       },
       R"({"apiVersion":"apps/v1","kind":"Deployment"})"},
      {"empty kind removes it", R"({"apiVersion":"v1","kind":"Pod","spec":1})",
       [](Object& o) { o.set_kind(""); }, R"({"apiVersion":"v1","spec":1})"},
      {"null kind kept", R"({"kind":null,"apiVersion":""})",
       [](Object& o) { o.set_type_meta(TypeMeta{}); }, R"({"kind":null,"apiVersion":""})"},
      {"empty metadata not added", R"({"kind":"Pod"})",
       [](Object& o) { o.set_metadata(ObjectMeta{}); }, R"({"kind":"Pod"})"},
      {"null metadata kept for empty meta", R"({"metadata":null})",
       [](Object& o) { o.set_metadata(ObjectMeta{}); }, R"({"metadata":null})"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Object o = obj(c.in);
    c.edit(o);
    EXPECT_EQ(o.to_json_string(), c.out);
  }
}

TEST(ObjectTest, Reads) {
  // Direct reads tolerate members of the wrong type (an unvalidated object).
  const Object o(json::parse(R"({"kind":3,"metadata":{"name":"n","generation":"x","labels":[]}})")
                     .as_object());
  EXPECT_EQ(o.key(), "n");
  EXPECT_EQ(o.namespace_(), "");
  EXPECT_EQ(o.kind(), "");
  EXPECT_EQ(o.generation(), 0);
  EXPECT_EQ(o.labels(), nullptr);
  EXPECT_FALSE(o.metadata().ok());
  auto o2 = Object::parse(R"({"metadata":{"name":5}})");
  ASSERT_FALSE(o2.ok());
  EXPECT_EQ(Object().metadata()->name, "");
  EXPECT_EQ(obj(R"({"metadata":null})").metadata()->name, "");
  EXPECT_EQ(obj(R"({"metadata":{"name":"x"}})").metadata()->name, "x");
}

TEST(ObjectTest, DecodeErrors) {
  struct Case {
    const char* in;
    const char* error;
  };
  const Case cases[] = {
      {"[]", "expected object, got array"},
      {"\"pod\"", "expected object, got string"},
      {R"({"kind":1})", "kind: expected string, got number"},
      {R"({"apiVersion":{}})", "apiVersion: expected string, got object"},
      {R"({"metadata":[]})", "metadata: expected object, got array"},
      {R"({"metadata":{"labels":"x"}})", "metadata.labels: expected object, got string"},
      {R"({"metadata":{"generation":"1"}})", "metadata.generation: expected integer, got string"},
      {"{", "invalid JSON at byte 1: incomplete JSON"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto o = Object::parse(c.in);
    ASSERT_FALSE(o.ok());
    EXPECT_EQ(o.error(), c.error);
  }
}

}  // namespace
}  // namespace kcm::api
