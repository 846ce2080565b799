#include "controllers/deployment/views.h"

#include "controllers/deployment/json_members.h"

namespace kcm::controllers::deployment {

namespace {

std::optional<std::int32_t> optional_int32(const json::object& o, std::string_view key) {
  if (auto v = api::find_int(o, key)) return static_cast<std::int32_t>(*v);
  return std::nullopt;
}

bool has_non_null(const json::object& o, std::string_view key) {
  const json::value* v = api::find(o, key);
  return v != nullptr && !v->is_null();
}

Result<std::optional<api::IntOrString>> int_or_string_member(const json::object& o,
                                                             std::string_view key) {
  const json::value* v = api::find(o, key);
  if (v == nullptr || v->is_null()) return std::optional<api::IntOrString>();
  auto parsed = api::IntOrString::from_json(*v);
  if (!parsed.ok()) return fail(std::string(key) + ": " + parsed.error());
  return std::optional<api::IntOrString>(*parsed);
}

}  // namespace

Annotations annotations_of(const json::object& obj) {
  Annotations out;
  const json::object* meta = api::find_object(obj, "metadata");
  const json::object* a = meta != nullptr ? api::find_object(*meta, "annotations") : nullptr;
  if (a == nullptr) return out;
  for (const auto& kv : *a) {
    if (kv.value().is_string()) out.emplace(kv.key(), kv.value().get_string());
  }
  return out;
}

Result<DeploymentView> DeploymentView::from_json(const json::object& d) {
  DeploymentView v;
  if (const json::object* meta = api::find_object(d, "metadata")) {
    v.namespace_ = string_member(*meta, "namespace");
    v.name = string_member(*meta, "name");
    v.uid = string_member(*meta, "uid");
    v.generation = api::find_int(*meta, "generation").value_or(0);
    v.being_deleted = has_non_null(*meta, "deletionTimestamp");
  }
  v.annotations = annotations_of(d);
  if (const json::object* spec = api::find_object(d, "spec")) {
    if (auto r = optional_int32(*spec, "replicas")) v.replicas = *r;
    auto selector = api::label_selector_from_json(api::find(*spec, "selector"), "spec.selector");
    if (!selector.ok()) return fail(selector.error());
    v.selector = std::move(*selector);
    if (const json::object* strategy = api::find_object(*spec, "strategy")) {
      v.strategy_type = string_member(*strategy, "type");
      if (const json::object* ru = api::find_object(*strategy, "rollingUpdate")) {
        auto surge = int_or_string_member(*ru, "maxSurge");
        if (!surge.ok()) return fail("spec.strategy.rollingUpdate." + surge.error());
        v.max_surge = *surge;
        auto unavailable = int_or_string_member(*ru, "maxUnavailable");
        if (!unavailable.ok()) return fail("spec.strategy.rollingUpdate." + unavailable.error());
        v.max_unavailable = *unavailable;
      }
    }
    v.min_ready_seconds = optional_int32(*spec, "minReadySeconds").value_or(0);
    v.revision_history_limit = optional_int32(*spec, "revisionHistoryLimit");
    v.progress_deadline_seconds = optional_int32(*spec, "progressDeadlineSeconds");
    v.paused = api::find_bool(*spec, "paused").value_or(false);
  }
  v.status = DeploymentStatus::from_json(api::find(d, "status"));
  return v;
}

ReplicaSetInfo ReplicaSetInfo::from_json(const json::object& rs) {
  ReplicaSetInfo v;
  v.object = &rs;
  if (const json::object* meta = api::find_object(rs, "metadata")) {
    v.namespace_ = string_member(*meta, "namespace");
    v.name = string_member(*meta, "name");
    v.uid = string_member(*meta, "uid");
    v.generation = api::find_int(*meta, "generation").value_or(0);
    v.being_deleted = has_non_null(*meta, "deletionTimestamp");
    if (const json::value* ts = api::find(*meta, "creationTimestamp")) {
      auto t = api::Time::from_json(*ts);
      if (t.ok()) v.creation_timestamp = *t;
    }
    if (const json::array* refs = api::find_array(*meta, "ownerReferences")) {
      for (const json::value& ref : *refs) {
        if (!ref.is_object()) continue;
        if (api::find_bool(ref.as_object(), "controller").value_or(false)) {
          v.controller_uid = string_member(ref.as_object(), "uid");
          break;
        }
      }
    }
  }
  v.annotations = annotations_of(rs);
  if (const json::object* spec = api::find_object(rs, "spec")) {
    if (auto r = optional_int32(*spec, "replicas")) v.spec_replicas = *r;
    v.min_ready_seconds = optional_int32(*spec, "minReadySeconds").value_or(0);
  }
  if (const json::object* status = api::find_object(rs, "status")) {
    v.status_replicas = optional_int32(*status, "replicas").value_or(0);
    v.ready_replicas = optional_int32(*status, "readyReplicas").value_or(0);
    v.available_replicas = optional_int32(*status, "availableReplicas").value_or(0);
    v.terminating_replicas = optional_int32(*status, "terminatingReplicas");
    v.observed_generation = api::find_int(*status, "observedGeneration").value_or(0);
    if (const json::array* conditions = api::find_array(*status, "conditions")) {
      for (const json::value& c : *conditions) {
        if (!c.is_object()) continue;
        const DeploymentCondition rc = DeploymentCondition::from_json(c.as_object());
        if (rc.type != kReplicaFailure) continue;
        v.replica_failures.push_back(replica_set_to_deployment_condition(
            rc.type, rc.status, rc.last_transition_time, rc.reason, rc.message));
      }
    }
  }
  return v;
}

}  // namespace kcm::controllers::deployment
