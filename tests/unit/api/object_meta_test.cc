#include "api/object_meta.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace kcm::api {
namespace {

json::value read_data(const std::string& name) {
  std::ifstream in(std::string(KCM_TEST_DATA_DIR) + "/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  std::string error;
  auto v = parse_json(ss.str(), &error);
  EXPECT_TRUE(v.has_value()) << error;
  return v.value_or(nullptr);
}

ObjectMeta decode(std::string_view text) {
  auto m = ObjectMeta::from_json(json::parse(text));
  EXPECT_TRUE(m.ok()) << text << ": " << m.error();
  return m.ok() ? *m : ObjectMeta{};
}

TEST(ObjectMetaTest, TypicalPodMetadata) {
  const json::value pod = read_data("pod-typical.json");
  const json::value& metadata = pod.at("metadata");
  auto m = ObjectMeta::from_json(metadata);
  ASSERT_TRUE(m.ok()) << m.error();
  EXPECT_EQ(m->name, "checkout-0-lldrhptrbr-bbbbb");
  EXPECT_EQ(m->generate_name, "checkout-0-lldrhptrbr-");
  EXPECT_EQ(m->namespace_, "load-0");
  EXPECT_EQ(m->uid, "6f1c2a9e-0000-4000-8000-000000000000");
  EXPECT_EQ(m->resource_version, "12345");
  EXPECT_EQ(m->generation, 0);
  EXPECT_EQ(m->creation_timestamp.to_string(), "2026-11-30T10:00:00Z");
  EXPECT_FALSE(m->deletion_timestamp.has_value());
  EXPECT_EQ(m->labels.size(), 8u);
  EXPECT_EQ(m->labels.at("pod-template-hash"), "lldrhptrbr");
  EXPECT_EQ(m->annotations.at("prometheus.io/port"), "9090");
  ASSERT_EQ(m->owner_references.size(), 1u);
  const OwnerReference& ref = m->owner_references[0];
  EXPECT_EQ(ref.api_version, "apps/v1");
  EXPECT_EQ(ref.kind, "ReplicaSet");
  EXPECT_EQ(ref.name, "checkout-0-lldrhptrbr");
  EXPECT_EQ(ref.uid, "9f139717-63b7-c648-801e-1ecc8aa94a1e");
  EXPECT_EQ(ref.controller, true);
  EXPECT_EQ(ref.block_owner_deletion, true);
  EXPECT_TRUE(m->unknown_fields().empty());

  EXPECT_EQ(m->to_json(), metadata);
  ASSERT_NE(get_controller_of(*m), nullptr);
  EXPECT_EQ(get_controller_of(*m)->name, "checkout-0-lldrhptrbr");
}

// Every input that decodes re-encodes to an equal value, and to the very
// same text when its members are already in upstream's order.
TEST(ObjectMetaTest, LosslessRoundTrip) {
  struct Case {
    const char* name;
    const char* in;
    bool same_text;
  };
  const Case cases[] = {
      {"empty", "{}", true},
      {"canonical order with unknown members",
       R"({"name":"a","generateName":"a-","namespace":"n","selfLink":"/api/v1/x","uid":"u",)"
       R"("resourceVersion":"7","generation":3,"creationTimestamp":"2026-11-30T10:00:00Z",)"
       R"("deletionTimestamp":"2026-11-30T11:00:00Z","deletionGracePeriodSeconds":30,)"
       R"("labels":{"a":"1","b":"2"},"annotations":{"k":"v"},)"
       R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"x",)"
       R"("controller":true,"blockOwnerDeletion":false,"future":{"x":1}}],)"
       R"("finalizers":["kubernetes.io/pvc-protection"],)"
       R"("managedFields":[{"manager":"kubectl","operation":"Update"}],"futureField":[1,2]})",
       true},
      {"empty values stay",
       R"({"name":"","generation":0,"labels":{},"annotations":{},)"
       R"("ownerReferences":[],"finalizers":[]})",
       true},
      {"nulls stay",
       R"({"name":null,"generation":null,"creationTimestamp":null,)"
       R"("deletionTimestamp":null,"deletionGracePeriodSeconds":null,"labels":null,)"
       R"("annotations":null,"ownerReferences":null,"finalizers":null})",
       true},
      {"owner reference nulls and gaps",
       R"({"ownerReferences":[{"kind":"X","controller":null},{"uid":"","blockOwnerDeletion":null}]})",
       true},
      {"timestamps keep their spelling",
       R"({"creationTimestamp":"2026-11-30T12:00:00.123+02:00",)"
       R"("deletionTimestamp":"0001-01-01T00:00:00Z"})",
       true},
      {"zero creation timestamp string", R"({"creationTimestamp":"0001-01-01T00:00:00Z"})", true},
      {"labels out of order", R"({"labels":{"z":"1","a":"2"}})", false},
      {"members out of order", R"({"uid":"u","name":"n","future":1,"managedFields":[]})", false},
      {"escapes", R"({"name":"a\"b\\c\u00e9","annotations":{"\n":"\u0000"}})", true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const json::value in = json::parse(c.in);
    auto m = ObjectMeta::from_json(in);
    ASSERT_TRUE(m.ok()) << m.error();
    const json::value out = m->to_json();
    EXPECT_EQ(out, in) << json::serialize(out);
    if (c.same_text) {
      EXPECT_EQ(json::serialize(out), json::serialize(in));
    }
  }
}

TEST(ObjectMetaTest, EncodesInGoStructOrder) {
  const ObjectMeta m =
      decode(R"({"future":1,"managedFields":[],"labels":{"z":"1","a":"2"},"uid":"u",)"
             R"("selfLink":"s","name":"n"})");
  EXPECT_EQ(json::serialize(m.to_json()),
            R"({"name":"n","selfLink":"s","uid":"u","labels":{"a":"2","z":"1"},)"
            R"("managedFields":[],"future":1})");
}

TEST(ObjectMetaTest, NewValuesEncodeCanonically) {
  ObjectMeta m;
  m.name = "web";
  m.namespace_ = "default";
  m.generation = 2;
  m.creation_timestamp = *Time::parse("2026-11-30T12:00:00+02:00");
  m.deletion_timestamp = *Time::parse("2026-11-30T10:30:00.5Z");
  m.deletion_grace_period_seconds = 0;
  m.labels["app"] = "web";
  OwnerReference ref;
  ref.api_version = "apps/v1";
  ref.kind = "ReplicaSet";
  ref.name = "web-1";
  ref.uid = "u1";
  ref.controller = true;
  m.owner_references.push_back(ref);
  m.finalizers.push_back("f");
  EXPECT_EQ(json::serialize(m.to_json()),
            R"({"name":"web","namespace":"default","generation":2,)"
            R"("creationTimestamp":"2026-11-30T10:00:00Z",)"
            R"("deletionTimestamp":"2026-11-30T10:30:00Z","deletionGracePeriodSeconds":0,)"
            R"("labels":{"app":"web"},"ownerReferences":[{"apiVersion":"apps/v1",)"
            R"("kind":"ReplicaSet","name":"web-1","uid":"u1","controller":true}],)"
            R"("finalizers":["f"]})");
}

TEST(ObjectMetaTest, ChangesAfterDecoding) {
  ObjectMeta m = decode(R"({"name":"a","creationTimestamp":"2026-11-30T12:00:00+02:00",)"
                        R"("labels":{"x":"1"},"managedFields":[{"manager":"m"}]})");
  // Unchanged instant: the original text. Changed: canonical UTC.
  EXPECT_EQ(json::serialize(m.to_json()),
            R"({"name":"a","creationTimestamp":"2026-11-30T12:00:00+02:00","labels":{"x":"1"},)"
            R"("managedFields":[{"manager":"m"}]})");
  m.creation_timestamp = *Time::parse("2026-11-30T12:00:01+02:00");
  m.labels.clear();
  m.name.clear();
  m.resource_version = "9";
  EXPECT_EQ(json::serialize(m.to_json()),
            R"({"name":"","resourceVersion":"9","creationTimestamp":"2026-11-30T10:00:01Z",)"
            R"("labels":{},"managedFields":[{"manager":"m"}]})");
  m.creation_timestamp = Time();
  EXPECT_EQ(json::serialize(m.to_json().at("creationTimestamp")), "null");
}

TEST(ObjectMetaTest, MalformedShapesNameTheMember) {
  struct Case {
    const char* in;
    const char* error;
  };
  const Case cases[] = {
      {"[]", "metadata: expected object, got array"},
      {"null", "metadata: expected object, got null"},
      {R"({"labels":"x"})", "metadata.labels: expected object, got string"},
      {R"({"labels":{"a":1}})", "metadata.labels[a]: expected string, got number"},
      {R"({"labels":{"a":null}})", "metadata.labels[a]: expected string, got null"},
      {R"({"annotations":[]})", "metadata.annotations: expected object, got array"},
      {R"({"name":5})", "metadata.name: expected string, got number"},
      {R"({"namespace":true})", "metadata.namespace: expected string, got boolean"},
      {R"({"generation":"1"})", "metadata.generation: expected integer, got string"},
      {R"({"generation":1.5})", "metadata.generation: expected integer, got number"},
      {R"({"generation":18446744073709551615})",
       "metadata.generation: integer out of range for int64"},
      {R"({"deletionGracePeriodSeconds":{}})",
       "metadata.deletionGracePeriodSeconds: expected integer, got object"},
      {R"({"creationTimestamp":"yesterday"})",
       "metadata.creationTimestamp: parsing time \"yesterday\" as "
       "\"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\""},
      {R"({"deletionTimestamp":7})",
       "metadata.deletionTimestamp: json: cannot unmarshal number into Go value of type string"},
      {R"({"ownerReferences":{}})", "metadata.ownerReferences: expected array, got object"},
      {R"({"ownerReferences":[null]})", "metadata.ownerReferences[0]: expected object, got null"},
      {R"({"ownerReferences":[{},{"controller":"yes"}]})",
       "metadata.ownerReferences[1].controller: expected boolean, got string"},
      {R"({"ownerReferences":[{"uid":1}]})",
       "metadata.ownerReferences[0].uid: expected string, got number"},
      {R"({"finalizers":"f"})", "metadata.finalizers: expected array, got string"},
      {R"({"finalizers":["a",1]})", "metadata.finalizers[1]: expected string, got number"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    auto m = ObjectMeta::from_json(json::parse(c.in));
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.error(), c.error);
  }
  auto nested = ObjectMeta::from_json(json::parse(R"({"labels":3})"), "spec.template.metadata");
  ASSERT_FALSE(nested.ok());
  EXPECT_EQ(nested.error(), "spec.template.metadata.labels: expected object, got number");
}

TEST(ObjectMetaTest, ControllerOf) {
  struct Case {
    const char* name;
    const char* meta;
    const char* controller;  // nullptr: none
    const char* owner_uid;
    bool controlled;
  };
  const Case cases[] = {
      {"no references", "{}", nullptr, "u1", false},
      {"non-controller only",
       R"({"ownerReferences":[{"name":"a","uid":"u1"},{"name":"b","uid":"u2","controller":false}]})",
       nullptr, "u1", false},
      {"controller",
       R"({"ownerReferences":[{"name":"a","uid":"u1"},)"
       R"({"name":"b","uid":"u2","controller":true}]})",
       "b", "u2", true},
      {"controller of another owner",
       R"({"ownerReferences":[{"name":"b","uid":"u2","controller":true}]})", "b", "u1", false},
      {"first controller wins",
       R"({"ownerReferences":[{"name":"a","uid":"u1","controller":true},)"
       R"({"name":"b","uid":"u2","controller":true}]})",
       "a", "u2", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const ObjectMeta m = decode(c.meta);
    const OwnerReference* ref = get_controller_of(m);
    if (c.controller == nullptr) {
      EXPECT_EQ(ref, nullptr);
    } else {
      ASSERT_NE(ref, nullptr);
      EXPECT_EQ(ref->name, c.controller);
    }
    EXPECT_EQ(is_controlled_by(m, c.owner_uid), c.controlled);
    ObjectMeta owner;
    owner.uid = c.owner_uid;
    EXPECT_EQ(is_controlled_by(m, owner), c.controlled);
  }
}

TEST(ObjectMetaTest, OwnerReferenceStandalone) {
  auto ref = OwnerReference::from_json(json::parse(R"({"apiVersion":"v1","kind":"Node","x":1})"));
  ASSERT_TRUE(ref.ok()) << ref.error();
  EXPECT_EQ(ref->kind, "Node");
  EXPECT_EQ(json::serialize(ref->unknown_fields()), R"({"x":1})");
  EXPECT_EQ(json::serialize(ref->to_json()), R"({"apiVersion":"v1","kind":"Node","x":1})");
  auto bad = OwnerReference::from_json(json::parse("3"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "ownerReference: expected object, got number");
}

TEST(TypeMetaTest, RoundTripKeepsTheRestOfTheObject) {
  const json::value pod = read_data("pod-typical.json");
  auto tm = TypeMeta::from_json(pod);
  ASSERT_TRUE(tm.ok()) << tm.error();
  EXPECT_EQ(tm->api_version, "v1");
  EXPECT_EQ(tm->kind, "Pod");
  EXPECT_EQ(tm->group_version(), (GroupVersion{"", "v1"}));
  EXPECT_EQ(tm->to_json(), pod);
  // Go's order: kind before apiVersion.
  auto small = TypeMeta::from_json(json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment"})"));
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->group_version(), (GroupVersion{"apps", "v1"}));
  EXPECT_EQ(json::serialize(small->to_json()), R"({"kind":"Deployment","apiVersion":"apps/v1"})");
  auto bad = TypeMeta::from_json(json::parse(R"({"kind":1})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "kind: expected string, got number");
}

TEST(ListMetaTest, RoundTrip) {
  struct Case {
    const char* in;
    const char* out;
  };
  const Case cases[] = {
      {R"({"resourceVersion":"10","continue":"abc","remainingItemCount":5})",
       R"({"resourceVersion":"10","continue":"abc","remainingItemCount":5})"},
      {R"({"remainingItemCount":null,"selfLink":"/x","resourceVersion":""})",
       R"({"selfLink":"/x","resourceVersion":"","remainingItemCount":null})"},
      {"{}", "{}"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.in);
    const json::value in = json::parse(c.in);
    auto m = ListMeta::from_json(in);
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(m->to_json(), in);
    EXPECT_EQ(json::serialize(m->to_json()), c.out);
  }
  auto m = ListMeta::from_json(json::parse(R"({"resourceVersion":"10","continue":"abc"})"));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->continue_, "abc");
  EXPECT_FALSE(m->remaining_item_count.has_value());
  auto bad = ListMeta::from_json(json::parse(R"({"remainingItemCount":"5"})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "metadata.remainingItemCount: expected integer, got string");
}

}  // namespace
}  // namespace kcm::api
