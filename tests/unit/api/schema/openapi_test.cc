#include "api/schema/openapi.h"

#include <gtest/gtest.h>

#include "../api_test_util.h"

namespace kcm::api::schema {
namespace {

const json::object& schema(const json::object& schemas, std::string_view name) {
  static const json::object empty;
  auto it = schemas.find(name);
  EXPECT_NE(it, schemas.end()) << name;
  return it == schemas.end() ? empty : it->value().as_object();
}

TEST(OpenApi, AppsV1DocumentNamesSchemasLikeUpstream) {
  const json::object schemas = component_schemas("apps", "v1");
  const auto& deployment = schema(schemas, "io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(deployment.at("type"), "object");
  EXPECT_EQ(
      deployment.at("x-kubernetes-group-version-kind"),
      (json::array{json::object{{"group", "apps"}, {"kind", "Deployment"}, {"version", "v1"}}}));
  // A $ref with a description is wrapped in allOf, as upstream's v3 documents do.
  EXPECT_EQ(property_schema(deployment, "spec").at("allOf"),
            (json::array{
                json::object{{"$ref", "#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec"}}}));
  EXPECT_EQ(property_schema(deployment, "metadata").at("allOf").as_array()[0].at("$ref"),
            "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  EXPECT_EQ(property_schema(deployment, "apiVersion").at("type"), "string");

  const auto& spec = schema(schemas, "io.k8s.api.apps.v1.DeploymentSpec");
  EXPECT_EQ(spec.at("required"), (json::array{"selector", "template"}));
  EXPECT_EQ(property_schema(spec, "replicas").at("type"), "integer");
  EXPECT_EQ(property_schema(spec, "replicas").at("format"), "int32");
  EXPECT_EQ(property_schema(spec, "strategy").at("x-kubernetes-patch-strategy"), "retainKeys");

  const auto& strategy = schema(schemas, "io.k8s.api.apps.v1.DeploymentStrategy");
  EXPECT_EQ(property_schema(strategy, "type").at("enum"),
            (json::array{"Recreate", "RollingUpdate"}));
  const auto& rolling = schema(schemas, "io.k8s.api.apps.v1.RollingUpdateDeployment");
  EXPECT_EQ(property_schema(rolling, "maxSurge").at("allOf").as_array()[0].at("$ref"),
            "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString");

  const auto& podspec = schema(schemas, "io.k8s.api.core.v1.PodSpec");
  const auto& containers = property_schema(podspec, "containers");
  EXPECT_EQ(containers.at("type"), "array");
  EXPECT_EQ(containers.at("items"),
            (json::object{{"$ref", "#/components/schemas/io.k8s.api.core.v1.Container"}}));
  EXPECT_EQ(containers.at("x-kubernetes-patch-strategy"), "merge");
  EXPECT_EQ(containers.at("x-kubernetes-patch-merge-key"), "name");
  EXPECT_EQ(containers.at("x-kubernetes-list-type"), "map");
  EXPECT_EQ(containers.at("x-kubernetes-list-map-keys"), (json::array{"name"}));
  EXPECT_EQ(property_schema(podspec, "volumes").at("x-kubernetes-patch-strategy"),
            "merge,retainKeys");
  EXPECT_EQ(property_schema(podspec, "nodeSelector").at("x-kubernetes-map-type"), "atomic");
  EXPECT_EQ(property_schema(podspec, "nodeSelector").at("additionalProperties"),
            (json::object{{"type", "string"}}));

  // Inline members are flattened into the parent.
  const auto& volume = schema(schemas, "io.k8s.api.core.v1.Volume");
  EXPECT_TRUE(volume.at("properties").as_object().contains("hostPath"));
  EXPECT_FALSE(volume.at("properties").as_object().contains("volumeSource"));

  EXPECT_EQ(schema(schemas, "io.k8s.api.core.v1.LocalObjectReference").at("x-kubernetes-map-type"),
            "atomic");
  EXPECT_EQ(schema(schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.Time").at("format"), "date-time");
  // IntOrString and Quantity have no top-level type, so kubectl explain prints
  // <IntOrString> and <map[string]Quantity> as it does against a real cluster.
  const auto& int_or_string = schema(schemas, "io.k8s.apimachinery.pkg.util.intstr.IntOrString");
  EXPECT_EQ(int_or_string.at("format"), "int-or-string");
  EXPECT_FALSE(int_or_string.contains("type"));
  EXPECT_EQ(int_or_string.at("oneOf").as_array().size(), 2u);
  EXPECT_FALSE(schema(schemas, "io.k8s.apimachinery.pkg.api.resource.Quantity").contains("type"));
  // The scale subresource's body, lists, Status and DeleteOptions come along.
  EXPECT_EQ(schema(schemas, "io.k8s.api.autoscaling.v1.Scale")
                .at("x-kubernetes-group-version-kind")
                .as_array()[0]
                .at("group"),
            "autoscaling");
  const auto& list = schema(schemas, "io.k8s.api.apps.v1.DeploymentList");
  EXPECT_EQ(list.at("x-kubernetes-group-version-kind").as_array()[0].at("kind"), "DeploymentList");
  EXPECT_EQ(property_schema(list, "items").at("items").at("$ref"),
            "#/components/schemas/io.k8s.api.apps.v1.Deployment");
  schema(schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.Status");
  schema(schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions");
  // Types of other group-versions are not included.
  EXPECT_FALSE(schemas.contains("io.k8s.api.core.v1.Pod"));
  EXPECT_FALSE(schemas.contains("io.k8s.api.coordination.v1.Lease"));
}

// Every $ref points at a schema of the same document.
TEST(OpenApi, DocumentsAreSelfContained) {
  const std::vector<std::pair<std::string, std::string>> gvs = {{"", "v1"},
                                                                {"apps", "v1"},
                                                                {"coordination.k8s.io", "v1"},
                                                                {"events.k8s.io", "v1"},
                                                                {"autoscaling", "v1"}};
  for (const auto& [group, version] : gvs) {
    const json::object schemas = component_schemas(group, version);
    ASSERT_FALSE(schemas.empty()) << group;
    std::vector<const json::value*> stack;
    for (const auto& s : schemas)
      stack.push_back(&s.value());
    while (!stack.empty()) {
      const json::value* v = stack.back();
      stack.pop_back();
      if (v->is_object()) {
        for (const auto& m : v->as_object()) {
          if (m.key() == "$ref") {
            const std::string ref(m.value().as_string());
            ASSERT_EQ(ref.rfind("#/components/schemas/", 0), 0u) << ref;
            EXPECT_TRUE(schemas.contains(ref.substr(21))) << group << ": " << ref;
          }
          stack.push_back(&m.value());
        }
      } else if (v->is_array()) {
        for (const auto& item : v->as_array())
          stack.push_back(&item);
      }
    }
  }
  EXPECT_TRUE(component_schemas("apps", "v2").empty());
  EXPECT_TRUE(openapi_v3_document("batch", "v1").is_null());
}

TEST(OpenApi, CoreV1AndReferences) {
  const json::object schemas = component_schemas("", "v1");
  for (std::string_view kind : {"Pod", "Namespace", "Node", "Event", "Binding"}) {
    const auto& s = schema(schemas, "io.k8s.api.core.v1." + std::string(kind));
    EXPECT_EQ(s.at("x-kubernetes-group-version-kind").as_array()[0].at("kind"), json::string(kind));
  }
  EXPECT_TRUE(schemas.contains("io.k8s.api.core.v1.PodList"));
  EXPECT_FALSE(schemas.contains("io.k8s.api.core.v1.BindingList"));
  const auto& meta = schema(schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  EXPECT_EQ(property_schema(meta, "finalizers").at("x-kubernetes-list-type"), "set");
  EXPECT_EQ(property_schema(meta, "ownerReferences").at("x-kubernetes-patch-merge-key"), "uid");

  EXPECT_EQ(schema_ref({"apps", "v1", "Deployment"}),
            "#/components/schemas/io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(list_schema_ref({"", "v1", "Pod"}), "#/components/schemas/io.k8s.api.core.v1.PodList");
  EXPECT_EQ(schema_ref({"apps", "v1", "Nope"}), "");
  EXPECT_EQ(json_content("#/x"),
            (json::object{
                {"application/json", json::object{{"schema", json::object{{"$ref", "#/x"}}}}}}));

  json::object doc{{"openapi", "3.0.0"}, {"paths", json::object{{"/api/v1/pods", json::object{}}}}};
  add_component_schemas(doc, "", "v1");
  EXPECT_TRUE(doc.at("paths").as_object().contains("/api/v1/pods"));
  EXPECT_TRUE(doc.at("components").at("schemas").as_object().contains("io.k8s.api.core.v1.Pod"));
}

}  // namespace
}  // namespace kcm::api::schema
