// Empties a terminating namespace (upstream deletion.NamespacedResourcesDeleter):
// marks it Terminating, deletes every namespaced resource in it that
// discovery says can be deleted, reports what remains in its conditions, and
// once nothing remains removes its finalizer token from spec.finalizers.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/group_version.h"
#include "api/json.h"
#include "api/result.h"
#include "api/time.h"
#include "controllers/namespace/conditions.h"
#include "controllers/namespace/deleter_api.h"

namespace kcm::controllers::ns {

// The finalizer token kcm's namespace controller owns (v1.FinalizerKubernetes).
inline constexpr std::string_view kFinalizerKubernetes = "kubernetes";
// How long to assume finalizers on remaining items take (upstream finalizerEstimateSeconds).
inline constexpr std::int64_t kFinalizerEstimateSeconds = 15;

// Why a pass did not finish the namespace.
struct DeleteError {
  std::string message;
  // Set for upstream's ResourcesRemainingError: nothing failed, but content
  // is still going away; look again in about this many seconds.
  std::optional<std::int64_t> remaining_estimate;
};

// "some content remains in the namespace, estimate <n> seconds before it is removed".
std::string resources_remaining_message(std::int64_t estimate);
// utilerrors.NewAggregate(...).Error(): one message as itself, several as
// "[a, b]" (duplicates once).
std::string aggregate_message(const std::vector<std::string>& messages);
// discovery.ErrGroupDiscoveryFailed's text for `failed` ("group/version" -> error).
std::string discovery_failure_message(const std::map<std::string, std::string>& failed);
// upstream GroupVersionResource.String(): "apps/v1, Resource=deployments", "/v1, Resource=pods".
std::string gvr_string(const api::GroupVersionResource& gvr);
// spec.finalizers without `token`, deduplicated and sorted (upstream finalizeNamespace).
std::vector<std::string> finalizers_without(const boost::json::value& namespace_object,
                                            std::string_view token);

// The outcome of deleting one resource's instances (upstream gvrDeletionMetadata).
struct ResourceDeletion {
  std::int64_t estimate = 0;  // seconds; 0 is "no estimate", not "all gone"
  int remaining = 0;
  std::map<std::string, int> finalizers;  // finalizer -> instances it holds
  std::optional<std::string> error;
};

// The outcome of deleting all content (upstream deleteAllContent).
struct ContentDeletion {
  std::int64_t estimate = 0;
  std::vector<std::string> errors;
};

struct DeleterOptions {
  std::string finalizer_token = std::string(kFinalizerKubernetes);
  // The clock for the grace-period estimate; unset: the wall clock.
  std::function<api::Time::TimePoint()> now;
  // lastTransitionTime of the conditions; unset: the wall clock.
  std::function<std::string()> condition_time;
};

class NamespacedResourcesDeleter {
 public:
  explicit NamespacedResourcesDeleter(DeleterApi& api, DeleterOptions options = {});

  // One pass over namespace `name` (upstream Delete): nothing to do when it
  // is gone or not being deleted; an error with remaining_estimate when
  // content is still going away; another error when a step failed. Callers
  // call again until it succeeds.
  Result<void, DeleteError> delete_namespace(std::string_view name);

  // Deletes every deletable resource in the terminating `namespace_object`
  // and updates its conditions (through the status subresource when they changed).
  ContentDeletion delete_all_content(boost::json::value namespace_object);

  // Deletes the instances of one resource in namespace `ns`.
  ResourceDeletion delete_resource(const client::ApiResource& resource, std::string_view ns,
                                   const api::Time& deleted_at);

 private:
  using Update = std::function<Result<boost::json::value, api::Status>(const boost::json::value&)>;
  // retryOnConflictError: refetches and retries while the write conflicts.
  Result<boost::json::value, api::Status> retry_on_conflict(boost::json::value namespace_object,
                                                            const Update& update);
  Result<std::int64_t, api::Status> estimate_graceful_termination(
      const api::GroupVersionResource& gvr, std::string_view ns, const api::Time& deleted_at);

  DeleterApi& api_;
  const DeleterOptions options_;
};

}  // namespace kcm::controllers::ns
