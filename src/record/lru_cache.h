// A fixed-size least-recently-used map (groupcache's lru, which the event
// correlator's caches use): get and put both make an entry the newest; a put
// beyond the capacity evicts the oldest. Not thread-safe.
#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>

namespace kcm::record {

template <class V>
class LruCache {
 public:
  explicit LruCache(std::size_t capacity) : capacity_(capacity) {}

  // The value for `key` (now the most recent), or nullptr.
  V* get(const std::string& key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return &it->second->second;
  }

  void put(const std::string& key, V value) {
    if (const auto it = index_.find(key); it != index_.end()) {
      it->second->second = std::move(value);
      order_.splice(order_.begin(), order_, it->second);
      return;
    }
    order_.emplace_front(key, std::move(value));
    index_.emplace(key, order_.begin());
    if (capacity_ != 0 && order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

  std::size_t size() const { return order_.size(); }

 private:
  using Entry = std::pair<std::string, V>;
  std::size_t capacity_;
  std::list<Entry> order_;  // newest first
  std::unordered_map<std::string, typename std::list<Entry>::iterator> index_;
};

}  // namespace kcm::record
