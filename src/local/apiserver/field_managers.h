// The field manager of each served resource and subresource: its type, zero
// object and reset fields (what the strategy resets, as upstream's
// GetResetFields). Made on first use, and again for a custom resource whose
// CRD changed its schema.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "local/apiserver/rest_store.h"
#include "local/fieldmanager/field_manager.h"
#include "local/fieldmanager/scale_fields.h"

namespace kcm::local::apiserver {

class FieldManagers {
 public:
  FieldManagers();

  // The manager for writes to `info` through `sub` (kNone, kStatus or
  // kFinalize; kSystem writes are not tracked).
  std::shared_ptr<const fieldmanager::FieldManager> of(const ResourceInfo& info, Subresource sub);

  // The manager of autoscaling/v1 Scale objects, which writes through a scale
  // subresource are tracked on (fieldmanager/scale_fields.h).
  const fieldmanager::FieldManager& scale() const { return *scale_; }

 private:
  std::mutex mu_;
  struct Made {
    const crd::Schema* schema;  // a custom resource's structural schema when made
    std::shared_ptr<const fieldmanager::FieldManager> manager;
  };
  std::map<std::string, Made, std::less<>> made_;
  const std::shared_ptr<const fieldmanager::FieldManager> scale_;
};

// autoscaling/v1 Scale, what a scale subresource serves.
const api::GroupVersionKind& scale_kind();

// Where each API version of `info`'s kind keeps the replicas its Scale shows
// (upstream's ReplicasPathMappings; a custom resource's from its CRD).
fieldmanager::ReplicasPaths replicas_paths(const ResourceInfo& info);

// The name `fieldManager` or else the User-Agent gives a write, as upstream's
// managerOrUserAgent.
std::string manager_or_user_agent(std::string_view field_manager, std::string_view user_agent);

}  // namespace kcm::local::apiserver
