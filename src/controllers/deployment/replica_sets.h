// Telling a Deployment's ReplicaSets apart (upstream deployment_util.go and
// the ReplicaSet orderings of controller_utils.go), and building the new
// ReplicaSet for a template (getNewReplicaSet's create branch).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"
#include "api/time.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

// spec.template of a Deployment or ReplicaSet (null when absent).
const json::value& template_of(const json::object& obj);

// ReplicaSetsByCreationTimestamp: older first, ties by name.
bool replica_set_older(const ReplicaSetInfo& a, const ReplicaSetInfo& b);
void sort_by_creation_timestamp(ReplicaSetList& replica_sets);
// ReplicaSetsBySizeOlder: larger spec first, then older first.
void sort_by_size_older(ReplicaSetList& replica_sets);
// ReplicaSetsBySizeNewer: larger spec first, then newer first.
void sort_by_size_newer(ReplicaSetList& replica_sets);
// ReplicaSetsByRevision: lower revision first; equal or unparseable revisions
// by creation time, then name.
void sort_by_revision(ReplicaSetList& replica_sets);

// FindNewReplicaSet: sorts `replica_sets` by creation time (upstream sorts
// the caller's slice too) and returns the oldest whose template equals
// `deployment_template` ignoring the hash label; nullptr when none does.
// Each ReplicaSetInfo must have `object` set.
const ReplicaSetInfo* find_new_replica_set(const json::value& deployment_template,
                                           ReplicaSetList& replica_sets);

struct OldReplicaSets {
  ReplicaSetList required;  // old RSs with spec.replicas != 0
  ReplicaSetList all;       // every RS but the new one
};
// FindOldReplicaSets, in creation order.
OldReplicaSets find_old_replica_sets(const json::value& deployment_template,
                                     ReplicaSetList& replica_sets);

// FindActiveOrLatest: sorts `old_rss` newest first (upstream sorts the
// caller's slice too) and returns, among them and the new RS, the only
// active RS; with no active RS the new one, else the newest old one; nullptr
// when several are active (or there are none at all).
const ReplicaSetInfo* find_active_or_latest(const ReplicaSetInfo* new_rs, ReplicaSetList& old_rss);

// The ReplicaSet getNewReplicaSet creates for `deployment` (its JSON) when
// no RS has its template:
// - hash = ComputeHash(template, status.collisionCount);
// - name "<deployment>-<hash>", the Deployment's namespace, labels = the
//   template labels plus pod-template-hash, one controller ownerReference
//   (apps/v1 Deployment, blockOwnerDeletion);
// - spec: minReadySeconds, selector plus matchLabels pod-template-hash,
//   template with the label, replicas = NewRSNewReplicas(d, old + [this], this);
// - annotations: SetNewReplicaSetAnnotations(d, rs, revision_text, exists=false)
//   (revision_text is new_revision(old_rss)).
// Errors are NewRSNewReplicas's.
Result<json::object> new_replica_set(const json::object& deployment, const DeploymentView& d,
                                     const ReplicaSetList& old_rss, std::string_view revision_text);

// The revision getNewReplicaSet gives a new (or reused) RS: MaxRevision(old) + 1.
std::string new_revision(const ReplicaSetList& old_rss);

// getNewReplicaSet with an existing new RS: a copy of it with
// SetNewReplicaSetAnnotations(d, rs, revision_text, exists=true) applied and
// spec.minReadySeconds = d's.
struct RefreshedReplicaSet {
  json::object rs;
  // The annotations or minReadySeconds changed: the controller updates the
  // RS and returns it, leaving the Deployment for the next sync. Otherwise
  // the Deployment's annotations were copied in before a revision that is
  // not a number stopped SetNewReplicaSetAnnotations ("no change"); upstream
  // goes on with that copy unwritten, so its later updates of the RS carry them.
  bool write = false;
};
// nullopt when the RS is up to date (then sync_deployment_with_new_replica_set).
std::optional<RefreshedReplicaSet> refresh_new_replica_set(const DeploymentView& d,
                                                           const json::object& rs,
                                                           std::string_view revision_text);

// getNewReplicaSet's Deployment bookkeeping for an up-to-date existing new
// RS: the Deployment takes the RS's revision annotation and, with a progress
// deadline and no Progressing condition yet, Progressing=True
// FoundNewReplicaSet. Writes into `deployment` (metadata.annotations and
// status); true when it needs an UpdateStatus.
bool sync_deployment_with_new_replica_set(json::object& deployment, const DeploymentView& d,
                                          const ReplicaSetInfo& new_rs, api::Time now);

// The same after creating the new RS (or finding the one that already
// existed, `created` false): the Deployment's revision becomes
// revision_text and, when really created and with a progress deadline,
// Progressing=True NewReplicaSetCreated. True when it needs an UpdateStatus.
bool sync_deployment_with_created_replica_set(json::object& deployment, const DeploymentView& d,
                                              std::string_view revision_text,
                                              std::string_view rs_name, bool created,
                                              api::Time now);

// A failed creation with a progress deadline: Progressing=False
// ReplicaSetCreateError with failed_create_replica_set_message; written into
// `deployment`'s status (upstream then writes it, ignoring errors).
void set_replica_set_create_error(json::object& deployment, const DeploymentView& d,
                                  std::string_view message, api::Time now);

// The AlreadyExists answer to the create: the existing RS of that name is
// ours (controlled by the Deployment's uid) with the Deployment's template,
// so it counts as the created RS; otherwise it is a hash collision.
bool is_own_replica_set(const DeploymentView& d, const json::object& deployment,
                        const ReplicaSetInfo& existing);
// A hash collision: status.collisionCount becomes 1 when unset, else +1.
std::int32_t next_collision_count(std::optional<std::int32_t> collision_count);

// SetFromReplicaSetTemplate (rollback): the Deployment's template becomes the
// RS's template without the pod-template-hash label.
void set_from_replica_set_template(json::object& deployment, const json::value& rs_template);

}  // namespace kcm::controllers::deployment
