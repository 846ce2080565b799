// PodControl over the API (upstream RealPodControl): creates, deletes and
// patches pods through the client and records what it did as events on the
// owning controller object (SuccessfulCreate, FailedCreate, SuccessfulDelete,
// FailedDelete).
#pragma once

#include <memory>
#include <string_view>

#include "api/json.h"
#include "api/status.h"
#include "client/clientset.h"
#include "controller/controller_ref_manager.h"
#include "record/event_recorder.h"
#include "record/object_reference.h"

namespace kcm::controller {

// Whether an API error carries a status cause of `type` (upstream
// HasStatusCause), e.g. "NamespaceTerminating".
bool has_status_cause(const api::Status& status, std::string_view type);
inline constexpr std::string_view kNamespaceTerminatingCause = "NamespaceTerminating";

// The reference events about `owner` name: kind, namespace, name, uid,
// apiVersion and resourceVersion from the object's JSON.
record::ObjectReference object_reference_of(const json::object& owner);

class ClientPodControl final : public PodControl {
 public:
  ClientPodControl(std::shared_ptr<client::Clientset> clients,
                   std::shared_ptr<record::EventRecorder> recorder);

  // Validates the pod's controller reference (upstream validateControllerRef)
  // and that it has labels, then POSTs it. Events: "Created pod: <name>", or
  // "Error creating: <err>" unless the namespace is terminating. Local
  // failures come back as client-side errors (code 0).
  Result<void, api::Status> create_pod(std::string_view namespace_, const json::object& pod,
                                       const json::object& owner) override;
  // DELETE with default options. NotFound comes back as it is, without an
  // event; other failures record "Error deleting: <err>" and come back as
  // "unable to delete pods: <err>". Success records "Deleted pod: <name>".
  Result<void, api::Status> delete_pod(std::string_view namespace_, std::string_view name,
                                       const json::object& owner) override;
  // A strategic merge patch; no event.
  Result<void, api::Status> patch_pod(std::string_view namespace_, std::string_view name,
                                      std::string_view patch) override;

 private:
  const std::shared_ptr<client::Clientset> clients_;
  const std::shared_ptr<record::EventRecorder> recorder_;
};

}  // namespace kcm::controller
