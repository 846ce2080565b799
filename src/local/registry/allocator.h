// What a write of some kinds takes from a pool that all objects of the kind
// share: a Service's cluster IPs and node ports. As upstream's REST storage
// allocates them in BeginCreate/BeginUpdate, the generic store asks the
// kind's allocator after defaulting and before validation; what was taken
// stays reserved until the write is committed or refused, and from then on
// the stored objects themselves say what is in use (so deletions release by
// themselves and a restart recovers the pool from the store).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"

namespace kcm::local::registry {

namespace json = boost::json;

class Allocator {
 public:
  virtual ~Allocator() = default;

  // The kind's objects as stored now (all namespaces).
  using StoredObjects = std::function<std::vector<json::object>()>;
  // Keeps what one write took reserved until it is released (destroyed).
  using Reservation = std::shared_ptr<const void>;

  // Fills in what `obj` needs from the pool, checking what it asks for.
  // `old`: the object before an update, null on create. A dry run drops the
  // reservation as soon as the write is checked.
  virtual Result<Reservation, api::Status> allocate(json::object& obj, const json::object* old,
                                                    const StoredObjects& stored) const = 0;
};

}  // namespace kcm::local::registry
