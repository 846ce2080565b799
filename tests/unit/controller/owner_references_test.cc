#include "controller/owner_references.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "controller_test_util.h"

namespace kcm::controller {
namespace {

const Owner kRs{"apps/v1", "ReplicaSet", "web", "rs-uid", "default"};
const Owner kNode{"v1", "Node", "n1", "node-uid", ""};

TEST(OwnerReferences, OwnerFromJson) {
  struct Case {
    std::string name;
    std::string input;
    Owner want;
    std::string error;
  };
  const std::vector<Case> cases = {
      {"namespaced",
       R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":"web","namespace":"default","uid":"rs-uid"}})",
       kRs, ""},
      {"cluster-scoped",
       R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","uid":"node-uid"}})", kNode, ""},
      {"no apiVersion",
       R"({"kind":"Node","metadata":{"name":"n1","uid":"u"}})",
       {},
       "owner: apiVersion is required"},
      {"kind number",
       R"({"apiVersion":"v1","kind":3,"metadata":{"name":"n1","uid":"u"}})",
       {},
       "owner: kind: expected string, got number"},
      {"no metadata",
       R"({"apiVersion":"v1","kind":"Node"})",
       {},
       "owner: metadata.name is required"},
      {"metadata array",
       R"({"apiVersion":"v1","kind":"Node","metadata":[]})",
       {},
       "owner: metadata: expected object, got array"},
      {"uid empty",
       R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","uid":""}})",
       {},
       "owner: metadata.uid is required"},
      {"uid bool",
       R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","uid":true}})",
       {},
       "owner: metadata.uid: expected string, got boolean"},
      {"namespace object",
       R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","uid":"u","namespace":{}}})",
       {},
       "owner: metadata.namespace: expected string, got object"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto got = Owner::from_json(json_object(c.input));
    if (c.error.empty()) {
      ASSERT_TRUE(got.ok()) << got.error();
      EXPECT_EQ(got->api_version, c.want.api_version);
      EXPECT_EQ(got->kind, c.want.kind);
      EXPECT_EQ(got->name, c.want.name);
      EXPECT_EQ(got->uid, c.want.uid);
      EXPECT_EQ(got->namespace_, c.want.namespace_);
      EXPECT_EQ(got->namespaced(), !c.want.namespace_.empty());
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.error(), c.error);
    }
  }
  const api::Object o(
      json_object(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","uid":"u"}})"));
  ASSERT_TRUE(Owner::from_object(o).ok());
}

TEST(OwnerReferences, OwnerReferencesOfErrors) {
  struct Case {
    std::string input;
    std::string error;
  };
  const std::vector<Case> cases = {
      {R"({"metadata":"x"})", "metadata: expected object, got string"},
      {R"({"metadata":{"ownerReferences":{}}})",
       "metadata.ownerReferences: expected array, got object"},
      {R"({"metadata":{"ownerReferences":[{"uid":"a"},"b"]}})",
       "metadata.ownerReferences[1]: expected object, got string"},
      {R"({"metadata":{"ownerReferences":[{"uid":"a","controller":"yes"}]}})",
       "metadata.ownerReferences[0].controller: expected boolean, got string"},
      {R"({"metadata":{"ownerReferences":[{"name":7}]}})",
       "metadata.ownerReferences[0].name: expected string, got number"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    const auto got = owner_references_of(json_object(c.input));
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error(), c.error);
  }
  auto none = owner_references_of(json_object(R"({"metadata":{"ownerReferences":null}})"));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(OwnerReferences, GroupsAndSameObject) {
  EXPECT_EQ(api_group_of("apps/v1"), "apps");
  EXPECT_EQ(api_group_of("v1"), "");
  EXPECT_EQ(api_group_of(""), "");
  EXPECT_EQ(api_group_of("/"), "");
  EXPECT_EQ(api_group_of("a/b/c"), std::nullopt);

  api::OwnerReference a;
  a.api_version = "apps/v1";
  a.kind = "ReplicaSet";
  a.name = "web";
  a.uid = "1";
  api::OwnerReference b = a;
  b.api_version = "apps/v1beta2";  // another version of the same group
  b.uid = "2";                     // and a recreated object
  EXPECT_TRUE(refer_same_object(a, b));
  b.api_version = "extensions/v1beta1";
  EXPECT_FALSE(refer_same_object(a, b));
  b = a;
  b.kind = "Deployment";
  EXPECT_FALSE(refer_same_object(a, b));
  b = a;
  b.name = "web2";
  EXPECT_FALSE(refer_same_object(a, b));
  b = a;
  b.api_version = "apps/v1/x";
  EXPECT_FALSE(refer_same_object(a, b));
  EXPECT_FALSE(refer_same_object(b, b));  // unparseable never matches
}

TEST(OwnerReferences, ValidateOwner) {
  EXPECT_TRUE(validate_owner(kNode, "").ok());
  EXPECT_TRUE(validate_owner(kNode, "default").ok());
  EXPECT_TRUE(validate_owner(kRs, "default").ok());
  const auto cluster = validate_owner(kRs, "");
  ASSERT_FALSE(cluster.ok());
  EXPECT_EQ(cluster.error(),
            "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace "
            "default");
  const auto cross = validate_owner(kRs, "other");
  ASSERT_FALSE(cross.ok());
  EXPECT_EQ(cross.error(),
            "cross-namespace owner references are disallowed, owner's namespace default, obj's "
            "namespace other");
}

constexpr std::string_view kRsControllerRef =
    R"({"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid","controller":true,"blockOwnerDeletion":true})";

struct SetCase {
  std::string name;
  Owner owner;
  std::string input;
  std::string want;  // empty: unchanged
  std::string error;
};

std::string pod_with(std::string_view owner_refs) {
  std::string s = R"({"kind":"Pod","metadata":{"name":"p","namespace":"default")";
  if (!owner_refs.empty()) s += R"(,"ownerReferences":)" + std::string(owner_refs);
  return s + R"(},"spec":{"x":1}})";
}

void expect_set(const SetCase& c, const Result<void>& got, const json::object& o) {
  if (c.error.empty()) {
    EXPECT_TRUE(got.ok()) << got.error();
  } else {
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error(), c.error);
  }
  EXPECT_EQ(json::serialize(o), json::serialize(json_object(c.want.empty() ? c.input : c.want)));
}

TEST(OwnerReferences, SetControllerReference) {
  const std::vector<SetCase> cases = {
      {"orphan", kRs, pod_with(""), pod_with("[" + std::string(kRsControllerRef) + "]"), ""},
      {"no metadata: created", kNode, R"({"kind":"Pod"})",
       R"({"kind":"Pod","metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"Node","name":"n1","uid":"node-uid","controller":true,"blockOwnerDeletion":true}]}})",
       ""},
      {"keeps other owners and their unknown members", kRs,
       pod_with(
           R"([{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"c1","extra":{"k":1}}])"),
       pod_with(
           R"([{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"c1","extra":{"k":1}},)" +
           std::string(kRsControllerRef) + "]"),
       ""},
      {"replaces a reference to the same group/kind/name", kRs,
       pod_with(
           R"([{"apiVersion":"apps/v1beta2","kind":"ReplicaSet","name":"web","uid":"old","controller":true}])"),
       pod_with("[" + std::string(kRsControllerRef) + "]"), ""},
      {"promotes a plain reference", kRs,
       pod_with(R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid"}])"),
       pod_with("[" + std::string(kRsControllerRef) + "]"), ""},
      {"already owned", kRs,
       pod_with(
           R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"other","uid":"o","controller":true}])"),
       "", "Object default/p is already owned by another ReplicaSet controller other"},
      {"already owned by another kind", kRs,
       pod_with(
           R"([{"apiVersion":"batch/v1","kind":"Job","name":"web","uid":"j","controller":true}])"),
       "", "Object default/p is already owned by another Job controller web"},
      {"cluster-scoped object, namespaced owner", kRs, R"({"metadata":{"name":"pv"}})", "",
       "cluster-scoped resource must not have a namespace-scoped owner, owner's namespace "
       "default"},
      {"cross-namespace", kRs, R"({"metadata":{"name":"p","namespace":"other"}})", "",
       "cross-namespace owner references are disallowed, owner's namespace default, obj's "
       "namespace other"},
      {"malformed references", kRs, pod_with(R"([{"controller":1}])"), "",
       "metadata.ownerReferences[0].controller: expected boolean, got number"},
      {"references not an array", kRs, pod_with(R"("web")"), "",
       "metadata.ownerReferences: expected array, got string"},
      {"namespace not a string", kRs, R"({"metadata":{"name":"p","namespace":1}})", "",
       "metadata.namespace: expected string, got number"},
      {"metadata not an object", kRs, R"({"metadata":true})", "",
       "metadata: expected object, got boolean"},
      {"owner without uid", Owner{"apps/v1", "ReplicaSet", "web", "", "default"}, pod_with(""), "",
       "owner: uid is required"},
      {"owner with a bad apiVersion", Owner{"a/b/c", "X", "web", "u", "default"}, pod_with(""), "",
       "owner: unexpected GroupVersion string: a/b/c"},
  };
  for (const SetCase& c : cases) {
    SCOPED_TRACE(c.name);
    json::object o = json_object(c.input);
    expect_set(c, set_controller_reference(c.owner, o), o);
  }
}

TEST(OwnerReferences, SetControllerReferenceWithoutBlocking) {
  api::Object pod(json_object(pod_with("")));
  ASSERT_TRUE(set_controller_reference(kRs, pod, /*block_owner_deletion=*/false).ok());
  EXPECT_EQ(
      pod.to_json_string(),
      json::serialize(json_object(pod_with(
          R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid","controller":true,"blockOwnerDeletion":false}])"))));
  // Setting it again is a no-op.
  const std::string before = pod.to_json_string();
  ASSERT_TRUE(set_controller_reference(kRs, pod, false).ok());
  EXPECT_EQ(pod.to_json_string(), before);
}

TEST(OwnerReferences, SetOwnerReference) {
  constexpr std::string_view kPlain =
      R"({"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid"})";
  const std::vector<SetCase> cases = {
      {"adds", kRs, pod_with(""), pod_with("[" + std::string(kPlain) + "]"), ""},
      {"appends after others, even a controller", kRs,
       pod_with(
           R"([{"apiVersion":"batch/v1","kind":"Job","name":"j","uid":"j","controller":true}])"),
       pod_with(
           R"([{"apiVersion":"batch/v1","kind":"Job","name":"j","uid":"j","controller":true},)" +
           std::string(kPlain) + "]"),
       ""},
      {"overwrites the same object's reference", kRs,
       pod_with(
           R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"old","controller":true}])"),
       pod_with("[" + std::string(kPlain) + "]"), ""},
      {"cross-namespace", kRs, R"({"metadata":{"name":"p","namespace":"kube-system"}})", "",
       "cross-namespace owner references are disallowed, owner's namespace default, obj's "
       "namespace kube-system"},
      {"cluster-scoped owner of a namespaced object", kNode, pod_with(""),
       pod_with(R"([{"apiVersion":"v1","kind":"Node","name":"n1","uid":"node-uid"}])"), ""},
      {"owner without name", Owner{"v1", "Node", "", "u", ""}, pod_with(""), "",
       "owner: name is required"},
  };
  for (const SetCase& c : cases) {
    SCOPED_TRACE(c.name);
    json::object o = json_object(c.input);
    expect_set(c, set_owner_reference(c.owner, o), o);
  }
  api::Object pod(json_object(pod_with("")));
  ASSERT_TRUE(set_owner_reference(kRs, pod, true).ok());
  EXPECT_EQ(
      pod.to_json_string(),
      json::serialize(json_object(pod_with(
          R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid","blockOwnerDeletion":true}])"))));
}

TEST(OwnerReferences, RemoveOwnerReference) {
  const std::vector<SetCase> cases = {
      {"removes the only one: member dropped", kRs,
       pod_with("[" + std::string(kRsControllerRef) + "]"), pod_with(""), ""},
      {"keeps the others", kRs,
       pod_with(R"([{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"c1","x":2},)" +
                std::string(kRsControllerRef) + "]"),
       pod_with(R"([{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"c1","x":2}])"), ""},
      {"matches any version and uid", kRs,
       pod_with(R"([{"apiVersion":"apps/v1beta1","kind":"ReplicaSet","name":"web","uid":"zzz"}])"),
       pod_with(""), ""},
      {"none at all", kRs, pod_with(""), "", "Pod default/p does not have any owner references"},
      {"not ours", kRs,
       pod_with(R"([{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"c1"}])"), "",
       "Pod default/p does not have an owner reference for ReplicaSet web"},
      {"cluster-scoped without kind", kNode, R"({"metadata":{"name":"pv"}})", "",
       "object pv does not have any owner references"},
      {"malformed", kRs, pod_with(R"([1])"), "",
       "metadata.ownerReferences[0]: expected object, got number"},
  };
  for (const SetCase& c : cases) {
    SCOPED_TRACE(c.name);
    json::object o = json_object(c.input);
    expect_set(c, remove_owner_reference(c.owner, o), o);
  }
  api::Object pod(json_object(pod_with("[" + std::string(kRsControllerRef) + "]")));
  ASSERT_TRUE(remove_owner_reference(kRs, pod).ok());
  EXPECT_EQ(pod.to_json_string(), json::serialize(json_object(pod_with(""))));
}

TEST(OwnerReferences, Queries) {
  struct Case {
    std::string name;
    std::string input;
    bool has_controller;
    std::string controller_uid;  // "" none
    bool has_rs_owner;
  };
  const std::vector<Case> cases = {
      {"orphan", pod_with(""), false, "", false},
      {"controlled", pod_with("[" + std::string(kRsControllerRef) + "]"), true, "rs-uid", true},
      {"controller false",
       pod_with(
           R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid","controller":false}])"),
       false, "", true},
      {"first controller wins",
       pod_with(
           R"([{"kind":"A","name":"a","uid":"a","apiVersion":"v1"},{"kind":"B","name":"b","uid":"b","apiVersion":"v1","controller":true},{"kind":"C","name":"c","uid":"c","apiVersion":"v1","controller":true}])"),
       true, "b", false},
      {"malformed sees none",
       pod_with(
           R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid","controller":true},{"uid":5}])"),
       false, "", false},
      {"metadata wrong type", R"({"metadata":[]})", false, "", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const json::object o = json_object(c.input);
    EXPECT_EQ(has_controller_reference(o), c.has_controller);
    const auto ref = get_controller_of(o);
    EXPECT_EQ(ref ? ref->uid : "", c.controller_uid);
    EXPECT_EQ(is_controlled_by(o, "rs-uid"), c.controller_uid == "rs-uid");
    EXPECT_FALSE(is_controlled_by(o, ""));
    EXPECT_EQ(has_owner_reference(o, kRs), c.has_rs_owner);
  }
}

}  // namespace
}  // namespace kcm::controller
