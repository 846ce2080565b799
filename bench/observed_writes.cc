#include "bench/observed_writes.h"

#include "bench/completion_tracker.h"

namespace kcm::bench {

namespace json = boost::json;

namespace {

const json::object* member_object(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr ? v->if_object() : nullptr;
}

std::string member_string(const json::object* o, std::string_view key) {
  if (o == nullptr) return {};
  const json::value* v = o->if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::string key_of(const json::object& o) {
  const json::object* meta = member_object(o, "metadata");
  return member_string(meta, "namespace") + "/" + member_string(meta, "name");
}

bool owned_by(const json::object& o, std::string_view kind) {
  const json::object* meta = member_object(o, "metadata");
  const json::value* refs = meta != nullptr ? meta->if_contains("ownerReferences") : nullptr;
  if (refs == nullptr || !refs->is_array()) return false;
  for (const auto& r : refs->get_array()) {
    if (r.is_object() && member_string(&r.get_object(), "kind") == kind) return true;
  }
  return false;
}

}  // namespace

std::uint64_t ObservedWrites::Counts::total() const {
  return pod_creates + pod_deletes + replicaset_creates + replicaset_updates + replicaset_deletes +
         deployment_updates + event_creates + event_updates;
}

json::object ObservedWrites::Counts::to_json() const {
  return json::object{{"pod_creates", pod_creates},
                      {"pod_deletes", pod_deletes},
                      {"replicaset_creates", replicaset_creates},
                      {"replicaset_updates", replicaset_updates},
                      {"replicaset_deletes", replicaset_deletes},
                      {"deployment_updates", deployment_updates},
                      {"event_creates", event_creates},
                      {"event_updates", event_updates},
                      {"total", total()}};
}

ObservedWrites::ObservedWrites(std::set<std::string> event_components)
    : event_components_(std::move(event_components)) {}

CollectionWatch::Handler ObservedWrites::pods() {
  return [this](WatchEventType t, const json::object& o) { on_pod(t, o); };
}
CollectionWatch::Handler ObservedWrites::replica_sets() {
  return [this](WatchEventType t, const json::object& o) { on_replica_set(t, o); };
}
CollectionWatch::Handler ObservedWrites::deployments() {
  return [this](WatchEventType t, const json::object& o) { on_deployment(t, o); };
}
CollectionWatch::Handler ObservedWrites::events() {
  return [this](WatchEventType t, const json::object& o) { on_event(t, o); };
}

ObservedWrites::Counts ObservedWrites::counts() const {
  std::lock_guard lock(mu_);
  return counts_;
}

void ObservedWrites::on_pod(WatchEventType type, const json::object& pod) {
  const std::string key = key_of(pod);
  const bool terminating = member_object(pod, "metadata") != nullptr &&
                           member_object(pod, "metadata")->contains("deletionTimestamp");
  std::lock_guard lock(mu_);
  switch (type) {
    case WatchEventType::kAdded:
      ++counts_.pod_creates;
      break;
    case WatchEventType::kModified:
      // The controller's DELETE of a running pod starts graceful deletion.
      if (terminating && terminating_pods_.insert(key).second) ++counts_.pod_deletes;
      break;
    case WatchEventType::kDeleted:
      // Gone at once (not yet running), or the end of a graceful deletion.
      if (terminating_pods_.erase(key) == 0) ++counts_.pod_deletes;
      break;
  }
}

void ObservedWrites::on_replica_set(WatchEventType type, const json::object& rs) {
  std::lock_guard lock(mu_);
  switch (type) {
    case WatchEventType::kAdded:
      // The benchmark's own ReplicaSets have no owner; a Deployment's are kcm's.
      if (owned_by(rs, "Deployment")) ++counts_.replicaset_creates;
      break;
    case WatchEventType::kModified:
      ++counts_.replicaset_updates;
      break;
    case WatchEventType::kDeleted:
      ++counts_.replicaset_deletes;
      break;
  }
}

void ObservedWrites::on_deployment(WatchEventType type, const json::object& d) {
  const std::string key = key_of(d);
  const std::int64_t generation = int_at(d, {"metadata", "generation"}).value_or(0);
  std::lock_guard lock(mu_);
  auto [it, added] = deployment_generation_.emplace(key, generation);
  if (type == WatchEventType::kModified && !added) {
    // A new generation is the benchmark's spec change; the same one, kcm's write.
    if (generation == it->second) ++counts_.deployment_updates;
    it->second = generation;
  }
  if (type == WatchEventType::kDeleted) deployment_generation_.erase(key);
}

void ObservedWrites::on_event(WatchEventType type, const json::object& e) {
  const std::string component = member_string(member_object(e, "source"), "component");
  if (event_components_.count(component) == 0) return;
  std::lock_guard lock(mu_);
  if (type == WatchEventType::kAdded) ++counts_.event_creates;
  if (type == WatchEventType::kModified) ++counts_.event_updates;
}

}  // namespace kcm::bench
