#include "api/schema/type_patch_schema.h"

#include <gtest/gtest.h>

namespace kcm::api::schema {
namespace {

namespace ap = kcm::api;

// Walks a path of field names through the patch schema nodes.
const ap::PatchField* at(std::initializer_list<std::string_view> path,
                         GroupVersionKind gvk = {"", "v1", "Pod"}) {
  const ap::PatchSchema* node = PatchSchemas::builtin().of(gvk);
  const ap::PatchField* f = nullptr;
  for (auto name : path) {
    if (node == nullptr) return nullptr;
    f = node->lookup(name);
    if (f == nullptr) return nullptr;
    node = f->schema;
  }
  return f;
}

struct PatchSchemaCase {
  std::vector<std::string_view> path;
  ap::PatchStrategy strategy;
  std::string merge_key;
  bool retain_keys;
};

TEST(TypePatchSchema, UpstreamPatchTags) {
  const std::vector<PatchSchemaCase> cases = {
      {{"spec", "containers"}, ap::PatchStrategy::kMerge, "name", false},
      {{"spec", "initContainers"}, ap::PatchStrategy::kMerge, "name", false},
      {{"spec", "containers", "ports"}, ap::PatchStrategy::kMerge, "containerPort", false},
      {{"spec", "containers", "env"}, ap::PatchStrategy::kMerge, "name", false},
      {{"spec", "containers", "volumeMounts"}, ap::PatchStrategy::kMerge, "mountPath", false},
      {{"spec", "containers", "args"}, ap::PatchStrategy::kDefault, "", false},
      {{"spec", "containers", "command"}, ap::PatchStrategy::kDefault, "", false},
      {{"spec", "volumes"}, ap::PatchStrategy::kMerge, "name", true},
      {{"spec", "tolerations"}, ap::PatchStrategy::kDefault, "", false},
      {{"spec", "imagePullSecrets"}, ap::PatchStrategy::kMerge, "name", false},
      {{"spec", "topologySpreadConstraints"}, ap::PatchStrategy::kMerge, "topologyKey", false},
      {{"metadata", "finalizers"}, ap::PatchStrategy::kMerge, "", false},
      {{"metadata", "ownerReferences"}, ap::PatchStrategy::kMerge, "uid", false},
      {{"metadata", "labels"}, ap::PatchStrategy::kDefault, "", false},
      {{"status", "conditions"}, ap::PatchStrategy::kMerge, "type", false},
      {{"status", "podIPs"}, ap::PatchStrategy::kMerge, "ip", false},
  };
  for (const auto& c : cases) {
    const ap::PatchSchema* node = PatchSchemas::builtin().of(GroupVersionKind{"", "v1", "Pod"});
    const ap::PatchField* f = nullptr;
    for (auto name : c.path) {
      ASSERT_NE(node, nullptr) << name;
      f = node->lookup(name);
      ASSERT_NE(f, nullptr) << name;
      node = f->schema;
    }
    EXPECT_EQ(f->meta.strategy, c.strategy) << c.path.back();
    EXPECT_EQ(f->meta.merge_key, c.merge_key) << c.path.back();
    EXPECT_EQ(f->meta.retain_keys, c.retain_keys) << c.path.back();
  }
}

TEST(TypePatchSchema, DeploymentStrategyRetainsKeys) {
  const auto* strategy = at({"spec", "strategy"}, {"apps", "v1", "Deployment"});
  ASSERT_NE(strategy, nullptr);
  EXPECT_TRUE(strategy->meta.retain_keys);
  EXPECT_EQ(strategy->meta.strategy, ap::PatchStrategy::kDefault);
  const auto* ports =
      at({"spec", "template", "spec", "containers", "ports"}, {"apps", "v1", "Deployment"});
  ASSERT_NE(ports, nullptr);
  EXPECT_EQ(ports->meta.merge_key, "containerPort");
  const auto* conditions = at({"status", "conditions"}, {"apps", "v1", "Deployment"});
  ASSERT_NE(conditions, nullptr);
  EXPECT_EQ(conditions->meta.merge_key, "type");
}

TEST(TypePatchSchema, KindsAndNesting) {
  EXPECT_EQ(at({"spec", "containers"})->go_kind, "struct");
  EXPECT_EQ(at({"metadata", "finalizers"})->go_kind, "string");
  EXPECT_EQ(at({"metadata", "finalizers"})->schema, nullptr);
  EXPECT_EQ(at({"metadata", "labels"})->go_kind, "map");
  EXPECT_EQ(at({"spec", "replicas"}, {"apps", "v1", "Deployment"})->go_kind, "int32");
  // Inline members answer through their parent.
  EXPECT_NE(at({"spec", "volumes", "hostPath", "path"}), nullptr);
  EXPECT_NE(at({"spec", "containers", "livenessProbe", "httpGet", "port"}), nullptr);
  EXPECT_EQ(at({"spec", "nope"}), nullptr);
  EXPECT_EQ(PatchSchemas::builtin().of(GroupVersionKind{"apps", "v1", "StatefulSet"}), nullptr);
}

}  // namespace
}  // namespace kcm::api::schema
