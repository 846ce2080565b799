#include "controller/pod_template.h"

#include "api/name_validation.h"

namespace kcm::controller {

namespace {

// A non-empty string map member of the template metadata, copied.
void copy_nonempty_object(const json::object* from, std::string_view key, json::object& to) {
  if (from == nullptr) return;
  const json::object* o = api::find_object(*from, key);
  if (o != nullptr && !o->empty()) to[key] = *o;
}

}  // namespace

api::OwnerReference new_controller_ref(std::string_view api_version, std::string_view kind,
                                       std::string_view name, std::string_view uid) {
  api::OwnerReference ref;
  ref.api_version = std::string(api_version);
  ref.kind = std::string(kind);
  ref.name = std::string(name);
  ref.uid = std::string(uid);
  ref.controller = true;
  ref.block_owner_deletion = true;
  return ref;
}

Result<void> validate_controller_ref(const api::OwnerReference& ref) {
  if (ref.api_version.empty()) return fail("controllerRef has empty APIVersion");
  if (ref.kind.empty()) return fail("controllerRef has empty Kind");
  if (!ref.controller.value_or(false)) return fail("controllerRef.Controller is not set to true");
  if (!ref.block_owner_deletion.value_or(false)) {
    return fail("controllerRef.BlockOwnerDeletion is not set");
  }
  return {};
}

std::string pods_generate_name_prefix(std::string_view controller_name) {
  std::string prefix = std::string(controller_name) + "-";
  if (!api::name_is_dns_subdomain(prefix, /*prefix=*/true).empty()) {
    prefix = std::string(controller_name);
  }
  return prefix;
}

json::object pod_from_template(const json::object& pod_template, std::string_view owner_name,
                               const api::OwnerReference& controller_ref) {
  const json::object* tmeta = api::find_object(pod_template, "metadata");
  json::object meta;
  meta["generateName"] = pods_generate_name_prefix(owner_name);
  copy_nonempty_object(tmeta, "labels", meta);
  copy_nonempty_object(tmeta, "annotations", meta);
  meta["ownerReferences"] = json::array{controller_ref.to_json()};
  if (tmeta != nullptr) {
    const json::array* finalizers = api::find_array(*tmeta, "finalizers");
    if (finalizers != nullptr && !finalizers->empty()) meta["finalizers"] = *finalizers;
  }
  json::object pod;
  pod["apiVersion"] = "v1";
  pod["kind"] = "Pod";
  pod["metadata"] = std::move(meta);
  const json::object* spec = api::find_object(pod_template, "spec");
  pod["spec"] = spec != nullptr ? *spec : json::object{};
  return pod;
}

Result<void> check_pod_for_create(const json::object& pod,
                                  const api::OwnerReference& controller_ref) {
  if (auto r = validate_controller_ref(controller_ref); !r.ok()) return r;
  const json::object* meta = api::find_object(pod, "metadata");
  const json::object* labels = meta != nullptr ? api::find_object(*meta, "labels") : nullptr;
  if (labels == nullptr || labels->empty()) return fail("unable to create pods, no labels");
  return {};
}

std::string created_pod_message(std::string_view pod_name) {
  return "Created pod: " + std::string(pod_name);
}
std::string failed_create_pod_message(std::string_view error) {
  return "Error creating: " + std::string(error);
}
std::string deleted_pod_message(std::string_view pod_name) {
  return "Deleted pod: " + std::string(pod_name);
}
std::string failed_delete_pod_message(std::string_view error) {
  return "Error deleting: " + std::string(error);
}

}  // namespace kcm::controller
