// The Deployment controller's annotations (upstream deployment_util.go): the
// revision bookkeeping on ReplicaSets and Deployments, the desired/max
// replica annotations that make proportional scaling possible, and which
// Deployment annotations travel to ReplicaSets (and back on rollback).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"
#include "controllers/deployment/views.h"

namespace kcm::controllers::deployment {

inline constexpr std::string_view kRevisionAnnotation = "deployment.kubernetes.io/revision";
inline constexpr std::string_view kRevisionHistoryAnnotation =
    "deployment.kubernetes.io/revision-history";
inline constexpr std::string_view kDesiredReplicasAnnotation =
    "deployment.kubernetes.io/desired-replicas";
inline constexpr std::string_view kMaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";
// The old spec.rollbackTo.revision, carried by legacy API versions.
inline constexpr std::string_view kDeprecatedRollbackTo = "deprecated.deployment.rollback.to";
inline constexpr std::string_view kLastAppliedConfigAnnotation =
    "kubectl.kubernetes.io/last-applied-configuration";
inline constexpr std::string_view kChangeCauseAnnotation = "kubernetes.io/change-cause";

// The revision-history annotation is kept below this many characters.
inline constexpr std::size_t kRevisionHistoryLimitInChars = 2000;

// skipCopyAnnotation: the annotations never copied between a Deployment and
// its ReplicaSets (last-applied-configuration, revision, revision-history,
// desired-replicas, max-replicas, deprecated.deployment.rollback.to).
bool skip_copy_annotation(std::string_view key);

// Revision: the revision annotation as an int64 (strconv.ParseInt); 0 when
// absent; an error like `strconv.ParseInt: parsing "x": invalid syntax`.
Result<std::int64_t> revision(const Annotations& annotations);
// MaxRevision: the highest revision; RSs whose revision does not parse are skipped.
std::int64_t max_revision(const ReplicaSetList& replica_sets);
// LastRevision: the second highest revision (a tie on the highest makes it
// the second too, as upstream's `>=` does).
std::int64_t last_revision(const ReplicaSetList& replica_sets);

// getNonNegativeInt32FromAnnotation: nullopt when absent; an error for
// anything but decimal digits (`strconv.ParseUint: parsing "-1": invalid
// syntax`) or a value above MaxInt32 (`... value out of range` /
// `value 2147483648 is out of range (higher than 2147483647)`).
Result<std::optional<std::int32_t>> non_negative_int32_annotation(const Annotations& annotations,
                                                                  std::string_view key);
// The verbose wrappers: the value when present and valid.
std::optional<std::int32_t> desired_replicas_annotation(const ReplicaSetInfo& rs);
std::optional<std::int32_t> max_replicas_annotation(const ReplicaSetInfo& rs);

// copyDeploymentAnnotationsToReplicaSet: every non-skipped Deployment
// annotation is set on `rs` when the RS lacks it or has another value
// (annotations are never removed). True when `rs` changed.
bool copy_deployment_annotations_to_replica_set(const Annotations& deployment_annotations,
                                                json::object& rs);

// SetNewReplicaSetAnnotations: copies the Deployment's annotations, raises
// the revision to `new_revision` when it is higher (appending the old one to
// revision-history, dropping the oldest entries to stay within
// `history_limit_in_chars`), and on creation (`!exists`) sets
// desired-replicas and max-replicas. Returns false without touching the
// revision when the RS's revision or `new_revision` is not an integer.
// True when `rs` changed.
bool set_new_replica_set_annotations(
    const DeploymentView& d, json::object& rs, std::string_view new_revision, bool exists,
    std::size_t history_limit_in_chars = kRevisionHistoryLimitInChars);

// SetReplicasAnnotations: writes desired-replicas and max-replicas as decimal
// strings; true when either changed.
bool set_replicas_annotations(json::object& rs, std::int32_t desired_replicas,
                              std::int32_t max_replicas);
// ReplicasAnnotationsNeedUpdate: the same test without writing.
bool replicas_annotations_need_update(const Annotations& rs_annotations,
                                      std::int32_t desired_replicas, std::int32_t max_replicas);

// SetDeploymentRevision: sets the Deployment's revision annotation; true when it changed.
bool set_deployment_revision(json::object& deployment, std::string_view revision);

// SetDeploymentAnnotationsTo (rollback): the Deployment keeps only its
// skipped annotations and takes every non-skipped annotation of the RS.
void set_deployment_annotations_to(json::object& deployment, const Annotations& rs_annotations);

// metadata.annotations of `obj`, created when absent.
json::object& ensure_annotations(json::object& obj);

}  // namespace kcm::controllers::deployment
