#include "cache/controller_index.h"

#include "cache/shared_informer.h"

namespace kcm::cache {
namespace {

// A UID never contains '/', so no orphan key can equal a UID.
constexpr std::string_view kOrphanKeyPrefix = "_ORPHAN/";

}  // namespace

std::string orphan_index_key(std::string_view namespace_) {
  std::string key(kOrphanKeyPrefix);
  key += namespace_;
  return key;
}

std::vector<std::string> controller_uid_index_func(const CachedObject& obj) {
  if (const std::optional<OwnerRef> ref = obj.controller_ref()) return {std::string(ref->uid)};
  return {orphan_index_key(obj.namespace_())};
}

Result<void> add_controller_uid_index(SharedIndexInformer& informer) {
  if (informer.indexer()->has_index(kControllerUidIndex)) return {};
  return informer.add_indexers({{std::string(kControllerUidIndex), controller_uid_index_func}});
}

std::vector<ObjectPtr> list_controlled_by(const Indexer& indexer, std::string_view namespace_,
                                          std::string_view uid, Orphans orphans) {
  std::vector<ObjectPtr> out;
  if (!indexer.has_index(kControllerUidIndex)) {
    indexer.for_each([&](const ObjectPtr& obj) {
      if (obj->namespace_() != namespace_) return;
      const std::optional<OwnerRef> ref = obj->controller_ref();
      if (ref ? ref->uid == uid : orphans == Orphans::kInclude) out.push_back(obj);
    });
    return out;
  }
  if (auto owned = indexer.by_index(kControllerUidIndex, uid); owned.ok()) {
    // A UID is unique cluster-wide, but a reference from another namespace is
    // not ownership (the garbage collector reports it), so it is skipped.
    for (ObjectPtr& obj : *owned)
      if (obj->namespace_() == namespace_) out.push_back(std::move(obj));
  }
  if (orphans == Orphans::kInclude) {
    if (auto unowned = indexer.by_index(kControllerUidIndex, orphan_index_key(namespace_));
        unowned.ok()) {
      out.insert(out.end(), std::make_move_iterator(unowned->begin()),
                 std::make_move_iterator(unowned->end()));
    }
  }
  return out;
}

}  // namespace kcm::cache
