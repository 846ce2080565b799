#include "api/schema/openapi_v2.h"

#include <gtest/gtest.h>

#include "../api_test_util.h"

namespace kcm::api::schema {
namespace {

const std::vector<GroupVersionKind> kKinds = {{"apps", "v1", "Deployment"},
                                              {"autoscaling", "v1", "Scale"},
                                              {"", "v1", "Pod"},
                                              {"", "v1", "Binding"},
                                              {"coordination.k8s.io", "v1", "Lease"}};

const json::object& definitions() {
  static const json::object d = openapi_v2_definitions(kKinds);
  return d;
}

const json::object& def(std::string_view name) {
  static const json::object empty;
  auto it = definitions().find(name);
  EXPECT_NE(it, definitions().end()) << name;
  return it == definitions().end() ? empty : it->value().as_object();
}

json::array gvk(std::string_view group, std::string_view version, std::string_view kind) {
  return {json::object{{"group", group}, {"kind", kind}, {"version", version}}};
}

TEST(OpenApiV2, KindsAreNamedAndTaggedLikeUpstream) {
  const auto& deployment = def("io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(deployment.at("type"), "object");
  EXPECT_EQ(deployment.at("x-kubernetes-group-version-kind"), gvk("apps", "v1", "Deployment"));
  // v2 keeps a referring field's description beside its $ref (no allOf).
  EXPECT_EQ(property_schema(deployment, "spec").at("$ref"),
            "#/definitions/io.k8s.api.apps.v1.DeploymentSpec");
  EXPECT_TRUE(property_schema(deployment, "spec").contains("description"));
  EXPECT_FALSE(property_schema(deployment, "spec").contains("allOf"));
  EXPECT_EQ(property_schema(deployment, "metadata").at("$ref"),
            "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  EXPECT_EQ(def("io.k8s.api.core.v1.Pod").at("x-kubernetes-group-version-kind"),
            gvk("", "v1", "Pod"));
  EXPECT_EQ(def("io.k8s.api.autoscaling.v1.Scale").at("x-kubernetes-group-version-kind"),
            gvk("autoscaling", "v1", "Scale"));
  EXPECT_EQ(
      def("io.k8s.apimachinery.pkg.apis.meta.v1.Status").at("x-kubernetes-group-version-kind"),
      gvk("", "v1", "Status"));
  // Every member name is sorted, as upstream's swagger.json.
  std::string previous;
  for (const auto& [k, v] : deployment) {
    EXPECT_LT(previous, std::string(k));
    previous = k;
  }
}

TEST(OpenApiV2, ListsForServedCollectionsOnly) {
  const auto& list = def("io.k8s.api.apps.v1.DeploymentList");
  EXPECT_EQ(list.at("x-kubernetes-group-version-kind"), gvk("apps", "v1", "DeploymentList"));
  EXPECT_EQ(list.at("required"), (json::array{"items"}));
  EXPECT_EQ(property_schema(list, "items").at("items").at("$ref"),
            "#/definitions/io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(property_schema(list, "metadata").at("$ref"),
            "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta");
  EXPECT_TRUE(definitions().contains("io.k8s.api.core.v1.PodList"));
  EXPECT_TRUE(definitions().contains("io.k8s.api.coordination.v1.LeaseList"));
  EXPECT_FALSE(definitions().contains("io.k8s.api.autoscaling.v1.ScaleList"));
  EXPECT_FALSE(definitions().contains("io.k8s.api.core.v1.BindingList"));
  // DeleteOptions names every group-version with collections, sorted.
  EXPECT_EQ(def("io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions")
                .at("x-kubernetes-group-version-kind"),
            (json::array{gvk("", "v1", "DeleteOptions")[0], gvk("apps", "v1", "DeleteOptions")[0],
                         gvk("coordination.k8s.io", "v1", "DeleteOptions")[0]}));
  EXPECT_TRUE(definitions().contains("io.k8s.apimachinery.pkg.apis.meta.v1.Patch"));
}

TEST(OpenApiV2, PatchAndListMetadata) {
  const auto& podspec = def("io.k8s.api.core.v1.PodSpec");
  const auto& containers = property_schema(podspec, "containers");
  EXPECT_EQ(containers.at("type"), "array");
  EXPECT_EQ(containers.at("items"),
            (json::object{{"$ref", "#/definitions/io.k8s.api.core.v1.Container"}}));
  EXPECT_EQ(containers.at("x-kubernetes-patch-strategy"), "merge");
  EXPECT_EQ(containers.at("x-kubernetes-patch-merge-key"), "name");
  EXPECT_EQ(containers.at("x-kubernetes-list-type"), "map");
  EXPECT_EQ(containers.at("x-kubernetes-list-map-keys"), (json::array{"name"}));
  EXPECT_EQ(property_schema(podspec, "volumes").at("x-kubernetes-patch-strategy"),
            "merge,retainKeys");
  EXPECT_EQ(property_schema(podspec, "tolerations").at("x-kubernetes-list-type"), "atomic");
  EXPECT_EQ(property_schema(podspec, "nodeSelector").at("x-kubernetes-map-type"), "atomic");
  EXPECT_EQ(property_schema(podspec, "nodeSelector").at("additionalProperties"),
            (json::object{{"type", "string"}}));

  const auto& container = def("io.k8s.api.core.v1.Container");
  EXPECT_EQ(container.at("required"), (json::array{"name"}));
  const auto& ports = property_schema(container, "ports");
  EXPECT_EQ(ports.at("x-kubernetes-list-map-keys"), (json::array{"containerPort", "protocol"}));
  EXPECT_EQ(ports.at("x-kubernetes-patch-merge-key"), "containerPort");
  EXPECT_EQ(property_schema(container, "env").at("x-kubernetes-patch-merge-key"), "name");
  EXPECT_EQ(property_schema(container, "imagePullPolicy").at("enum"),
            (json::array{"Always", "IfNotPresent", "Never"}));

  const auto& spec = def("io.k8s.api.apps.v1.DeploymentSpec");
  EXPECT_EQ(spec.at("required"), (json::array{"selector", "template"}));
  EXPECT_EQ(property_schema(spec, "replicas"),
            (json::object{{"description", property_schema(spec, "replicas").at("description")},
                          {"format", "int32"},
                          {"type", "integer"}}));
  EXPECT_EQ(property_schema(spec, "strategy").at("x-kubernetes-patch-strategy"), "retainKeys");
}

TEST(OpenApiV2, WellKnownTypes) {
  const auto shape = [](std::string_view name) {
    json::object s = def(name);
    s.erase("description");
    return s;
  };
  EXPECT_EQ(shape("io.k8s.apimachinery.pkg.util.intstr.IntOrString"),
            (json::object{{"format", "int-or-string"}, {"type", "string"}}));
  EXPECT_EQ(shape("io.k8s.apimachinery.pkg.api.resource.Quantity"),
            (json::object{{"type", "string"}}));
  EXPECT_EQ(shape("io.k8s.apimachinery.pkg.apis.meta.v1.Time"),
            (json::object{{"format", "date-time"}, {"type", "string"}}));
  EXPECT_EQ(shape("io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime"),
            (json::object{{"format", "date-time"}, {"type", "string"}}));
  EXPECT_EQ(shape("io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1"),
            (json::object{{"type", "object"}}));
  EXPECT_EQ(
      property_schema(def("io.k8s.api.apps.v1.RollingUpdateDeployment"), "maxSurge").at("$ref"),
      "#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString");
}

TEST(OpenApiV2, RefsAndUnknownKinds) {
  EXPECT_EQ(openapi_v2_ref({"apps", "v1", "Deployment"}),
            "#/definitions/io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(openapi_v2_list_ref({"apps", "v1", "Deployment"}),
            "#/definitions/io.k8s.api.apps.v1.DeploymentList");
  EXPECT_EQ(openapi_v2_list_ref({"autoscaling", "v1", "Scale"}), "");
  EXPECT_EQ(openapi_v2_ref({"example.com", "v1", "Widget"}), "");
  EXPECT_EQ(openapi_v2_status_ref(), "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status");
  EXPECT_EQ(openapi_v2_delete_options_ref(),
            "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions");
  // A kind the registry lacks is skipped, not an error.
  const json::object d = openapi_v2_definitions({{"example.com", "v1", "Widget"}});
  EXPECT_FALSE(d.contains("io.example.v1.Widget"));
  EXPECT_TRUE(d.contains("io.k8s.apimachinery.pkg.apis.meta.v1.Status"));
}

TEST(SortObjectKeys, SortsEveryObjectAndKeepsArrays) {
  json::value v = json::object{{"b", 1}, {"a", json::array{json::object{{"d", 1}, {"c", 2}}, 3}}};
  sort_object_keys(v);
  EXPECT_EQ(json::serialize(v), R"({"a":[{"c":2,"d":1},3],"b":1})");
}

}  // namespace
}  // namespace kcm::api::schema
