// A change to one object, as the reflector hands it to the delta queue
// (upstream tools/cache Delta).
#pragma once

#include <string_view>

#include "cache/cached_object.h"

namespace kcm::cache {

enum class DeltaType {
  kAdded,
  kUpdated,
  kDeleted,
  // From a re-list (or the initial list), when it is unknown whether the object changed.
  kReplaced,
  // A periodic resync.
  kSync,
};

// "Added", "Updated", "Deleted", "Replaced", "Sync" (upstream's DeltaType values).
std::string_view to_string(DeltaType type);

struct Delta {
  DeltaType type;
  DeletedObject object;  // a tombstone only for kDeleted
};

// What a reflector writes to (upstream's Store as a reflector uses it).
class ReflectorStore {
 public:
  virtual ~ReflectorStore() = default;
  virtual void add(ObjectPtr obj) = 0;
  virtual void update(ObjectPtr obj) = 0;
  virtual void remove(ObjectPtr obj) = 0;
  // The full content as of `resource_version` (a list or the end of a streamed list).
  virtual void replace(std::vector<ObjectPtr> objects, const std::string& resource_version) = 0;
  virtual void resync() = 0;
};

}  // namespace kcm::cache
