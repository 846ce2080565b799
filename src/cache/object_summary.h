// A kind's typed digest of an object, computed once as the object enters an
// informer's cache: the few fields its controllers read on every sync (a
// pod's phase, node, readiness...). Reading it costs nothing, where reading
// the same fields from the body costs a decompression and a parse. The
// digest is immutable and shared like the cached object it belongs to.
#pragma once

#include <cstddef>
#include <memory>

#include "api/json.h"

namespace kcm::cache {

class ObjectSummary {
 public:
  virtual ~ObjectSummary() = default;
  // Bytes it holds, itself and its shared_ptr's control block included (for
  // the cache's memory figures).
  virtual std::size_t footprint_bytes() const = 0;
};

// Builds an object's summary from the object as it is cached (after the
// informer's transform). A plain function, so that two controllers asking one
// shared informer for the same summary can be told apart from a conflict.
using Summarizer = std::shared_ptr<const ObjectSummary> (*)(const api::json::object& obj);

}  // namespace kcm::cache
