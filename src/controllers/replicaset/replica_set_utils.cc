#include "controllers/replicaset/replica_set_utils.h"

#include "controller/pod_template.h"
#include "controller/pod_util.h"

namespace kcm::controllers::replicaset {

namespace {

const json::object& empty_object() {
  static const json::object kEmpty;
  return kEmpty;
}

const json::object& labels_of(const json::object& obj) {
  const json::object* meta = api::find_object(obj, "metadata");
  const json::object* labels = meta != nullptr ? api::find_object(*meta, "labels") : nullptr;
  return labels != nullptr ? *labels : empty_object();
}

}  // namespace

Result<ReplicaSetView> ReplicaSetView::from_json(const json::object& rs) {
  ReplicaSetView v;
  if (const json::object* meta = api::find_object(rs, "metadata")) {
    v.namespace_ = std::string(api::find_string(*meta, "namespace").value_or(""));
    v.name = std::string(api::find_string(*meta, "name").value_or(""));
    v.uid = std::string(api::find_string(*meta, "uid").value_or(""));
    v.generation = api::find_int(*meta, "generation").value_or(0);
    const json::value* ts = api::find(*meta, "deletionTimestamp");
    v.being_deleted = ts != nullptr && !ts->is_null();
  }
  if (const json::object* spec = api::find_object(rs, "spec")) {
    if (auto r = api::find_int(*spec, "replicas")) v.spec_replicas = static_cast<std::int32_t>(*r);
    v.min_ready_seconds =
        static_cast<std::int32_t>(api::find_int(*spec, "minReadySeconds").value_or(0));
    auto selector = api::label_selector_from_json(api::find(*spec, "selector"), "spec.selector");
    if (!selector.ok()) return fail(selector.error());
    v.selector = std::move(*selector);
    if (const json::object* tmpl = api::find_object(*spec, "template")) {
      v.template_labels = api::labels::to_label_set(labels_of(*tmpl));
    }
  }
  v.status = ReplicaSetStatus::from_json(api::find(rs, "status"));
  return v;
}

ReplicaSetStatus calculate_status(const ReplicaSetView& rs,
                                  const std::vector<const controller::CachedPod*>& active_pods,
                                  const std::vector<const controller::CachedPod*>& terminating_pods,
                                  const std::optional<std::string>& manage_replicas_error,
                                  api::Time now, const StatusOptions& options) {
  ReplicaSetStatus status = rs.status;
  // Template labels include the selector's, so matching pods are a subset of
  // the claimed ones; pods may carry more labels than the template.
  const auto template_selector = api::labels::Selector::from_set(rs.template_labels);
  std::int32_t fully_labeled = 0;
  std::int32_t ready = 0;
  std::int32_t available = 0;
  for (const controller::CachedPod* pod : active_pods) {
    if (pod->object().matches(template_selector)) ++fully_labeled;
    if (pod->facts().ready) {
      ++ready;
      if (controller::is_pod_available(pod->facts(), rs.min_ready_seconds, now)) ++available;
    }
  }

  const bool has_failure = get_condition(rs.status, kReplicaFailure) != nullptr;
  if (manage_replicas_error && !has_failure) {
    const auto diff =
        static_cast<std::int64_t>(active_pods.size()) - std::int64_t{rs.spec_replicas};
    std::string_view reason;
    if (diff < 0) {
      reason = controller::kFailedCreatePodReason;
    } else if (diff > 0) {
      reason = controller::kFailedDeletePodReason;
    }
    set_condition(status, new_replica_set_condition(kReplicaFailure, "True", reason,
                                                    *manage_replicas_error, now));
  } else if (!manage_replicas_error && has_failure) {
    remove_condition(status, kReplicaFailure);
  }

  status.replicas = static_cast<std::int32_t>(active_pods.size());
  status.fully_labeled_replicas = fully_labeled;
  status.ready_replicas = ready;
  status.available_replicas = available;
  status.terminating_replicas =
      options.terminating_replicas
          ? std::optional<std::int32_t>(static_cast<std::int32_t>(terminating_pods.size()))
          : std::nullopt;
  return status;
}

bool status_needs_update(const ReplicaSetView& rs, const ReplicaSetStatus& new_status) {
  const ReplicaSetStatus& cur = rs.status;
  return !(cur.replicas == new_status.replicas &&
           cur.fully_labeled_replicas == new_status.fully_labeled_replicas &&
           cur.ready_replicas == new_status.ready_replicas &&
           cur.available_replicas == new_status.available_replicas &&
           cur.terminating_replicas == new_status.terminating_replicas &&
           rs.generation == cur.observed_generation && cur.conditions == new_status.conditions);
}

std::vector<const controller::CachedPod*> filter_claimed_pods(
    std::string_view owner_uid, const api::labels::Selector& selector,
    const std::vector<const controller::CachedPod*>& pods) {
  std::vector<const controller::CachedPod*> out;
  for (const controller::CachedPod* pod : pods) {
    const auto ref = pod->object().controller_ref();
    if (ref && ref->uid == owner_uid && pod->object().matches(selector)) out.push_back(pod);
  }
  return out;
}

std::optional<std::chrono::nanoseconds> availability_requeue_after(
    std::int32_t min_ready_seconds, const ReplicaSetStatus& status,
    const std::vector<const controller::CachedPod*>& active_pods, api::Time status_now,
    api::Time clock_now) {
  if (min_ready_seconds <= 0 || status.ready_replicas == status.available_replicas) {
    return std::nullopt;
  }
  const auto next =
      controller::find_min_next_pod_availability_check(active_pods, min_ready_seconds, status_now);
  if (!next) return std::chrono::nanoseconds(std::chrono::seconds(min_ready_seconds));
  // Time spent since the status was computed brings the check closer.
  const auto elapsed = std::chrono::duration_cast<std::chrono::nanoseconds>(
      clock_now.time_point() - status_now.time_point());
  if (elapsed >= next->after) return std::chrono::nanoseconds::zero();
  return next->after - std::max(elapsed, std::chrono::nanoseconds::zero());
}

}  // namespace kcm::controllers::replicaset
