#include "cache/indexer.h"

#include <algorithm>

namespace kcm::cache {

namespace {

std::string no_index(std::string_view name) {
  return "Index with name " + std::string(name) + " does not exist";
}

}  // namespace

std::vector<std::string> meta_namespace_index_func(const CachedObject& obj) {
  return {std::string(obj.namespace_())};
}

Indexer::Indexer(Indexers indexers) {
  for (auto& [name, func] : indexers)
    indexes_[name].func = std::move(func);
}

void Indexer::add_to_indexes_locked(const CachedObject& obj) {
  for (auto& [name, index] : indexes_) {
    for (std::string& value : index.func(obj))
      index.values[std::move(value)].insert(obj.key());
  }
}

void Indexer::remove_from_indexes_locked(const CachedObject& obj) {
  for (auto& [name, index] : indexes_) {
    for (const std::string& value : index.func(obj)) {
      auto it = index.values.find(value);
      if (it == index.values.end()) continue;
      it->second.erase(obj.key());
      // Empty sets are dropped so that high-cardinality values do not pile up.
      if (it->second.empty()) index.values.erase(it);
    }
  }
}

void Indexer::add(ObjectPtr obj) {
  std::unique_lock lock(mu_);
  auto it = items_.find(obj->key());
  if (it != items_.end()) {
    // The old object's key (which the map and the indexes refer to) must stay
    // alive until every reference to it is gone.
    ObjectPtr old = std::move(it->second);
    remove_from_indexes_locked(*old);
    items_.erase(it);
  }
  add_to_indexes_locked(*obj);
  const std::string_view key = obj->key();
  items_.emplace(key, std::move(obj));
}

void Indexer::remove(std::string_view key) {
  std::unique_lock lock(mu_);
  auto it = items_.find(key);
  if (it == items_.end()) return;
  ObjectPtr old = std::move(it->second);
  remove_from_indexes_locked(*old);
  items_.erase(it);
}

void Indexer::replace(std::vector<ObjectPtr> objects) {
  std::unordered_map<std::string_view, ObjectPtr> old;
  std::unique_lock lock(mu_);
  old.swap(items_);  // keeps the old keys alive while the indexes are cleared
  for (auto& [name, index] : indexes_)
    index.values.clear();
  items_.reserve(objects.size());
  for (ObjectPtr& obj : objects) {
    auto it = items_.find(obj->key());
    if (it != items_.end()) {
      ObjectPtr prev = std::move(it->second);
      remove_from_indexes_locked(*prev);
      items_.erase(it);
    }
    add_to_indexes_locked(*obj);
    const std::string_view key = obj->key();
    items_.emplace(key, std::move(obj));
  }
}

std::vector<ObjectPtr> Indexer::list() const {
  std::shared_lock lock(mu_);
  std::vector<ObjectPtr> out;
  out.reserve(items_.size());
  for (const auto& [key, obj] : items_)
    out.push_back(obj);
  return out;
}

std::vector<std::string> Indexer::list_keys() const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  out.reserve(items_.size());
  for (const auto& [key, obj] : items_)
    out.emplace_back(key);
  return out;
}

ObjectPtr Indexer::get_by_key(std::string_view key) const {
  std::shared_lock lock(mu_);
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : it->second;
}

ObjectPtr Indexer::get(std::string_view namespace_, std::string_view name) const {
  return get_by_key(make_key(namespace_, name));
}

std::size_t Indexer::size() const {
  std::shared_lock lock(mu_);
  return items_.size();
}

void Indexer::for_each(const std::function<void(const ObjectPtr&)>& f) const {
  std::shared_lock lock(mu_);
  for (const auto& [key, obj] : items_)
    f(obj);
}

const Indexer::Index* Indexer::find_index_locked(std::string_view name) const {
  auto it = indexes_.find(name);
  return it == indexes_.end() ? nullptr : &it->second;
}

Result<std::vector<ObjectPtr>> Indexer::index(std::string_view index_name,
                                              const CachedObject& obj) const {
  std::shared_lock lock(mu_);
  const Index* index = find_index_locked(index_name);
  if (index == nullptr) return fail(no_index(index_name));
  std::unordered_set<std::string_view> keys;
  for (const std::string& value : index->func(obj)) {
    auto it = index->values.find(value);
    if (it != index->values.end()) keys.insert(it->second.begin(), it->second.end());
  }
  std::vector<ObjectPtr> out;
  out.reserve(keys.size());
  for (std::string_view key : keys)
    out.push_back(items_.at(key));
  return out;
}

Result<std::vector<std::string>> Indexer::index_keys(std::string_view index_name,
                                                     std::string_view value) const {
  std::shared_lock lock(mu_);
  const Index* index = find_index_locked(index_name);
  if (index == nullptr) return fail(no_index(index_name));
  std::vector<std::string> out;
  auto it = index->values.find(std::string(value));
  if (it != index->values.end()) {
    out.reserve(it->second.size());
    for (std::string_view key : it->second)
      out.emplace_back(key);
  }
  return out;
}

Result<std::vector<ObjectPtr>> Indexer::by_index(std::string_view index_name,
                                                 std::string_view value) const {
  std::shared_lock lock(mu_);
  const Index* index = find_index_locked(index_name);
  if (index == nullptr) return fail(no_index(index_name));
  std::vector<ObjectPtr> out;
  auto it = index->values.find(std::string(value));
  if (it != index->values.end()) {
    out.reserve(it->second.size());
    for (std::string_view key : it->second)
      out.push_back(items_.at(key));
  }
  return out;
}

std::vector<std::string> Indexer::list_index_func_values(std::string_view index_name) const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  if (const Index* index = find_index_locked(index_name)) {
    out.reserve(index->values.size());
    for (const auto& [value, keys] : index->values)
      out.push_back(value);
  }
  return out;
}

bool Indexer::has_index(std::string_view index_name) const {
  std::shared_lock lock(mu_);
  return find_index_locked(index_name) != nullptr;
}

Result<void> Indexer::add_indexers(Indexers indexers) {
  std::unique_lock lock(mu_);
  if (!items_.empty()) return fail("cannot add indexers to running index");
  std::vector<std::string> conflicts;
  for (const auto& [name, func] : indexers) {
    if (indexes_.count(name) != 0) conflicts.push_back(name);
  }
  if (!conflicts.empty()) {
    // Go prints the intersection set (a map) with sorted keys.
    std::string msg = "indexer conflict: map[";
    for (std::size_t i = 0; i < conflicts.size(); ++i) {
      if (i > 0) msg += ' ';
      msg += conflicts[i] + ":{}";
    }
    return fail(msg + "]");
  }
  for (auto& [name, func] : indexers)
    indexes_[name].func = std::move(func);
  return {};
}

}  // namespace kcm::cache
