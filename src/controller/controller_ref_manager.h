// ControllerRef claiming (upstream controller_ref_manager.go): a controller
// adopts the orphans its selector matches and releases the objects it owns
// that its selector no longer matches, through strategic merge patches guarded
// by the dependent's UID. Shared by the ReplicaSet controller (pods) and the
// Deployment controller (ReplicaSets).
//
// The manager sees dependents through the small Dependent view, so it works
// on whatever form the caller holds (a pod's JSON, a cached object), and it
// writes through a patch function, so it needs no client.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/labels.h"
#include "api/object_meta.h"
#include "api/result.h"
#include "api/status.h"
#include "api/time.h"
#include "cache/cached_object.h"

namespace kcm::controller {

namespace json = api::json;

// What a controller does to pods, as the RS controller needs it (upstream
// PodControlInterface). Implemented over the client by the controller; tests
// use fakes. Every call returns the API error on failure.
class PodControl {
 public:
  virtual ~PodControl() = default;
  // POSTs `pod` (built by pod_from_template) in `namespace_`; `owner` is the
  // controller object, for events.
  virtual Result<void, api::Status> create_pod(std::string_view namespace_, const json::object& pod,
                                               const json::object& owner) = 0;
  virtual Result<void, api::Status> delete_pod(std::string_view namespace_, std::string_view name,
                                               const json::object& owner) = 0;
  // A strategic merge patch.
  virtual Result<void, api::Status> patch_pod(std::string_view namespace_, std::string_view name,
                                              std::string_view patch) = 0;
};

// The controller doing the claiming.
struct ControllerInfo {
  std::string api_version;  // of the controller's kind, e.g. "apps/v1"
  std::string kind;         // e.g. "ReplicaSet"
  std::string namespace_;
  std::string name;
  std::string uid;
  bool being_deleted = false;  // metadata.deletionTimestamp is set
};

// What claiming reads of one dependent.
struct Dependent {
  std::string_view namespace_;
  std::string_view name;
  std::string_view uid;
  // The uid of its controller ownerReference (controller=true), if any.
  std::optional<std::string_view> controller_uid;
  bool being_deleted = false;
  // The controller's selector (and any extra filters) match it.
  bool matches = false;
};

// A Dependent view of a cached object (pod or ReplicaSet); `matches` is the
// selector applied to its labels. The view points into `obj`.
Dependent dependent_from_cached(const cache::CachedObject& obj,
                                const api::labels::Selector& selector);

enum class ClaimAction {
  kIgnore,   // not ours and not to be adopted
  kClaimed,  // ours already; nothing to do
  kRelease,  // ours, no longer matching: patch our ownerReference away
  kAdopt,    // a matching orphan: patch our ownerReference in
};

// The rules of ClaimObject, without acting:
// - owned by another uid: ignore;
// - owned by us and matching: claimed (even while we are being deleted);
// - owned by us and not matching: release, unless we are being deleted;
// - an orphan: adopt when we are not being deleted, it matches, it is not being
//   deleted and (for a namespaced controller) it is in our namespace.
ClaimAction decide_claim(const ControllerInfo& controller, const Dependent& dependent);

// The adoption patch: {"metadata":{"ownerReferences":[{apiVersion, kind, name,
// uid, controller:true, blockOwnerDeletion:true}],"uid":<dependent>}}, plus
// "finalizers" when given, in Go's field order.
std::string owner_ref_controller_patch(const ControllerInfo& controller,
                                       std::string_view dependent_uid,
                                       const std::vector<std::string>& finalizers = {});
// The release patch: {"metadata":{"uid":<dependent>,"ownerReferences":
// [{"$patch":"delete","uid":<owner>},...]}}, plus
// "$deleteFromPrimitiveList/finalizers" when given.
std::string delete_owner_ref_strategic_merge_patch(std::string_view dependent_uid,
                                                   const std::vector<std::string>& owner_uids,
                                                   const std::vector<std::string>& finalizers = {});

// Go's time.Time.String() for UTC: "2024-06-15 12:00:00 +0000 UTC" (with a
// trimmed fraction when there is one).
std::string go_time_string(const api::Time& t);

// upstream RecheckDeletionTimestamp: the fresh controller from `get` (an
// uncached GET), refused when it is being deleted. Messages:
// "can't recheck DeletionTimestamp: <err>" and
// "<ns>/<name> has just been deleted at <time>".
struct FreshController {
  std::string namespace_;
  std::string name;
  std::optional<api::Time> deletion_timestamp;
};
std::function<Result<void>()> recheck_deletion_timestamp(
    std::function<Result<FreshController>()> get);

// upstream utilerrors.NewAggregate(...).Error(): "" for none, the message for
// one, otherwise "[m1, m2]" with duplicate messages dropped (one distinct
// message prints without brackets).
std::string aggregate_errors(const std::vector<std::string>& messages);

class ControllerRefManager {
 public:
  using PatchFn = std::function<Result<void, api::Status>(
      std::string_view namespace_, std::string_view name, std::string_view patch)>;
  using CanAdoptFn = std::function<Result<void>()>;

  // `dependent_kind` ("Pod", "ReplicaSet") words the adoption error. `can_adopt`
  // runs at most once, before the first adoption; when it fails, every
  // adoption fails with "can't adopt <Kind> <ns>/<name> (<uid>): <err>".
  ControllerRefManager(ControllerInfo controller, std::string dependent_kind, PatchFn patch,
                       CanAdoptFn can_adopt = {}, std::vector<std::string> finalizers = {});

  struct ClaimResult {
    std::vector<std::size_t> claimed;  // indices into the input, in order
    std::vector<std::string> errors;   // one per failed adopt or release
    // The aggregate error, or nullopt when every action succeeded.
    std::optional<std::string> error() const;
  };

  // ClaimPods / ClaimReplicaSets: claims each dependent in turn.
  ClaimResult claim(const std::vector<Dependent>& dependents);
  // ClaimObject for one dependent: whether we own it now. A NotFound answer to
  // an adopt or release means "not ours" without an error.
  Result<bool> claim_one(const Dependent& dependent);

  // A failed adopt or release: the message, and whether the API server
  // answered NotFound (which claiming treats as "not ours").
  struct ActionError {
    std::string message;
    bool not_found = false;
  };
  // The patches and their error handling, for callers that act directly.
  Result<void, ActionError> adopt(const Dependent& dependent);
  // NotFound and Invalid answers count as released.
  Result<void, ActionError> release(const Dependent& dependent);
  Result<void> can_adopt();

  const ControllerInfo& controller() const { return controller_; }

 private:
  ControllerInfo controller_;
  std::string dependent_kind_;
  PatchFn patch_;
  CanAdoptFn can_adopt_fn_;
  std::vector<std::string> finalizers_;
  std::optional<Result<void>> can_adopt_result_;
};

// The manager for pods, patching through `pod_control` (which must outlive it).
ControllerRefManager pod_controller_ref_manager(PodControl& pod_control, ControllerInfo controller,
                                                ControllerRefManager::CanAdoptFn can_adopt = {},
                                                std::vector<std::string> finalizers = {});

}  // namespace kcm::controller
