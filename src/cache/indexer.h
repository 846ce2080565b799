// The informer's cache: a thread-safe map from key to object plus named
// indexes (upstream tools/cache thread_safe_store.go, index.go, store.go).
// Index and map entries refer to the keys inside the cached objects, so an
// object's key is stored once.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "api/result.h"
#include "cache/cached_object.h"

namespace kcm::cache {

// Returns the values an object is indexed under (upstream IndexFunc).
using IndexFunc = std::function<std::vector<std::string>(const CachedObject&)>;
// Index name -> function.
using Indexers = std::map<std::string, IndexFunc, std::less<>>;

// The index every factory informer has (upstream NamespaceIndex).
inline constexpr std::string_view kNamespaceIndex = "namespace";
// upstream MetaNamespaceIndexFunc: the object's namespace ("" when cluster-scoped).
std::vector<std::string> meta_namespace_index_func(const CachedObject& obj);

// What the delta queue needs from the cache (upstream KeyListerGetter).
class KnownObjects {
 public:
  virtual ~KnownObjects() = default;
  virtual std::vector<std::string> list_keys() const = 0;
  virtual ObjectPtr get_by_key(std::string_view key) const = 0;  // null when absent
};

class Indexer : public KnownObjects {
 public:
  explicit Indexer(Indexers indexers = {});

  // Add and update are the same: insert or replace by the object's key.
  void add(ObjectPtr obj);
  void update(ObjectPtr obj) { add(std::move(obj)); }
  void remove(std::string_view key);
  // Replaces the whole content (the resource version is unused, as upstream).
  void replace(std::vector<ObjectPtr> objects);

  std::vector<ObjectPtr> list() const;
  std::vector<std::string> list_keys() const override;
  ObjectPtr get_by_key(std::string_view key) const override;
  ObjectPtr get(std::string_view namespace_, std::string_view name) const;
  std::size_t size() const;
  // Calls f for every object under the read lock (f must not call back into the indexer).
  void for_each(const std::function<void(const ObjectPtr&)>& f) const;

  // The objects sharing any of obj's values of the index.
  Result<std::vector<ObjectPtr>> index(std::string_view index_name, const CachedObject& obj) const;
  // Keys / objects indexed under `value`. Errors: "Index with name <n> does not exist".
  Result<std::vector<std::string>> index_keys(std::string_view index_name,
                                              std::string_view value) const;
  Result<std::vector<ObjectPtr>> by_index(std::string_view index_name,
                                          std::string_view value) const;
  // Every value the index holds.
  std::vector<std::string> list_index_func_values(std::string_view index_name) const;
  // Only while empty: "cannot add indexers to running index"; an existing name:
  // "indexer conflict: map[<name>:{}]".
  Result<void> add_indexers(Indexers indexers);
  bool has_index(std::string_view index_name) const;

 private:
  using KeySet = std::unordered_set<std::string_view>;
  struct Index {
    IndexFunc func;
    std::unordered_map<std::string, KeySet> values;
  };

  void add_to_indexes_locked(const CachedObject& obj);
  void remove_from_indexes_locked(const CachedObject& obj);
  const Index* find_index_locked(std::string_view name) const;

  mutable std::shared_mutex mu_;
  // Keys are views of each object's own key().
  std::unordered_map<std::string_view, ObjectPtr> items_;
  std::map<std::string, Index, std::less<>> indexes_;
};

}  // namespace kcm::cache
