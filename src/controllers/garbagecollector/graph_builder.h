// The GraphBuilder (upstream graph_builder.go): turns informer events into
// the dependency graph and decides what the workers look at. Events go
// through the single-worker `garbage_collector_graph_changes` queue; process()
// applies one and feeds the attemptToDelete / attemptToOrphan queues through
// GraphBuilderSinks. Readers (the GC workers) get copies of nodes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "cache/cached_object.h"
#include "controllers/garbagecollector/graph.h"
#include "controllers/garbagecollector/uid_cache.h"
#include "record/event_recorder.h"
#include "workqueue/rate_limiting_queue.h"

namespace kcm::controllers::garbagecollector {

// What the graph needs of an object's metadata.
struct ObjectMeta {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string resource_version;
  std::vector<OwnerReference> owners;
  std::vector<std::string> finalizers;
  bool being_deleted = false;  // deletionTimestamp set

  bool has_finalizer(std::string_view finalizer) const;
};

// metadata.ownerReferences of a JSON object (malformed entries are skipped).
std::vector<OwnerReference> owner_references_of(const api::json::value& obj);
ObjectMeta object_meta_of(const api::json::value& obj);
// From an informer's cache; decodes the object only when it is being deleted
// (the finalizers matter only then).
ObjectMeta object_meta_of(const cache::CachedObject& obj);

enum class EventType { kAdd, kUpdate, kDelete };

struct Event {
  EventType type = EventType::kAdd;
  // Made by the GC after the API server said the object is gone, not seen by an informer.
  bool virtual_ = false;
  std::string api_version;
  std::string kind;
  ObjectMeta object;
  std::optional<ObjectMeta> old_object;  // updates
};

struct GraphBuilderSinks {
  std::function<void(const std::string& uid)> attempt_to_delete;
  std::function<void(const std::string& uid)> attempt_to_delete_rate_limited;
  std::function<void(const std::string& uid)> attempt_to_orphan;
  // OwnerRefInvalidNamespace warnings; may be null.
  std::shared_ptr<record::EventRecorder> recorder;
};

inline constexpr std::string_view kGraphChangesQueueName = "garbage_collector_graph_changes";

class GraphBuilder {
 public:
  GraphBuilder(std::shared_ptr<ReferenceCache> absent_owners, GraphBuilderSinks sinks);
  ~GraphBuilder();
  GraphBuilder(const GraphBuilder&) = delete;
  GraphBuilder& operator=(const GraphBuilder&) = delete;

  // Applies one event to the graph (upstream processGraphChanges' body).
  void process(const Event& event);

  // The graphChanges queue.
  void enqueue(Event event);
  // A delete event for an object the API server no longer has.
  void enqueue_virtual_delete(const ObjectReference& ref);
  // Takes and processes one queued event; false once shut down and drained.
  bool process_next();
  void shut_down();
  std::size_t pending() const;

  // Copies, safe to use from any thread.
  std::optional<Node> node(const std::string& uid) const;
  // Its dependents, or only those blocking its deletion (blockOwnerDeletion).
  std::vector<Node> dependents(const std::string& uid, bool blocking_only = false) const;
  std::vector<Node> blocking_dependents(const std::string& uid) const {
    return dependents(uid, true);
  }
  std::size_t size() const;
  // `fn(const Graph&)` under the graph's lock; what it returns must not
  // point into the graph.
  template <typename Fn>
  auto read_graph(Fn&& fn) const {
    const std::lock_guard lock(graph_mu_);
    return fn(std::as_const(graph_));
  }

 private:
  void add_dependent_to_owners(Node& n, const std::vector<OwnerReference>& owners);
  void remove_dependent_from_owners(const Node& n, const std::vector<OwnerReference>& owners);
  void add_unblocked_owners_to_delete_queue(
      const std::vector<OwnerReference>& removed,
      const std::vector<std::pair<OwnerReference, OwnerReference>>& changed);
  void process_transitions(const std::optional<ObjectMeta>& old_object, const ObjectMeta& now,
                           Node& n);
  void report_invalid_namespace_owner_ref(const Node& n, const std::string& owner_uid);
  void process_delete(const Event& event, const ObjectReference& identity);

  const std::shared_ptr<ReferenceCache> absent_owners_;
  const GraphBuilderSinks sinks_;

  mutable std::mutex graph_mu_;
  Graph graph_;

  mutable std::mutex events_mu_;
  std::map<std::string, Event> events_;
  std::uint64_t next_event_ = 0;
  workqueue::RateLimitingQueue<std::string> graph_changes_;
};

}  // namespace kcm::controllers::garbagecollector
