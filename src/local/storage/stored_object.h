// One stored API object: its JSON as served, plus what the server needs to
// select it without parsing (labels and the resource's selectable fields).
// Immutable once stored; shared by the maps, the history and watchers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kcm::local::storage {

struct StoredObject {
  std::string json;  // compact JSON with metadata.resourceVersion == revision
  std::uint64_t revision = 0;
  std::string namespace_;
  std::string name;
  std::string uid;
  std::vector<std::pair<std::string, std::string>> labels;  // sorted by key
  std::vector<std::string> fields;  // selectable field values, in the resource's order
};

using ObjectPtr = std::shared_ptr<const StoredObject>;

// The store key of an object: "namespace/name", or "name" when cluster-scoped.
inline std::string object_key(std::string_view namespace_, std::string_view name) {
  if (namespace_.empty()) return std::string(name);
  std::string key;
  key.reserve(namespace_.size() + 1 + name.size());
  key.append(namespace_).append("/").append(name);
  return key;
}

}  // namespace kcm::local::storage
