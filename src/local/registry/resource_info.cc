#include "local/registry/resource_info.h"

#include <algorithm>
#include <cctype>

#include "local/registry/reviews.h"
#include "local/registry/service_allocator.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {

const ResourceInfo* ResourceTable::find(std::string_view group, std::string_view version,
                                        std::string_view resource) const {
  for (const auto& r : resources_) {
    if (r->gvr.group == group && r->gvr.version == version && r->gvr.resource == resource) {
      return r.get();
    }
  }
  return nullptr;
}

const ResourceInfo* ResourceTable::find_kind(std::string_view group, std::string_view kind) const {
  for (const auto& r : resources_) {
    if (r->gvr.group == group && r->kind == kind) return r.get();
  }
  return nullptr;
}

const ResourceInfo* ResourceTable::find_store_name(std::string_view store_name) const {
  for (const auto& r : resources_) {
    if (r->store_name() == store_name) return r.get();
  }
  return nullptr;
}

std::shared_ptr<const ResourceInfo> ResourceTable::share(const ResourceInfo* info) const {
  for (const auto& r : resources_) {
    if (r.get() == info) return r;
  }
  return nullptr;
}

const std::vector<std::string> kAllVerbs = {"create", "delete", "deletecollection", "get",
                                            "list",   "patch",  "update",           "watch"};

namespace {

const std::vector<std::string> kStatusVerbs = {"get", "patch", "update"};

std::vector<std::string> fields(std::initializer_list<std::string> own) {
  std::vector<std::string> out = {"metadata.name", "metadata.namespace"};
  out.insert(out.end(), own);
  return out;
}

}  // namespace

ResourceTable builtin_resources(const ApiFeatures& features, const ServiceRanges& services) {
  ResourceTable table;
  const api::GroupVersionKind scale{"autoscaling", "v1", "Scale"};

  table.add({.gvr = {"", "v1", "namespaces"},
             .kind = "Namespace",
             .singular = "namespace",
             .namespaced = false,
             .short_names = {"ns"},
             .verbs = {"create", "delete", "get", "list", "patch", "update", "watch"},
             .subresources = {{"finalize", {"", "v1", "Namespace"}, {"update"}},
                              {"status", {"", "v1", "Namespace"}, kStatusVerbs}},
             .selectable_fields = fields({"status.phase"}),
             .strategy = namespace_strategy()});
  table.add({.gvr = {"", "v1", "nodes"},
             .kind = "Node",
             .singular = "node",
             .namespaced = false,
             .short_names = {"no"},
             .verbs = kAllVerbs,
             .subresources = {{"status", {"", "v1", "Node"}, kStatusVerbs}},
             .selectable_fields = fields({"spec.unschedulable"}),
             .delete_returns_object = false,
             .strategy = node_strategy()});
  table.add(
      {.gvr = {"", "v1", "pods"},
       .kind = "Pod",
       .singular = "pod",
       .short_names = {"po"},
       .categories = {"all"},
       .verbs = kAllVerbs,
       .subresources = {{"binding", {"", "v1", "Binding"}, {"create"}},
                        {"log", {"", "v1", "Pod"}, {"get"}},
                        {"status", {"", "v1", "Pod"}, kStatusVerbs}},
       .selectable_fields = fields({"spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
                                    "spec.serviceAccountName", "spec.hostNetwork", "status.phase",
                                    "status.podIP", "status.nominatedNodeName"}),
       .strategy = pod_strategy()});
  table.add({.gvr = {"", "v1", "events"},
             .kind = "Event",
             .singular = "event",
             .short_names = {"ev"},
             .verbs = kAllVerbs,
             .selectable_fields =
                 fields({"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
                         "involvedObject.uid", "involvedObject.apiVersion",
                         "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason",
                         "reportingComponent", "source", "type"}),
             .delete_returns_object = false,
             .strategy = core_event_strategy()});
  table.add({.gvr = {"", "v1", "resourcequotas"},
             .kind = "ResourceQuota",
             .singular = "resourcequota",
             .short_names = {"quota"},
             .verbs = kAllVerbs,
             .subresources = {{"status", {"", "v1", "ResourceQuota"}, kStatusVerbs}},
             .selectable_fields = fields({}),
             .delete_returns_object = false,
             .strategy = resource_quota_strategy()});
  table.add({.gvr = {"", "v1", "limitranges"},
             .kind = "LimitRange",
             .singular = "limitrange",
             .short_names = {"limits"},
             .verbs = kAllVerbs,
             .selectable_fields = fields({}),
             .delete_returns_object = false,
             .strategy = limit_range_strategy()});
  table.add({.gvr = {"", "v1", "configmaps"},
             .kind = "ConfigMap",
             .singular = "configmap",
             .short_names = {"cm"},
             .verbs = kAllVerbs,
             .selectable_fields = fields({}),
             .delete_returns_object = false,
             .strategy = config_map_strategy()});
  table.add({.gvr = {"", "v1", "secrets"},
             .kind = "Secret",
             .singular = "secret",
             .verbs = kAllVerbs,
             .selectable_fields = fields({"type"}),
             .delete_returns_object = false,
             .strategy = secret_strategy()});
  table.add({.gvr = {"", "v1", "services"},
             .kind = "Service",
             .singular = "service",
             .short_names = {"svc"},
             .categories = {"all"},
             // Upstream serves no deletecollection for Services.
             .verbs = {"create", "delete", "get", "list", "patch", "update", "watch"},
             .subresources = {{"status", {"", "v1", "Service"}, kStatusVerbs}},
             .selectable_fields = fields({"spec.clusterIP", "spec.type"}),
             .strategy = service_strategy(),
             .allocator = service_allocator(services)});
  table.add({.gvr = {"apps", "v1", "deployments"},
             .kind = "Deployment",
             .singular = "deployment",
             .short_names = {"deploy"},
             .categories = {"all"},
             .verbs = kAllVerbs,
             .subresources = {{"scale", scale, {"get", "patch", "update"}},
                              {"status", {"apps", "v1", "Deployment"}, kStatusVerbs}},
             .selectable_fields = fields({}),
             .delete_returns_object = false,
             .strategy = deployment_strategy(features)});
  table.add({.gvr = {"apps", "v1", "replicasets"},
             .kind = "ReplicaSet",
             .singular = "replicaset",
             .short_names = {"rs"},
             .categories = {"all"},
             .verbs = kAllVerbs,
             .subresources = {{"scale", scale, {"get", "patch", "update"}},
                              {"status", {"apps", "v1", "ReplicaSet"}, kStatusVerbs}},
             .selectable_fields = fields({"status.replicas"}),
             .delete_returns_object = false,
             .strategy = replica_set_strategy(features)});
  table.add({.gvr = {"coordination.k8s.io", "v1", "leases"},
             .kind = "Lease",
             .singular = "lease",
             .verbs = kAllVerbs,
             .selectable_fields = fields({}),
             .delete_returns_object = false,
             .strategy = lease_strategy()});
  table.add({.gvr = {"events.k8s.io", "v1", "events"},
             .kind = "Event",
             .singular = "event",
             .short_names = {"ev"},
             .verbs = kAllVerbs,
             // In the order of core/v1 Events' fields: the values come from the stored form.
             .selectable_fields =
                 fields({"regarding.kind", "regarding.namespace", "regarding.name", "regarding.uid",
                         "regarding.apiVersion", "regarding.resourceVersion", "regarding.fieldPath",
                         "reason", "reportingController", "deprecatedSource", "type"}),
             .delete_returns_object = false,
             .storage = "core/events",
             .conversion = events_to_core_conversion(),
             .strategy = events_event_strategy()});
  // kcm-local authorizes every authenticated request (kube-apiserver's
  // AlwaysAllow mode): the reviews answer from that and from the user the
  // request was authenticated as.
  const auto review = [](std::string group, std::string kind) {
    std::string singular = kind;
    std::transform(singular.begin(), singular.end(), singular.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ResourceInfo{.gvr = {std::move(group), "v1", singular + "s"},
                        .kind = std::move(kind),
                        .singular = singular,
                        .namespaced = false,
                        .verbs = {"create"},
                        .selectable_fields = fields({}),
                        .strategy = review_strategy(),
                        .review = true};
  };
  table.add(review("authentication.k8s.io", "SelfSubjectReview"));
  table.add(review("authorization.k8s.io", "SelfSubjectAccessReview"));
  table.add(review("authorization.k8s.io", "SelfSubjectRulesReview"));
  table.add({.gvr = {"apiextensions.k8s.io", "v1", "customresourcedefinitions"},
             .kind = "CustomResourceDefinition",
             .singular = "customresourcedefinition",
             .namespaced = false,
             .short_names = {"crd", "crds"},
             .categories = {"api-extensions"},
             .verbs = kAllVerbs,
             .subresources = {{"status",
                               {"apiextensions.k8s.io", "v1", "CustomResourceDefinition"},
                               kStatusVerbs}},
             .selectable_fields = fields({}),
             .delete_returns_object = false,
             .strategy = custom_resource_definition_strategy()});
  return table;
}

}  // namespace kcm::local::registry
