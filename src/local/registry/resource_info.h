// What kcm-local serves: one ResourceInfo per resource (group, version,
// plural, kind, scope, discovery names, subresources, selectable fields and
// the strategy with its API rules). Discovery, routing and the REST store are
// all driven by this table.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/group_version.h"
#include "local/registry/allocator.h"
#include "local/registry/service_ranges.h"
#include "local/registry/strategy.h"

namespace kcm::local::crd {
struct Schema;
}  // namespace kcm::local::crd

namespace kcm::local::registry {

// Converts objects of a served version to and from the form another resource
// stores them in (events.k8s.io/v1 Events are core/v1 Events underneath, as
// upstream stores both in one place).
class Conversion {
 public:
  virtual ~Conversion() = default;
  virtual void to_storage(json::object& obj) const = 0;
  virtual void from_storage(json::object& obj) const = 0;
};

struct SubresourceInfo {
  std::string name;  // "status", "scale", "binding", "finalize"
  api::GroupVersionKind response_kind;
  std::vector<std::string> verbs;
};

// A custom resource's additionalPrinterColumns entry: a Table column whose
// cells come from `json_path` (kubectl's JSONPath dialect).
struct PrinterColumn {
  std::string name;
  std::string type;  // integer, number, string, boolean, date
  std::string format;
  std::string description;
  int priority = 0;
  std::string json_path;
};

// A custom resource's scale subresource: where autoscaling/v1 Scale's fields
// live in the object (JSON paths such as ".spec.replicas").
struct ScalePaths {
  std::string spec_replicas;
  std::string status_replicas;
  std::string label_selector;  // empty: none
};

struct ResourceInfo {
  api::GroupVersionResource gvr;
  std::string kind;
  std::string singular;
  bool namespaced = true;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  std::vector<std::string> verbs;
  std::vector<SubresourceInfo> subresources;
  // "metadata.name", "metadata.namespace", then the kind's own (see Strategy::field_values).
  std::vector<std::string> selectable_fields;
  // DELETE answers with the object (true) or with a Status of kind Success (false).
  bool delete_returns_object = true;
  // Objects live in another resource's storage (e.g. "core/events"), converted
  // by `conversion`; their selectable field values are the storage kind's, in
  // the same order as selectable_fields.
  std::string storage;
  std::shared_ptr<const Conversion> conversion;
  std::shared_ptr<const Strategy> strategy;
  // Kinds whose writes take from a shared pool (Services: cluster IPs, node ports).
  std::shared_ptr<const Allocator> allocator;
  // Custom resources only: the Table columns (empty: the built-in printer or
  // the default one) and the scale subresource's paths.
  std::vector<PrinterColumn> printer_columns;
  std::optional<ScalePaths> scale_paths;
  // A custom resource's every version (as apiVersion) and its scale
  // subresource's specReplicasPath, "" where it has none: what managed fields
  // written through /scale are translated with.
  std::map<std::string, std::string> spec_replicas_paths;
  // A custom resource's structural schema (of this version), which server-side
  // apply types its objects by.
  std::shared_ptr<const crd::Schema> structural_schema;
  // A custom resource whose CRD is being deleted: no new objects.
  bool terminating = false;
  // An access or identity review (authorization.k8s.io, authentication.k8s.io):
  // created and answered from the request, never stored.
  bool review = false;

  api::GroupVersionKind gvk() const { return {gvr.group, gvr.version, kind}; }
  api::GroupResource group_resource() const { return gvr.group_resource(); }
  std::string api_version() const {
    return api::GroupVersion{gvr.group, gvr.version}.api_version();
  }
  // The storage name, e.g. "apps/deployments" or "core/pods".
  std::string store_name() const {
    if (!storage.empty()) return storage;
    return (gvr.group.empty() ? std::string("core") : gvr.group) + "/" + gvr.resource;
  }
  const SubresourceInfo* subresource(std::string_view name) const {
    for (const auto& s : subresources) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }
  bool has_verb(std::string_view verb) const {
    for (const auto& v : verbs) {
      if (v == verb) return true;
    }
    return false;
  }
};

// The set of served resources.
class ResourceTable {
 public:
  void add(ResourceInfo info) {
    resources_.push_back(std::make_shared<const ResourceInfo>(std::move(info)));
  }
  void add(std::shared_ptr<const ResourceInfo> info) { resources_.push_back(std::move(info)); }
  const ResourceInfo* find(std::string_view group, std::string_view version,
                           std::string_view resource) const;
  const ResourceInfo* find_kind(std::string_view group, std::string_view kind) const;
  const ResourceInfo* find_store_name(std::string_view store_name) const;
  // The shared entry behind `info` (null when `info` is not in this table).
  std::shared_ptr<const ResourceInfo> share(const ResourceInfo* info) const;
  const std::vector<std::shared_ptr<const ResourceInfo>>& all() const { return resources_; }

 private:
  std::vector<std::shared_ptr<const ResourceInfo>> resources_;
};

// Every verb of a fully served resource (built-in or custom), in discovery's order.
extern const std::vector<std::string> kAllVerbs;

// The feature gates that change what kcm-local's built-in kinds keep.
struct ApiFeatures {
  // DeploymentReplicaSetTerminatingReplicas: status writes keep
  // status.terminatingReplicas of Deployments and ReplicaSets.
  bool terminating_replicas = false;
};

// The built-in kinds kcm-local serves (core/v1, apps/v1, coordination/v1, events/v1);
// Services allocate from `services`.
ResourceTable builtin_resources(const ApiFeatures& features = {},
                                const ServiceRanges& services = {});

}  // namespace kcm::local::registry
