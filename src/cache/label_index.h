// An index of cached objects by namespace and the value of one label. A
// lister whose selector requires that label to have one value (as every
// ReplicaSet a Deployment made requires its pod-template-hash) reads the
// index entry instead of scanning the namespace; the full selector still
// decides, so the answer is the same.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/labels.h"
#include "api/result.h"
#include "cache/cached_object.h"
#include "cache/indexer.h"

namespace kcm::cache {

class SharedIndexInformer;

// "label:<label>".
std::string label_index_name(std::string_view label);
// Values "<namespace>/<value>" for objects that carry the label.
IndexFunc label_index_func(std::string label);
// Adds the index to an informer that has not started; a no-op when it has it.
Result<void> add_label_index(SharedIndexInformer& informer, std::string_view label);

// The namespace's objects matching `selector` through a label index the
// selector pins to one value; nullopt when the indexer has no such index.
std::optional<std::vector<ObjectPtr>> list_by_label_index(const Indexer& indexer,
                                                          std::string_view namespace_,
                                                          const api::labels::Selector& selector);

}  // namespace kcm::cache
