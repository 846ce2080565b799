#include "controllers/garbagecollector/graph_builder.h"

#include <algorithm>

#include "log/log.h"
#include "workqueue/rate_limiters.h"

namespace kcm::controllers::garbagecollector {

namespace json = api::json;

bool ObjectMeta::has_finalizer(std::string_view finalizer) const {
  return std::find(finalizers.begin(), finalizers.end(), finalizer) != finalizers.end();
}

std::vector<OwnerReference> owner_references_of(const json::value& obj) {
  std::vector<OwnerReference> out;
  const json::value* refs = api::find_path(obj, {"metadata", "ownerReferences"});
  if (refs == nullptr || !refs->is_array()) return out;
  for (const json::value& v : refs->get_array()) {
    if (!v.is_object()) continue;
    const json::object& o = v.get_object();
    OwnerReference ref = make_owner_reference(
        std::string(api::find_string(o, "apiVersion").value_or("")),
        std::string(api::find_string(o, "kind").value_or("")),
        std::string(api::find_string(o, "name").value_or("")),
        std::string(api::find_string(o, "uid").value_or("")), api::find_bool(o, "controller"),
        api::find_bool(o, "blockOwnerDeletion"));
    out.push_back(std::move(ref));
  }
  return out;
}

ObjectMeta object_meta_of(const json::value& obj) {
  ObjectMeta meta;
  const json::value* m = api::find_path(obj, {"metadata"});
  if (m == nullptr || !m->is_object()) return meta;
  const json::object& o = m->get_object();
  meta.namespace_ = std::string(api::find_string(o, "namespace").value_or(""));
  meta.name = std::string(api::find_string(o, "name").value_or(""));
  meta.uid = std::string(api::find_string(o, "uid").value_or(""));
  meta.resource_version = std::string(api::find_string(o, "resourceVersion").value_or(""));
  meta.owners = owner_references_of(obj);
  if (const json::array* f = api::find_array(o, "finalizers")) {
    for (const json::value& v : *f) {
      if (v.is_string()) meta.finalizers.emplace_back(v.get_string());
    }
  }
  const json::value* ts = o.if_contains("deletionTimestamp");
  meta.being_deleted = ts != nullptr && !ts->is_null();
  return meta;
}

ObjectMeta object_meta_of(const cache::CachedObject& obj) {
  if (obj.deletion_timestamp()) return object_meta_of(obj.object());
  ObjectMeta meta;
  meta.namespace_ = std::string(obj.namespace_());
  meta.name = std::string(obj.name());
  meta.uid = std::string(obj.uid());
  meta.resource_version = std::string(obj.resource_version());
  for (std::size_t i = 0; i < obj.owner_count(); ++i) {
    const cache::OwnerRef r = obj.owner_reference(i);
    meta.owners.push_back(make_owner_reference(std::string(r.api_version), std::string(r.kind),
                                               std::string(r.name), std::string(r.uid),
                                               r.controller, r.block_owner_deletion));
  }
  return meta;
}

namespace {

// upstream referenceLessThan: kind, apiVersion, namespace, name, uid.
bool reference_less(const ObjectReference& a, const ObjectReference& b) {
  return std::tie(a.kind, a.api_version, a.namespace_, a.name, a.uid) <
         std::tie(b.kind, b.api_version, b.namespace_, b.name, b.uid);
}

// upstream partitionDependents: dependents whose reference to `owner.uid`
// matches its coordinates, and those with a reference that does not (a
// dependent can be in both).
std::pair<std::vector<const Node*>, std::vector<const Node*>> partition_dependents(
    const std::vector<const Node*>& dependents, const ObjectReference& owner) {
  std::vector<const Node*> matching;
  std::vector<const Node*> nonmatching;
  const bool owner_namespaced = !owner.namespace_.empty();
  for (const Node* dep : dependents) {
    bool match = false;
    bool mismatch = false;
    if (owner_namespaced && owner.namespace_ != dep->identity.namespace_) {
      mismatch = true;
    } else {
      for (const OwnerReference& ref : dep->owners) {
        if (ref.uid != owner.uid) continue;
        (matches_coordinates(ref, owner) ? match : mismatch) = true;
      }
    }
    if (match) matching.push_back(dep);
    if (mismatch) nonmatching.push_back(dep);
  }
  return {std::move(matching), std::move(nonmatching)};
}

// upstream getAlternateOwnerIdentity: another identity the dependents give
// the absent owner's uid, the first after `absent` in reference order, else the first.
std::optional<ObjectReference> alternate_owner_identity(const std::vector<const Node*>& deps,
                                                        const ObjectReference& absent) {
  const bool absent_cluster_scoped = absent.namespace_.empty();
  std::set<ObjectReference> seen{absent};
  std::optional<ObjectReference> first;
  std::optional<ObjectReference> first_following;
  for (const Node* dep : deps) {
    for (const OwnerReference& ref : dep->owners) {
      if (ref.uid != absent.uid) continue;
      if (matches_coordinates(ref, absent) &&
          (absent_cluster_scoped || absent.namespace_ == dep->identity.namespace_)) {
        continue;
      }
      ObjectReference alt{ref.api_version, ref.kind, ref.name, ref.uid, dep->identity.namespace_};
      if (absent_cluster_scoped && alt.api_version == absent.api_version &&
          alt.kind == absent.kind) {
        alt.namespace_.clear();
      }
      if (!seen.insert(alt).second) continue;
      if (!first || reference_less(alt, *first)) first = alt;
      if (reference_less(absent, alt) &&
          (!first_following || reference_less(alt, *first_following)))
        first_following = alt;
    }
  }
  return first_following ? first_following : first;
}

bool starts_deletion_with(const std::optional<ObjectMeta>& old_object, const ObjectMeta& now,
                          std::string_view finalizer) {
  if (!now.being_deleted || !now.has_finalizer(finalizer)) return false;
  if (!old_object) return true;
  return !old_object->being_deleted || !old_object->has_finalizer(finalizer);
}

// upstream referencesDiffs, by uid.
void references_diffs(const std::vector<OwnerReference>& old_refs,
                      const std::vector<OwnerReference>& new_refs,
                      std::vector<OwnerReference>& added, std::vector<OwnerReference>& removed,
                      std::vector<std::pair<OwnerReference, OwnerReference>>& changed) {
  std::map<std::string, const OwnerReference*> old_by_uid;
  for (const OwnerReference& r : old_refs)
    old_by_uid[r.uid] = &r;
  for (const OwnerReference& r : new_refs) {
    const auto it = old_by_uid.find(r.uid);
    if (it == old_by_uid.end()) {
      added.push_back(r);
      continue;
    }
    if (!(*it->second == r)) changed.emplace_back(*it->second, r);
    old_by_uid.erase(it);
  }
  for (const auto& [uid, r] : old_by_uid)
    removed.push_back(*r);
}

}  // namespace

GraphBuilder::GraphBuilder(std::shared_ptr<ReferenceCache> absent_owners, GraphBuilderSinks sinks)
    : absent_owners_(std::move(absent_owners)),
      sinks_(std::move(sinks)),
      graph_changes_(workqueue::default_controller_rate_limiter<std::string>(),
                     {.name = std::string(kGraphChangesQueueName)}) {}

GraphBuilder::~GraphBuilder() {
  graph_changes_.shut_down();
}

void GraphBuilder::enqueue(Event event) {
  std::string key;
  {
    const std::lock_guard lock(events_mu_);
    key = std::to_string(next_event_++);
    events_.emplace(key, std::move(event));
  }
  graph_changes_.add(key);
}

void GraphBuilder::enqueue_virtual_delete(const ObjectReference& ref) {
  Event e;
  e.type = EventType::kDelete;
  e.virtual_ = true;
  e.api_version = ref.api_version;
  e.kind = ref.kind;
  e.object.namespace_ = ref.namespace_;
  e.object.name = ref.name;
  e.object.uid = ref.uid;
  enqueue(std::move(e));
}

bool GraphBuilder::process_next() {
  const std::optional<std::string> key = graph_changes_.get();
  if (!key) return false;
  std::optional<Event> event;
  {
    const std::lock_guard lock(events_mu_);
    if (auto node = events_.extract(*key)) event = std::move(node.mapped());
  }
  if (event) process(*event);
  graph_changes_.done(*key);
  return true;
}

void GraphBuilder::shut_down() {
  graph_changes_.shut_down();
}

std::size_t GraphBuilder::pending() const {
  return graph_changes_.len();
}

std::optional<Node> GraphBuilder::node(const std::string& uid) const {
  const std::lock_guard lock(graph_mu_);
  if (const Node* n = graph_.find(uid)) return *n;
  return std::nullopt;
}

std::vector<Node> GraphBuilder::dependents(const std::string& uid, bool blocking_only) const {
  const std::lock_guard lock(graph_mu_);
  std::vector<Node> out;
  if (const Node* n = graph_.find(uid)) {
    for (const Node* d :
         blocking_only ? graph_.blocking_dependents_of(*n) : graph_.dependents_of(*n))
      out.push_back(*d);
  }
  return out;
}

std::size_t GraphBuilder::size() const {
  const std::lock_guard lock(graph_mu_);
  return graph_.size();
}

void GraphBuilder::report_invalid_namespace_owner_ref(const Node& n, const std::string& owner_uid) {
  const auto it = std::find_if(n.owners.begin(), n.owners.end(),
                               [&](const OwnerReference& r) { return r.uid == owner_uid; });
  if (it == n.owners.end() || !sinks_.recorder) return;
  const ObjectReference invalid{it->api_version, it->kind, it->name, it->uid,
                                n.identity.namespace_};
  record::ObjectReference ref;
  ref.kind = n.identity.kind;
  ref.api_version = n.identity.api_version;
  ref.namespace_ = n.identity.namespace_;
  ref.name = n.identity.name;
  ref.uid = n.identity.uid;
  sinks_.recorder->eventf(ref, "Warning", "OwnerRefInvalidNamespace",
                          "ownerRef {} does not exist in namespace \"{}\"", invalid.to_string(),
                          n.identity.namespace_);
}

void GraphBuilder::add_dependent_to_owners(Node& n, const std::vector<OwnerReference>& owners) {
  bool potentially_invalid = false;
  for (const OwnerReference& owner : owners) {
    Node* owner_node = graph_.find(owner.uid);
    const bool existed = owner_node != nullptr;
    if (!existed) {
      // An owner never observed: the workers check whether it exists.
      Node virtual_node;
      virtual_node.identity = {owner.api_version, owner.kind, owner.name, owner.uid,
                               n.identity.namespace_};
      virtual_node.virtual_ = true;
      owner_node = &graph_.put(std::move(virtual_node));
      if (log::v(5))
        log::info("add virtual item", {{"identity", owner_node->identity.to_string()}});
    }
    owner_node->dependents.insert(n.identity.uid);
    if (!existed) {
      sinks_.attempt_to_delete(owner.uid);
      continue;
    }
    if (potentially_invalid) continue;
    const bool owner_namespaced = !owner_node->identity.namespace_.empty();
    if (owner_namespaced && owner_node->identity.namespace_ != n.identity.namespace_) {
      if (!owner_node->virtual_) {
        // An observed namespaced owner in another namespace: definitely wrong.
        report_invalid_namespace_owner_ref(n, owner.uid);
      }
      potentially_invalid = true;
    } else if (!matches_coordinates(owner, owner_node->identity)) {
      potentially_invalid = true;
    } else if (!owner_namespaced && owner_node->identity.namespace_ != n.identity.namespace_ &&
               owner_node->virtual_) {
      // A virtual cluster-scoped owner named by a namespaced child may really
      // be a missing namespaced object (upstream issue 98040).
      potentially_invalid = true;
    }
  }
  // The workers verify the references and delete n if all are absent.
  if (potentially_invalid) sinks_.attempt_to_delete(n.identity.uid);
}

void GraphBuilder::remove_dependent_from_owners(const Node& n,
                                                const std::vector<OwnerReference>& owners) {
  for (const OwnerReference& owner : owners) {
    if (Node* owner_node = graph_.find(owner.uid)) owner_node->dependents.erase(n.identity.uid);
  }
}

void GraphBuilder::add_unblocked_owners_to_delete_queue(
    const std::vector<OwnerReference>& removed,
    const std::vector<std::pair<OwnerReference, OwnerReference>>& changed) {
  for (const OwnerReference& ref : removed) {
    if (blocks(ref) && graph_.find(ref.uid)) sinks_.attempt_to_delete(ref.uid);
  }
  for (const auto& [old_ref, new_ref] : changed) {
    if (blocks(old_ref) && !blocks(new_ref) && graph_.find(new_ref.uid))
      sinks_.attempt_to_delete(new_ref.uid);
  }
}

void GraphBuilder::process_transitions(const std::optional<ObjectMeta>& old_object,
                                       const ObjectMeta& now, Node& n) {
  if (starts_deletion_with(old_object, now, kOrphanFinalizer)) {
    sinks_.attempt_to_orphan(n.identity.uid);
    return;
  }
  if (starts_deletion_with(old_object, now, kForegroundFinalizer)) {
    if (log::v(2)) {
      log::info(
          "add item to attemptToDelete, because it's waiting for its dependents to be deleted",
          {{"item", n.identity.to_string()}});
    }
    n.deleting_dependents = true;
    for (const std::string& dep : n.dependents)
      sinks_.attempt_to_delete(dep);
    sinks_.attempt_to_delete(n.identity.uid);
  }
}

void GraphBuilder::process(const Event& event) {
  const ObjectMeta& obj = event.object;
  const ObjectReference identity{event.api_version, event.kind, obj.name, obj.uid, obj.namespace_};
  const std::lock_guard lock(graph_mu_);
  Node* existing = graph_.find(obj.uid);
  if (existing != nullptr && !event.virtual_ && existing->virtual_) {
    // Observed through an informer at last: the dependents that named it
    // otherwise are checked (their owners may really be absent).
    if (identity != existing->identity) {
      const auto [matching, nonmatching] =
          partition_dependents(graph_.dependents_of(*existing), identity);
      for (const Node* dep : nonmatching) {
        if (!identity.namespace_.empty() && dep->identity.namespace_ != identity.namespace_) {
          report_invalid_namespace_owner_ref(*dep, identity.uid);
        }
        sinks_.attempt_to_delete(dep->identity.uid);
      }
      existing->identity = identity;
    }
    existing->virtual_ = false;
  }

  if (event.type == EventType::kDelete) {
    if (existing != nullptr) process_delete(event, identity);
    return;
  }
  if (existing == nullptr) {
    Node n;
    n.identity = identity;
    n.owners = obj.owners;
    n.being_deleted = obj.being_deleted;
    n.deleting_dependents = obj.being_deleted && obj.has_finalizer(kForegroundFinalizer);
    Node& inserted = graph_.put(std::move(n));
    add_dependent_to_owners(inserted, inserted.owners);
    // The informer may have merged a creation and a deletion into one event.
    process_transitions(event.old_object, obj, inserted);
    return;
  }
  if (!event.virtual_ && (existing->identity.api_version != event.api_version ||
                          existing->identity.kind != event.kind)) {
    existing->identity.api_version = event.api_version;
    existing->identity.kind = event.kind;
  }
  std::vector<OwnerReference> added;
  std::vector<OwnerReference> removed;
  std::vector<std::pair<OwnerReference, OwnerReference>> changed;
  references_diffs(existing->owners, obj.owners, added, removed, changed);
  if (!added.empty() || !removed.empty() || !changed.empty()) {
    // Owners waiting for their dependents may be unblocked now.
    add_unblocked_owners_to_delete_queue(removed, changed);
    existing->owners = obj.owners;
    add_dependent_to_owners(*existing, added);
    remove_dependent_from_owners(*existing, removed);
  }
  if (obj.being_deleted) existing->being_deleted = true;
  process_transitions(event.old_object, obj, *existing);
}

void GraphBuilder::process_delete(const Event& event, const ObjectReference& identity) {
  Node* existing = graph_.find(identity.uid);
  bool remove = true;
  if (event.virtual_) {
    const auto [matching, nonmatching] =
        partition_dependents(graph_.dependents_of(*existing), identity);
    if (existing->virtual_) {
      // The dependents may disagree on the owner's coordinates: keep the
      // node while some name it differently.
      if (!nonmatching.empty()) {
        remove = false;
        if (!matching.empty()) {
          absent_owners_->add(identity);
          for (const Node* dep : matching)
            sinks_.attempt_to_delete(dep->identity.uid);
        }
        if (existing->identity == identity) {
          if (auto replacement = alternate_owner_identity(nonmatching, identity)) {
            existing->identity = *replacement;
            sinks_.attempt_to_delete_rate_limited(identity.uid);
          }
        }
      }
    } else if (existing->identity != identity) {
      // A virtual delete never removes an observed node of other coordinates.
      remove = false;
      if (!matching.empty()) {
        absent_owners_->add(identity);
        for (const Node* dep : matching)
          sinks_.attempt_to_delete(dep->identity.uid);
      }
    }
  }
  if (!remove) return;
  const Node gone = std::move(*existing);
  graph_.erase(identity.uid);
  remove_dependent_from_owners(gone, gone.owners);
  if (!gone.dependents.empty()) absent_owners_->add(identity);
  for (const std::string& dep : gone.dependents)
    sinks_.attempt_to_delete(dep);
  for (const OwnerReference& owner : gone.owners) {
    // Lets the owner finish a foreground deletion once its dependents are gone.
    const Node* owner_node = graph_.find(owner.uid);
    if (owner_node != nullptr && owner_node->deleting_dependents)
      sinks_.attempt_to_delete(owner.uid);
  }
}

}  // namespace kcm::controllers::garbagecollector
