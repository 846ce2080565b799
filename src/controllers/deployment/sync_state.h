// What one syncDeployment works on: a deep copy of the Deployment (whose
// status and annotations change as the sync writes them) with its parsed
// view, and the ReplicaSets it owns, as objects and views that stay put while
// writes add newer versions.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "cache/cached_object.h"
#include "controllers/deployment/deployment_status.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

// Owns ReplicaSet objects and their views. Pointers to either stay valid
// for the pool's lifetime (a deque never moves its elements on push_back).
class ReplicaSetPool {
 public:
  const ReplicaSetInfo* add(json::object rs);

 private:
  std::deque<json::object> objects_;
  std::deque<ReplicaSetInfo> infos_;
};

struct SyncState {
  // Where this sync's copies of cached objects live (storage()): freed in
  // one go when the sync ends, instead of node by node. First, so that it
  // outlives every member that uses it. A copy of a value in the arena is in
  // the arena too (Boost.JSON copies keep the source's memory resource):
  // whatever must outlive the sync is copied with a storage_ptr of its own.
  std::unique_ptr<json::monotonic_resource> arena = std::make_unique<json::monotonic_resource>();

  std::string key;  // "namespace/name"
  // The Deployment as this sync last wrote (or read) it. In the arena, so
  // that the object decoded into storage() is moved in, not copied.
  json::object deployment{storage()};
  DeploymentView d;
  ReplicaSetPool pool;
  // The ReplicaSets the Deployment owns (getReplicaSetsForDeployment); an
  // entry is replaced when getNewReplicaSet updates it, so later steps of
  // the same sync see the written version.
  ReplicaSetList rs_list;

  // The arena, for decoding cached objects this sync keeps.
  json::storage_ptr storage() const { return json::storage_ptr(arena.get()); }

  // Re-reads `d` from `deployment` after an in-memory change.
  void refresh_view();
  // d.status = status, written into `deployment` too.
  void set_status(const DeploymentStatus& status);
  // After a successful write: the resourceVersion written (ignored when
  // empty), so that the next write of this sync is not refused as a conflict.
  void take_resource_version(std::string_view written);
  // Adds `rs` to the pool and puts it in rs_list in place of the entry with
  // the same uid (or appends it).
  const ReplicaSetInfo* replace_replica_set(json::object rs);
};

}  // namespace kcm::controllers::deployment
