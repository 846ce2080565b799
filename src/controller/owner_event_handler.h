// "Own and watch children": turns an event on a child object into the
// reconcile key of its owner of a given group/kind (controller-runtime's
// handler.EnqueueRequestForOwner with OnlyControllerOwner, kube-rs's
// Controller::owns), and an informer event handler that adds those keys to a
// workqueue.
//
//   auto handler = controller::enqueue_for_owner({"apps", "ReplicaSet"}, queue_);
//   auto registration = pod_informer->add_event_handler(handler);
//
// Only the group and kind of a reference are compared (any version), as
// upstream. The key is "<child namespace>/<owner name>" for a namespaced owner
// (an owner reference names an object of the child's namespace) and
// "<owner name>" for a cluster-scoped one.
#pragma once

#include <concepts>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/json.h"
#include "cache/cached_object.h"
#include "cache/event_handler.h"

namespace kcm::controller {

namespace json = api::json;

// The owner type to look for.
struct OwnerType {
  std::string group;  // "" for the core group
  std::string kind;
  bool namespaced = true;
};

// The key of `child`'s controller owner (the first reference with
// controller=true) when it is of the given group and kind; nullopt otherwise,
// also when the child's ownerReferences do not decode, when the reference's
// apiVersion does not parse, or when a namespaced owner is referenced from a
// cluster-scoped child (such a reference can name no object).
std::optional<std::string> controller_owner_key(const json::object& child,
                                                std::string_view owner_api_group,
                                                std::string_view owner_kind, bool owner_namespaced);

// The keys of every owner of the given type (only the controller when
// `only_controller`), without duplicates, in reference order.
std::vector<std::string> owner_keys(const json::object& child, const OwnerType& owner,
                                    bool only_controller = true);
// The same from a cached object's parsed metadata (no decoding of the body).
std::vector<std::string> owner_keys(const cache::CachedObject& child, const OwnerType& owner,
                                    bool only_controller = true);

using EnqueueFn = std::function<void(const std::string& key)>;

// An event handler for the children's informer that calls `enqueue` with the
// owner keys of the child of every add, update (the old and the new child's
// owners, so an owner that lost the child hears of it too; each key once)
// and delete (a DeletedFinalStateUnknown tombstone through its last known
// state; one without a state is logged and dropped). Resyncs are delivered
// like updates: the queue deduplicates.
std::shared_ptr<cache::ResourceEventHandler> enqueue_for_owner(OwnerType owner, EnqueueFn enqueue,
                                                               bool only_controller = true);

// The same, adding to a workqueue (anything with add(const std::string&), e.g.
// workqueue::RateLimitingQueue<std::string>), which must outlive the handler's
// registration.
template <class Queue>
requires requires(Queue& q, const std::string& key) {
  q.add(key);
}
std::shared_ptr<cache::ResourceEventHandler> enqueue_for_owner(OwnerType owner, Queue& queue,
                                                               bool only_controller = true) {
  return enqueue_for_owner(
      std::move(owner), [&queue](const std::string& key) { queue.add(key); }, only_controller);
}

}  // namespace kcm::controller
