// Turns request objects into stored objects and back: sets the
// resourceVersion, serializes once, and extracts what selectors need.
#pragma once

#include <cstdint>
#include <string>

#include "api/json.h"
#include "api/result.h"
#include "local/registry/resource_info.h"
#include "local/storage/stored_object.h"

namespace kcm::local::apiserver {

namespace json = boost::json;

// Stores `obj` at `revision` (written into metadata.resourceVersion; 0 leaves it unset,
// for dry runs).
storage::ObjectPtr encode_stored(const registry::ResourceInfo& info, json::object& obj,
                                 std::uint64_t revision);

// Rebuilds a stored object from its persisted JSON (recovery).
Result<storage::ObjectPtr> decode_stored(const registry::ResourceInfo& info, std::string json);

// Parses a stored object's JSON back into a tree (for read-modify-write).
json::object parse_stored(const storage::StoredObject& object);

// The value of a selectable field of a stored object ("" when unknown).
std::string_view stored_field(const registry::ResourceInfo& info,
                              const storage::StoredObject& object, std::string_view field);

}  // namespace kcm::local::apiserver
