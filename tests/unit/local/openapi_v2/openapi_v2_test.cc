#include "local/openapi_v2/openapi_v2.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace kcm::local::openapi_v2 {
namespace {

const registry::ResourceTable& table() {
  static const registry::ResourceTable t = registry::builtin_resources();
  return t;
}

const json::value& document() {
  static const json::value d = openapi_v2_json(table());
  return d;
}

const json::object& path(std::string_view p) {
  static const json::object empty;
  const json::value* v = document().at("paths").as_object().if_contains(p);
  EXPECT_NE(v, nullptr) << p;
  return v == nullptr ? empty : v->as_object();
}

std::set<std::string> parameter_names(const json::object& op) {
  std::set<std::string> out;
  if (const auto* params = op.if_contains("parameters")) {
    for (const auto& p : params->as_array())
      out.insert(std::string(p.at("name").as_string()));
  }
  return out;
}

void collect_refs(const json::value& v, std::set<std::string>& out) {
  if (const auto* o = v.if_object()) {
    for (const auto& [k, e] : *o) {
      if (k == "$ref") out.insert(std::string(e.as_string()));
      collect_refs(e, out);
    }
  } else if (const auto* a = v.if_array()) {
    for (const auto& e : *a)
      collect_refs(e, out);
  }
}

TEST(OpenApiV2Document, IsSwagger2WithSortedMembers) {
  EXPECT_EQ(document().at("swagger"), "2.0");
  EXPECT_EQ(document().at("info").at("title"), "Kubernetes");
  std::string previous;
  for (const auto& [k, v] : document().at("definitions").as_object()) {
    EXPECT_LT(previous, std::string(k));
    previous = k;
  }
}

TEST(OpenApiV2Document, EveryReferenceResolves) {
  std::set<std::string> refs;
  collect_refs(document(), refs);
  const auto& definitions = document().at("definitions").as_object();
  EXPECT_GT(refs.size(), 50u);
  for (const auto& ref : refs) {
    ASSERT_TRUE(ref.starts_with("#/definitions/")) << ref;
    EXPECT_TRUE(definitions.contains(ref.substr(14))) << ref;
  }
}

TEST(OpenApiV2Document, EveryServedResourceHasItsPathsAndOperations) {
  for (const auto& r : table().all()) {
    const std::string prefix =
        r->gvr.group.empty() ? "/api/v1" : "/apis/" + r->gvr.group + "/" + r->gvr.version;
    const std::string collection =
        prefix + (r->namespaced ? "/namespaces/{namespace}/" : "/") + r->gvr.resource;
    const auto& coll = path(collection);
    // Reviews (create only) have no item path, as upstream publishes them.
    const bool has_item = r->has_verb("get") || r->has_verb("update") || r->has_verb("patch") ||
                          r->has_verb("delete");
    static const json::object kNone;
    const auto& item = has_item ? path(collection + "/{name}") : kNone;
    if (!has_item) {
      EXPECT_FALSE(document().at("paths").as_object().contains(collection + "/{name}"))
          << collection;
    }
    const json::object gvk{{"group", r->gvr.group}, {"kind", r->kind}, {"version", r->gvr.version}};
    const std::vector<std::pair<std::string, const json::object*>> ops = {
        {"list", &coll},  {"create", &coll}, {"deletecollection", &coll},
        {"get", &item},   {"update", &item}, {"patch", &item},
        {"delete", &item}};
    const std::map<std::string, std::string> method = {
        {"list", "get"},     {"create", "post"}, {"deletecollection", "delete"},
        {"get", "get"},      {"update", "put"},  {"patch", "patch"},
        {"delete", "delete"}};
    for (const auto& [verb, p] : ops) {
      const json::value* op = p->if_contains(method.at(verb));
      EXPECT_EQ(op != nullptr, r->has_verb(verb)) << collection << " " << verb;
      if (op == nullptr) continue;
      EXPECT_EQ(op->at("x-kubernetes-group-version-kind"), gvk) << collection << " " << verb;
      if (verb == "create" || verb == "update" || verb == "patch") {
        // kubectl checks these before it sends fieldValidation and dryRun.
        const auto names = parameter_names(op->as_object());
        EXPECT_TRUE(names.contains("fieldValidation")) << collection << " " << verb;
        EXPECT_TRUE(names.contains("dryRun")) << collection << " " << verb;
        EXPECT_TRUE(names.contains("fieldManager")) << collection << " " << verb;
      }
    }
    for (const auto& s : r->subresources) {
      EXPECT_FALSE(path(collection + "/{name}/" + s.name).empty()) << s.name;
    }
    if (r->namespaced && r->has_verb("list")) {
      EXPECT_TRUE(path(prefix + "/" + r->gvr.resource).contains("get"));
    }
  }
}

TEST(OpenApiV2Document, DeploymentOperationsReadLikeUpstream) {
  const auto& item = path("/apis/apps/v1/namespaces/{namespace}/deployments/{name}");
  const auto& patch = item.at("patch").as_object();
  EXPECT_EQ(patch.at("operationId"), "patchAppsV1NamespacedDeployment");
  EXPECT_EQ(patch.at("x-kubernetes-action"), "patch");
  EXPECT_EQ(
      patch.at("consumes"),
      (json::array{"application/json-patch+json", "application/merge-patch+json",
                   "application/strategic-merge-patch+json", "application/apply-patch+yaml"}));
  EXPECT_EQ(patch.at("responses").at("200").at("schema").at("$ref"),
            "#/definitions/io.k8s.api.apps.v1.Deployment");
  EXPECT_EQ(item.at("get").at("operationId"), "readAppsV1NamespacedDeployment");
  // Reads take the path's parameters only.
  EXPECT_FALSE(item.at("get").as_object().contains("parameters"));
  EXPECT_EQ(parameter_names(item), (std::set<std::string>{"name", "namespace", "pretty"}));
  const auto& list = path("/apis/apps/v1/namespaces/{namespace}/deployments").at("get");
  EXPECT_EQ(list.at("operationId"), "listAppsV1NamespacedDeployment");
  EXPECT_EQ(list.at("responses").at("200").at("schema").at("$ref"),
            "#/definitions/io.k8s.api.apps.v1.DeploymentList");
  const auto& scale = path("/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale");
  EXPECT_EQ(scale.at("get").at("x-kubernetes-group-version-kind"),
            (json::object{{"group", "autoscaling"}, {"kind", "Scale"}, {"version", "v1"}}));
  EXPECT_EQ(path("/api/v1/nodes").at("post").at("operationId"), "createCoreV1Node");
  EXPECT_EQ(
      path("/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases").at("post").at("tags"),
      (json::array{"coordination_v1"}));
}

// pods/{name}/log answers text, as upstream publishes it (a string schema,
// text/plain first, PodLogOptions as the query).
TEST(OpenApiV2Document, PodLogIsText) {
  const auto& get = path("/api/v1/namespaces/{namespace}/pods/{name}/log").at("get").as_object();
  EXPECT_EQ(get.at("operationId"), "readCoreV1NamespacedPodLog");
  EXPECT_EQ(get.at("responses").at("200").at("schema"), (json::object{{"type", "string"}}));
  EXPECT_EQ(get.at("produces").as_array().front(), "text/plain");
  EXPECT_EQ(
      parameter_names(get),
      (std::set<std::string>{"container", "follow", "insecureSkipTLSVerifyBackend", "limitBytes",
                             "previous", "sinceSeconds", "tailLines", "timestamps"}));
  // Other subresource reads keep their kind's schema.
  EXPECT_EQ(path("/api/v1/namespaces/{namespace}/pods/{name}/status")
                .at("get")
                .at("responses")
                .at("200")
                .at("schema")
                .at("$ref"),
            "#/definitions/io.k8s.api.core.v1.Pod");
}

TEST(OpenApiV2Document, ProtobufIsNotEmpty) {
  EXPECT_GT(openapi_v2_protobuf(table()).size(), 10000u);
}

}  // namespace
}  // namespace kcm::local::openapi_v2
