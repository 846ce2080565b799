// An index of cached objects by the UID of their controller, so that a
// controller finds what it owns without scanning its namespace (upstream
// controller.AddPodControllerUIDIndexer and FilterPodsByOwner, generalized
// from pods to any kind with ownerReferences).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "cache/cached_object.h"
#include "cache/indexer.h"

namespace kcm::cache {

class SharedIndexInformer;

inline constexpr std::string_view kControllerUidIndex = "controllerUID";

// The controller's UID, or orphan_index_key(namespace) for an object without
// a controller: the orphans of a namespace are the ones a controller may adopt.
std::vector<std::string> controller_uid_index_func(const CachedObject& obj);
std::string orphan_index_key(std::string_view namespace_);

// Adds the index to an informer that has not started; a no-op when it has it
// already (informers are shared, and several controllers ask).
Result<void> add_controller_uid_index(SharedIndexInformer& informer);

enum class Orphans { kExclude, kInclude };

// The objects of `namespace_` whose controller has `uid`, then (kInclude) the
// namespace's objects without a controller. Without the index (an informer
// that started before the index was added) it scans the namespace.
std::vector<ObjectPtr> list_controlled_by(const Indexer& indexer, std::string_view namespace_,
                                          std::string_view uid, Orphans orphans);

}  // namespace kcm::cache
