#include "controllers/deployment/sync_state.h"

#include <utility>

namespace kcm::controllers::deployment {

const ReplicaSetInfo* ReplicaSetPool::add(json::object rs) {
  objects_.push_back(std::move(rs));
  infos_.push_back(ReplicaSetInfo::from_json(objects_.back()));
  return &infos_.back();
}

void SyncState::refresh_view() {
  // Only the members the sync edits (status, annotations) change; they never
  // make the parse fail where the first one succeeded.
  auto view = DeploymentView::from_json(deployment);
  if (view.ok()) d = std::move(*view);
}

void SyncState::set_status(const DeploymentStatus& status) {
  d.status = status;
  status.write_to(api::ensure_object(deployment, "status"));
}

void SyncState::take_resource_version(std::string_view written) {
  if (!written.empty()) api::ensure_object(deployment, "metadata")["resourceVersion"] = written;
}

const ReplicaSetInfo* SyncState::replace_replica_set(json::object rs) {
  const ReplicaSetInfo* added = pool.add(std::move(rs));
  for (const ReplicaSetInfo*& entry : rs_list) {
    if (entry != nullptr && entry->uid == added->uid) {
      entry = added;
      return added;
    }
  }
  rs_list.push_back(added);
  return added;
}

}  // namespace kcm::controllers::deployment
