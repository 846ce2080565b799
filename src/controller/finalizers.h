// Finalizer helpers for controller authors: read, add and remove a finalizer
// on an object (controller-runtime's controllerutil.ContainsFinalizer,
// AddFinalizer, RemoveFinalizer), write the change to the API server as a
// merge patch guarded by the object's resourceVersion, and `finalize`, the
// driver that runs cleanup before a deleted object is released (kube-rs
// runtime::finalizer).
//
// Everything works on the object's JSON and touches only
// metadata.finalizers, so every other member passes through untouched.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/object.h"
#include "api/result.h"
#include "api/status.h"
#include "client/resource_client.h"

namespace kcm::controller {

namespace json = api::json;

// --- pure helpers -------------------------------------------------------------

// metadata.finalizers (empty when metadata or the member is absent or null).
// Errors name the member: "metadata.finalizers[1]: expected string, got number".
Result<std::vector<std::string>> finalizers_of(const json::object& obj);

// Whether metadata.finalizers holds `name`. An object whose finalizers do not
// decode holds none (finalizers_of tells why).
bool has_finalizer(const json::object& obj, std::string_view name);
bool has_finalizer(const api::Object& obj, std::string_view name);

// Appends `name` unless present; true when the list changed. Errors: a
// malformed metadata or finalizers member, an empty name.
Result<bool> add_finalizer(json::object& obj, std::string_view name);
Result<bool> add_finalizer(api::Object& obj, std::string_view name);
// Removes every occurrence of `name`; true when the list changed. A list left
// empty is removed, as a typed object encodes it.
Result<bool> remove_finalizer(json::object& obj, std::string_view name);
Result<bool> remove_finalizer(api::Object& obj, std::string_view name);

// Whether metadata.deletionTimestamp is set (present and not null).
bool being_deleted(const json::object& obj);

// --- writing through a client ------------------------------------------------

// The merge patch that replaces the finalizer list and carries the
// resourceVersion as an optimistic-lock precondition (controller-runtime's
// MergeFromWithOptimisticLock): {"metadata":{"finalizers":[...],
// "resourceVersion":"42"}}, with "finalizers":null for an empty list. Keys in
// Go's sorted order.
std::string finalizers_merge_patch(const std::vector<std::string>& finalizers,
                                   std::string_view resource_version);

// Adds (removes) `finalizer` on the server with finalizers_merge_patch built
// from `obj` (its finalizers and resourceVersion). When the object changed
// meanwhile the server answers 409 Conflict instead of clobbering the list.
// Returns the server's object, or nullopt when `obj` already is in the wanted
// state (nothing is sent). Requests go to `obj`'s namespace when it has one
// (through client.in_namespace), else to the client's. Malformed input fails
// without a request, as a client error (code 0): "object has no name",
// "object has no resourceVersion", "metadata.finalizers: expected array, got
// string", "finalizer name must not be empty".
Result<std::optional<json::value>, api::Status> patch_add_finalizer(client::ResourceClient& client,
                                                                    const json::object& obj,
                                                                    std::string_view finalizer);
Result<std::optional<json::value>, api::Status> patch_remove_finalizer(
    client::ResourceClient& client, const json::object& obj, std::string_view finalizer);

// --- the finalize driver --------------------------------------------------------

// What finalize did: the branch it took. On failure (see FinalizeResult::error)
// it is the branch that was attempted.
enum class FinalizeAction {
  kNothing,         // being deleted without our finalizer: nothing left to do
  kAddedFinalizer,  // not deleted, finalizer was missing: added; apply did not run
  kApplied,         // not deleted, finalizer present: apply ran
  kCleanedUp,       // being deleted with our finalizer: cleanup ran, finalizer removed
};

enum class FinalizeErrorKind {
  kInvalidObject,    // the object or finalizer name is unusable; nothing was done
  kAddFinalizer,     // the patch adding the finalizer failed
  kApply,            // apply failed
  kCleanup,          // cleanup failed; the finalizer stays
  kRemoveFinalizer,  // cleanup succeeded but the patch removing the finalizer failed
};

struct FinalizeError {
  FinalizeErrorKind kind;
  // kube-rs's wording: "failed to add finalizer: <cause>", "failed to apply
  // object: <cause>", "failed to clean up object: <cause>", "failed to remove
  // finalizer: <cause>"; for kInvalidObject the cause alone.
  std::string message;
  // The API error of a failed patch.
  std::optional<api::Status> status;
};

struct FinalizeResult {
  FinalizeAction action = FinalizeAction::kNothing;
  // The server's answer to the patch finalize sent, if one was sent and succeeded.
  std::optional<json::value> object;
  std::optional<FinalizeError> error;

  bool ok() const { return !error.has_value(); }
  // A failed patch answered 409 Conflict: the object changed; requeue.
  bool conflict() const {
    return error && error->status && error->status->is(api::reason::kConflict);
  }
};

// apply and cleanup see the object finalize was given.
using FinalizerFn = std::function<Result<void>(const json::object& obj)>;

// Reconciles `obj` in a way that runs `cleanup` before the object may go
// (kube-rs runtime::finalizer semantics):
// - being deleted and holding `finalizer_name`: runs cleanup; only when it
//   succeeds removes the finalizer (patch_remove_finalizer), so the deletion
//   can complete. A failed cleanup keeps the finalizer: retry later.
// - being deleted without it: does nothing (our cleanup already ran, or apply
//   never did).
// - not being deleted, without it: adds it (patch_add_finalizer) and returns
//   WITHOUT running apply; the patch's watch event triggers the next
//   reconcile, which applies. So apply only ever runs while the finalizer is
//   in place, and cleanup is guaranteed to run before the object goes.
// - not being deleted, holding it: runs apply.
// apply and cleanup must be idempotent; cleanup must tolerate apply never
// having run. `finalizer_name` must be unique among the object's controllers.
FinalizeResult finalize(client::ResourceClient& client, const json::object& obj,
                        std::string_view finalizer_name, const FinalizerFn& apply,
                        const FinalizerFn& cleanup);

}  // namespace kcm::controller
