#include "local/apiserver/field_managers.h"

#include "api/schema/canonical.h"
#include "api/schema/registry.h"
#include "local/crd/structural_schema.h"

namespace kcm::local::apiserver {

namespace fm = fieldmanager;

namespace {

std::string_view subresource_name(Subresource sub) {
  switch (sub) {
    case Subresource::kStatus:
      return "status";
    case Subresource::kFinalize:
      return "finalize";
    case Subresource::kNone:
    case Subresource::kSystem:
      break;
  }
  return "";
}

fm::Path path(std::initializer_list<const char*> fields) {
  fm::Path p;
  for (const char* f : fields)
    p.push_back(fm::PathElement::field(f));
  return p;
}

// The reset fields of the 1.33 strategies.
fm::FieldSet reset_fields(const ResourceInfo& info, Subresource sub) {
  fm::FieldSet reset;
  const bool has_status = info.subresource("status") != nullptr;
  const std::string store = info.store_name();
  switch (sub) {
    case Subresource::kNone:
      if (has_status) reset.insert(path({"status"}));
      break;
    case Subresource::kStatus:
      reset.insert(path({"spec"}));
      if (store == "apps/deployments") reset.insert(path({"metadata", "labels"}));
      if (store == "core/pods") {
        reset.insert(path({"metadata", "deletionTimestamp"}));
        reset.insert(path({"metadata", "ownerReferences"}));
      }
      if (store == "apiextensions.k8s.io/customresourcedefinitions")
        reset.insert(path({"metadata"}));
      break;
    case Subresource::kFinalize:
      reset.insert(path({"status"}));
      break;
    case Subresource::kSystem:
      break;
  }
  return reset;
}

}  // namespace

namespace {

// A kind's field manager: typed by a custom resource's schema (which it keeps
// alive), else by the built-in definitions when there are some.
std::shared_ptr<const fm::FieldManager> make_manager(const api::GroupVersionKind& gvk,
                                                     std::string subresource, fm::FieldSet reset,
                                                     std::shared_ptr<const crd::Schema> schema) {
  fm::TypeRef type = fm::TypeRef::untyped();
  json::value zero = json::object();
  if (schema != nullptr) {
    type = fm::TypeRef::of(*schema);
  } else if (const api::schema::Type* root = api::schema::Registry::builtin().root(gvk)) {
    type = fm::TypeRef::of(*root);
    api::schema::canonicalize(zero, *root);
  }
  return std::make_shared<const fm::FieldManager>(type, std::move(zero.get_object()),
                                                  gvk.api_version(), std::move(subresource),
                                                  std::move(reset), std::move(schema));
}

}  // namespace

const api::GroupVersionKind& scale_kind() {
  static const api::GroupVersionKind kind{"autoscaling", "v1", "Scale"};
  return kind;
}

FieldManagers::FieldManagers() : scale_(make_manager(scale_kind(), "scale", {}, nullptr)) {}

std::shared_ptr<const fm::FieldManager> FieldManagers::of(const ResourceInfo& info,
                                                          Subresource sub) {
  const bool has_status = info.subresource("status") != nullptr;
  const std::string key = info.api_version() + "/" + info.kind + "/" +
                          std::string(subresource_name(sub)) + (has_status ? "+status" : "");
  const crd::Schema* schema = info.structural_schema.get();
  std::lock_guard lock(mu_);
  if (auto it = made_.find(key); it != made_.end() && it->second.schema == schema) {
    return it->second.manager;
  }
  auto made = make_manager(info.gvk(), std::string(subresource_name(sub)), reset_fields(info, sub),
                           info.structural_schema);
  made_.insert_or_assign(key, Made{schema, made});
  return made;
}

fm::ReplicasPaths replicas_paths(const ResourceInfo& info) {
  fm::ReplicasPaths out;
  if (!info.spec_replicas_paths.empty()) {
    for (const auto& [api_version, json_path] : info.spec_replicas_paths) {
      if (json_path.empty()) {
        out.emplace(api_version, std::nullopt);
        continue;
      }
      // ".spec.replicas": field names only, as CRD validation requires.
      fm::Path p;
      std::string_view rest = json_path;
      if (rest.starts_with('.')) rest.remove_prefix(1);
      while (true) {
        const std::size_t dot = rest.find('.');
        p.push_back(fm::PathElement::field(std::string(rest.substr(0, dot))));
        if (dot == std::string_view::npos) break;
        rest.remove_prefix(dot + 1);
      }
      out.emplace(api_version, std::move(p));
    }
    return out;
  }
  const std::string store = info.store_name();
  std::vector<std::string_view> versions;
  if (store == "apps/deployments" || store == "apps/statefulsets") {
    versions = {"apps/v1beta1", "apps/v1beta2", "apps/v1"};
  } else if (store == "apps/replicasets") {
    versions = {"apps/v1beta2", "apps/v1"};
  } else if (store == "core/replicationcontrollers") {
    versions = {"v1"};
  }
  for (std::string_view v : versions)
    out.emplace(std::string(v), path({"spec", "replicas"}));
  return out;
}

std::string manager_or_user_agent(std::string_view field_manager, std::string_view user_agent) {
  if (!field_manager.empty()) return std::string(field_manager);
  return fm::manager_from_user_agent(user_agent);
}

}  // namespace kcm::local::apiserver
