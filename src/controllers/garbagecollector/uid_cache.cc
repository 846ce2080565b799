#include "controllers/garbagecollector/uid_cache.h"

namespace kcm::controllers::garbagecollector {

void ReferenceCache::add(const ObjectReference& ref) {
  const std::lock_guard lock(mu_);
  if (const auto it = index_.find(ref); it != index_.end()) {
    order_.splice(order_.begin(), order_, it->second);
    return;
  }
  order_.push_front(ref);
  index_.emplace(ref, order_.begin());
  while (order_.size() > max_size_) {
    index_.erase(order_.back());
    order_.pop_back();
  }
}

bool ReferenceCache::has(const ObjectReference& ref) {
  const std::lock_guard lock(mu_);
  const auto it = index_.find(ref);
  if (it == index_.end()) return false;
  order_.splice(order_.begin(), order_, it->second);
  return true;
}

std::size_t ReferenceCache::size() const {
  const std::lock_guard lock(mu_);
  return order_.size();
}

}  // namespace kcm::controllers::garbagecollector
