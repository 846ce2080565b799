#include "controller/client_pod_control.h"

#include <optional>
#include <string>

#include "controller/pod_template.h"
#include "log/log.h"
#include "record/event.h"

namespace kcm::controller {

namespace {

std::string string_of(const json::object* o, std::string_view key) {
  return o == nullptr ? std::string() : std::string(api::find_string(*o, key).value_or(""));
}

// The ownerReference with controller=true (metav1.GetControllerOf); nullopt
// when there is none or it does not decode.
std::optional<api::OwnerReference> controller_ref_of(const json::object& pod) {
  const json::object* meta = api::find_object(pod, "metadata");
  const json::array* refs = meta != nullptr ? api::find_array(*meta, "ownerReferences") : nullptr;
  if (refs == nullptr) return std::nullopt;
  for (const json::value& r : *refs) {
    if (!r.is_object() || !api::find_bool(r.as_object(), "controller").value_or(false)) continue;
    auto ref = api::OwnerReference::from_json(r);
    if (ref.ok()) return *ref;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

bool has_status_cause(const api::Status& status, std::string_view type) {
  if (!status.details) return false;
  for (const api::StatusCause& c : status.details->causes) {
    if (c.type == type) return true;
  }
  return false;
}

record::ObjectReference object_reference_of(const json::object& owner) {
  const json::object* meta = api::find_object(owner, "metadata");
  record::ObjectReference ref;
  ref.kind = string_of(&owner, "kind");
  ref.api_version = string_of(&owner, "apiVersion");
  ref.namespace_ = string_of(meta, "namespace");
  ref.name = string_of(meta, "name");
  ref.uid = string_of(meta, "uid");
  ref.resource_version = string_of(meta, "resourceVersion");
  return ref;
}

ClientPodControl::ClientPodControl(std::shared_ptr<client::Clientset> clients,
                                   std::shared_ptr<record::EventRecorder> recorder)
    : clients_(std::move(clients)), recorder_(std::move(recorder)) {}

Result<void, api::Status> ClientPodControl::create_pod(std::string_view namespace_,
                                                       const json::object& pod,
                                                       const json::object& owner) {
  const std::optional<api::OwnerReference> ref = controller_ref_of(pod);
  if (!ref) return fail(client::client_error("controllerRef is nil"));
  if (auto checked = check_pod_for_create(pod, *ref); !checked.ok()) {
    return fail(client::client_error(checked.error()));
  }
  // Only the name the server gave the pod is read back, as upstream's.
  auto created = clients_->pods(std::string(namespace_)).create_for_meta(pod);
  if (!created.ok()) {
    // A terminating namespace refuses every creation; that is no news.
    if (!has_status_cause(created.error(), kNamespaceTerminatingCause)) {
      recorder_->event(object_reference_of(owner), record::kEventTypeWarning,
                       kFailedCreatePodReason, failed_create_pod_message(created.error().message));
    }
    return fail(std::move(created).error());
  }
  const std::string& name = created->name;
  if (log::v(4)) {
    log::info("Controller created pod",
              {{"controller", string_of(api::find_object(owner, "metadata"), "name")},
               {"pod", std::string(namespace_) + "/" + name}});
  }
  recorder_->event(object_reference_of(owner), record::kEventTypeNormal, kSuccessfulCreatePodReason,
                   created_pod_message(name));
  return {};
}

Result<void, api::Status> ClientPodControl::delete_pod(std::string_view namespace_,
                                                       std::string_view name,
                                                       const json::object& owner) {
  if (log::v(2)) {
    log::info("Deleting pod",
              {{"controller", string_of(api::find_object(owner, "metadata"), "name")},
               {"pod", std::string(namespace_) + "/" + std::string(name)}});
  }
  auto deleted = clients_->pods(std::string(namespace_)).delete_object(name);
  if (!deleted.ok()) {
    if (deleted.error().is(api::reason::kNotFound)) {
      if (log::v(4)) {
        log::info("Pod has already been deleted",
                  {{"pod", std::string(namespace_) + "/" + std::string(name)}});
      }
      return fail(std::move(deleted).error());
    }
    recorder_->event(object_reference_of(owner), record::kEventTypeWarning, kFailedDeletePodReason,
                     failed_delete_pod_message(deleted.error().message));
    api::Status err = std::move(deleted).error();
    err.message = "unable to delete pods: " + err.message;
    return fail(std::move(err));
  }
  recorder_->event(object_reference_of(owner), record::kEventTypeNormal, kSuccessfulDeletePodReason,
                   deleted_pod_message(name));
  return {};
}

Result<void, api::Status> ClientPodControl::patch_pod(std::string_view namespace_,
                                                      std::string_view name,
                                                      std::string_view patch) {
  auto patched = clients_->pods(std::string(namespace_))
                     .patch(name, client::PatchType::kStrategicMerge, patch);
  if (!patched.ok()) return fail(std::move(patched).error());
  return {};
}

}  // namespace kcm::controller
