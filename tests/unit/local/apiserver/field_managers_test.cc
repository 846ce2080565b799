// The field managers kcm-local keeps per served resource: custom resources
// typed by their CRD version's schema (and retyped when the CRD changes it),
// and where each kind's Scale finds its replicas.
#include "local/apiserver/field_managers.h"

#include <gtest/gtest.h>

#include "api/json.h"
#include "local/registry/custom_resources.h"

namespace kcm::local::apiserver {
namespace {

namespace fm = fieldmanager;

json::object crd(std::string_view spec_properties) {
  std::string error;
  auto v = api::parse_json(
      std::string(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"pools.x.dev"},
    "spec":{"group":"x.dev","scope":"Namespaced",
      "names":{"plural":"pools","singular":"pool","kind":"Pool"},
      "versions":[
        {"name":"v1","served":true,"storage":true,
         "subresources":{"scale":{"specReplicasPath":".spec.size","statusReplicasPath":".status.size"}},
         "schema":{"openAPIV3Schema":{"type":"object","properties":{
           "spec":{"type":"object","properties":)") +
          std::string(spec_properties) + R"(}}}}},
        {"name":"v1alpha1","served":true,"storage":false,
         "schema":{"openAPIV3Schema":{"type":"object",
                                      "x-kubernetes-preserve-unknown-fields":true}}}]}})",
      &error);
  EXPECT_TRUE(v) << error;
  return v ? v->get_object() : json::object();
}

std::shared_ptr<const ResourceInfo> pool_v1(const json::object& crd_object) {
  for (const auto& info : registry::served_resources(crd_object, nullptr)) {
    if (info->gvr.version == "v1") return info;
  }
  ADD_FAILURE() << "no v1";
  return nullptr;
}

Result<json::object, fm::ApplyFailure> apply_size(FieldManagers& managers,
                                                  const ResourceInfo& info) {
  std::string error;
  const json::object config =
      api::parse_json(
          R"({"apiVersion":"x.dev/v1","kind":"Pool","metadata":{"name":"p"},"spec":{"size":1}})",
          &error)
          ->get_object();
  const json::object live{{"metadata", json::object{{"name", "p"}}}};
  return managers.of(info, Subresource::kNone)->apply(live, config, "m", false, "t");
}

TEST(FieldManagersTest, CustomResourcesAreTypedByTheirCurrentSchema) {
  FieldManagers managers;
  const auto before = pool_v1(crd(R"({"replicas":{"type":"integer"}})"));
  ASSERT_NE(before, nullptr);
  auto refused = apply_size(managers, *before);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, fm::ApplyFailure::kTypedPatch);
  EXPECT_EQ(refused.error().message, ".spec.size: field not declared in schema");
  // The CRD declares size: the same resource, typed anew.
  const auto after = pool_v1(crd(R"({"size":{"type":"integer"}})"));
  ASSERT_NE(after, nullptr);
  auto applied = apply_size(managers, *after);
  EXPECT_TRUE(applied) << applied.error().message;
  // Made once per schema.
  EXPECT_EQ(managers.of(*after, Subresource::kNone), managers.of(*after, Subresource::kNone));
}

TEST(FieldManagersTest, ReplicasPathsOfEveryVersion) {
  const auto pool = pool_v1(crd(R"({"size":{"type":"integer"}})"));
  ASSERT_NE(pool, nullptr);
  const fm::ReplicasPaths paths = replicas_paths(*pool);
  ASSERT_EQ(paths.size(), 2u);
  ASSERT_TRUE(paths.at("x.dev/v1"));
  EXPECT_EQ(fm::to_string(*paths.at("x.dev/v1")), ".spec.size");
  EXPECT_FALSE(paths.at("x.dev/v1alpha1"));  // no scale subresource there

  ResourceInfo deployments;
  deployments.gvr = {"apps", "v1", "deployments"};
  deployments.kind = "Deployment";
  const fm::ReplicasPaths d = replicas_paths(deployments);
  EXPECT_EQ(d.size(), 3u);
  ASSERT_TRUE(d.contains("apps/v1beta2"));
  EXPECT_EQ(fm::to_string(*d.at("apps/v1")), ".spec.replicas");
}

}  // namespace
}  // namespace kcm::local::apiserver
