// The absent-owner cache (upstream ReferenceCache in uid_cache.go): the
// coordinates of owners the API server said do not exist, so dependents
// naming them need no GET. A thread-safe LRU.
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <mutex>

#include "controllers/garbagecollector/graph.h"

namespace kcm::controllers::garbagecollector {

inline constexpr std::size_t kAbsentOwnerCacheSize = 500;

class ReferenceCache {
 public:
  explicit ReferenceCache(std::size_t max_size = kAbsentOwnerCacheSize) : max_size_(max_size) {}

  // Adds (or refreshes) `ref`, evicting the least recently used beyond the size.
  void add(const ObjectReference& ref);
  // Whether `ref` is cached; a hit makes it the most recently used.
  bool has(const ObjectReference& ref);
  std::size_t size() const;

 private:
  const std::size_t max_size_;
  mutable std::mutex mu_;
  std::list<ObjectReference> order_;  // most recent first
  std::map<ObjectReference, std::list<ObjectReference>::iterator> index_;
};

}  // namespace kcm::controllers::garbagecollector
