#include "controller/owner_event_handler.h"

#include <algorithm>

#include "api/object_meta.h"
#include "controller/owner_references.h"
#include "log/log.h"

namespace kcm::controller {

namespace {

// The key of the owner a reference names, when it is of `owner`'s type.
std::optional<std::string> key_for(std::string_view api_version, std::string_view kind,
                                   std::string_view name, std::string_view child_namespace,
                                   const OwnerType& owner) {
  const std::optional<std::string_view> group = api_group_of(api_version);
  if (!group || *group != owner.group || kind != owner.kind || name.empty()) return std::nullopt;
  if (!owner.namespaced) return std::string(name);
  if (child_namespace.empty()) return std::nullopt;
  std::string key;
  key.reserve(child_namespace.size() + 1 + name.size());
  key.append(child_namespace).append("/").append(name);
  return key;
}

void add_unique(std::vector<std::string>& keys, std::optional<std::string> key) {
  if (key && std::find(keys.begin(), keys.end(), *key) == keys.end()) {
    keys.push_back(std::move(*key));
  }
}

// metadata.namespace ("" when absent or of another type). Not api::find_path:
// it takes a json::value, and a json::object would bind to a temporary copy.
std::string_view namespace_of(const json::object& obj) {
  const json::object* meta = api::find_object(obj, "metadata");
  return meta ? api::as_string_view(api::find(*meta, "namespace")) : std::string_view{};
}

class EnqueueForOwner final : public cache::ResourceEventHandler {
 public:
  EnqueueForOwner(OwnerType owner, EnqueueFn enqueue, bool only_controller)
      : owner_(std::move(owner)), enqueue_(std::move(enqueue)), only_controller_(only_controller) {}

  void on_add(const cache::ObjectPtr& obj, bool) override {
    if (obj) enqueue(owner_keys(*obj, owner_, only_controller_));
  }

  void on_update(const cache::ObjectPtr& old_obj, const cache::ObjectPtr& new_obj) override {
    std::vector<std::string> keys;
    if (old_obj) keys = owner_keys(*old_obj, owner_, only_controller_);
    if (new_obj) {
      for (std::string& key : owner_keys(*new_obj, owner_, only_controller_))
        add_unique(keys, std::move(key));
    }
    enqueue(keys);
  }

  void on_delete(const cache::DeletedObject& obj) override {
    const cache::ObjectPtr& last = cache::object_of(obj);
    if (!last) {
      log::error("couldn't get object from tombstone", {{"key", cache::key_of(obj)}});
      return;
    }
    enqueue(owner_keys(*last, owner_, only_controller_));
  }

 private:
  void enqueue(const std::vector<std::string>& keys) const {
    if (!enqueue_) return;
    for (const std::string& key : keys)
      enqueue_(key);
  }

  const OwnerType owner_;
  const EnqueueFn enqueue_;
  const bool only_controller_;
};

}  // namespace

std::optional<std::string> controller_owner_key(const json::object& child,
                                                std::string_view owner_api_group,
                                                std::string_view owner_kind,
                                                bool owner_namespaced) {
  const std::optional<api::OwnerReference> ref = get_controller_of(child);
  if (!ref) return std::nullopt;
  const OwnerType owner{std::string(owner_api_group), std::string(owner_kind), owner_namespaced};
  return key_for(ref->api_version, ref->kind, ref->name, namespace_of(child), owner);
}

std::vector<std::string> owner_keys(const json::object& child, const OwnerType& owner,
                                    bool only_controller) {
  std::vector<std::string> keys;
  const auto refs = owner_references_of(child);
  if (!refs) return keys;
  const std::string_view ns = namespace_of(child);
  for (const api::OwnerReference& r : *refs) {
    if (only_controller && !r.controller.value_or(false)) continue;
    add_unique(keys, key_for(r.api_version, r.kind, r.name, ns, owner));
    if (only_controller) break;  // the first controller reference only
  }
  return keys;
}

std::vector<std::string> owner_keys(const cache::CachedObject& child, const OwnerType& owner,
                                    bool only_controller) {
  std::vector<std::string> keys;
  if (only_controller) {
    if (const std::optional<cache::OwnerRef> r = child.controller_ref()) {
      add_unique(keys, key_for(r->api_version, r->kind, r->name, child.namespace_(), owner));
    }
    return keys;
  }
  for (std::size_t i = 0; i < child.owner_count(); ++i) {
    const cache::OwnerRef r = child.owner_reference(i);
    add_unique(keys, key_for(r.api_version, r.kind, r.name, child.namespace_(), owner));
  }
  return keys;
}

std::shared_ptr<cache::ResourceEventHandler> enqueue_for_owner(OwnerType owner, EnqueueFn enqueue,
                                                               bool only_controller) {
  return std::make_shared<EnqueueForOwner>(std::move(owner), std::move(enqueue), only_controller);
}

}  // namespace kcm::controller
