#include "controllers/replicaset/replica_set_status.h"

#include <algorithm>
#include <array>

namespace kcm::controllers::replicaset {

namespace {

constexpr std::array<std::string_view, 5> kConditionMembers = {
    "type", "status", "lastTransitionTime", "reason", "message"};
constexpr std::array<std::string_view, 7> kStatusMembers = {
    "replicas",          "fullyLabeledReplicas", "readyReplicas",
    "availableReplicas", "terminatingReplicas",  "observedGeneration",
    "conditions"};

template <std::size_t N>
bool is_one_of(std::string_view key, const std::array<std::string_view, N>& keys) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::int32_t int32_member(const json::object& o, std::string_view key) {
  return static_cast<std::int32_t>(api::find_int(o, key).value_or(0));
}

std::string string_member(const json::object& o, std::string_view key) {
  return std::string(api::find_string(o, key).value_or(""));
}

}  // namespace

ReplicaSetCondition ReplicaSetCondition::from_json(const json::object& o) {
  ReplicaSetCondition c;
  c.type = string_member(o, "type");
  c.status = string_member(o, "status");
  if (const json::value* t = api::find(o, "lastTransitionTime")) {
    auto parsed = api::Time::from_json(*t);
    if (parsed.ok()) c.last_transition_time = *parsed;
  }
  c.reason = string_member(o, "reason");
  c.message = string_member(o, "message");
  for (const auto& kv : o) {
    if (!is_one_of(kv.key(), kConditionMembers)) c.unknown[kv.key()] = kv.value();
  }
  return c;
}

json::object ReplicaSetCondition::to_json() const {
  json::object o;
  o["type"] = type;
  o["status"] = status;
  o["lastTransitionTime"] = last_transition_time.to_json();
  if (!reason.empty()) o["reason"] = reason;
  if (!message.empty()) o["message"] = message;
  for (const auto& kv : unknown)
    o[kv.key()] = kv.value();
  return o;
}

ReplicaSetStatus ReplicaSetStatus::from_json(const json::value* status) {
  ReplicaSetStatus s;
  if (status == nullptr || !status->is_object()) return s;
  const json::object& o = status->as_object();
  s.replicas = int32_member(o, "replicas");
  s.fully_labeled_replicas = int32_member(o, "fullyLabeledReplicas");
  s.ready_replicas = int32_member(o, "readyReplicas");
  s.available_replicas = int32_member(o, "availableReplicas");
  if (auto t = api::find_int(o, "terminatingReplicas")) {
    s.terminating_replicas = static_cast<std::int32_t>(*t);
  }
  s.observed_generation = api::find_int(o, "observedGeneration").value_or(0);
  if (const json::array* conditions = api::find_array(o, "conditions")) {
    for (const json::value& c : *conditions) {
      if (c.is_object()) s.conditions.push_back(ReplicaSetCondition::from_json(c.as_object()));
    }
  }
  return s;
}

void ReplicaSetStatus::write_to(json::object& status) const {
  json::object out;
  out["replicas"] = replicas;
  if (fully_labeled_replicas != 0) out["fullyLabeledReplicas"] = fully_labeled_replicas;
  if (ready_replicas != 0) out["readyReplicas"] = ready_replicas;
  if (available_replicas != 0) out["availableReplicas"] = available_replicas;
  if (terminating_replicas) out["terminatingReplicas"] = *terminating_replicas;
  if (observed_generation != 0) out["observedGeneration"] = observed_generation;
  if (!conditions.empty()) {
    json::array a;
    for (const ReplicaSetCondition& c : conditions)
      a.emplace_back(c.to_json());
    out["conditions"] = std::move(a);
  }
  for (const auto& kv : status) {
    if (!is_one_of(kv.key(), kStatusMembers)) out[kv.key()] = kv.value();
  }
  status = std::move(out);
}

json::object ReplicaSetStatus::to_json() const {
  json::object o;
  write_to(o);
  return o;
}

ReplicaSetCondition new_replica_set_condition(std::string_view type, std::string_view status,
                                              std::string_view reason, std::string_view message,
                                              api::Time now) {
  ReplicaSetCondition c;
  c.type = std::string(type);
  c.status = std::string(status);
  c.last_transition_time = now;
  c.reason = std::string(reason);
  c.message = std::string(message);
  return c;
}

const ReplicaSetCondition* get_condition(const ReplicaSetStatus& status, std::string_view type) {
  for (const ReplicaSetCondition& c : status.conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

void set_condition(ReplicaSetStatus& status, ReplicaSetCondition condition) {
  const ReplicaSetCondition* current = get_condition(status, condition.type);
  if (current != nullptr && current->status == condition.status &&
      current->reason == condition.reason) {
    return;
  }
  remove_condition(status, condition.type);
  status.conditions.push_back(std::move(condition));
}

void remove_condition(ReplicaSetStatus& status, std::string_view type) {
  std::erase_if(status.conditions, [&](const ReplicaSetCondition& c) { return c.type == type; });
}

api::FieldErrors validate_replica_set_status(const ReplicaSetStatus& status,
                                             std::string_view path) {
  api::FieldErrors errs;
  const auto nonnegative = [&](std::int64_t value, std::string_view member) {
    if (value < 0) {
      errs.push_back(api::invalid(api::child(path, member), json::value(value),
                                  "must be greater than or equal to 0"));
    }
  };
  nonnegative(status.replicas, "replicas");
  nonnegative(status.fully_labeled_replicas, "fullyLabeledReplicas");
  nonnegative(status.ready_replicas, "readyReplicas");
  nonnegative(status.available_replicas, "availableReplicas");
  if (status.terminating_replicas) nonnegative(*status.terminating_replicas, "terminatingReplicas");
  nonnegative(status.observed_generation, "observedGeneration");
  const auto at_most = [&](std::int32_t value, std::string_view member, std::int32_t bound,
                           std::string_view msg) {
    if (value > bound) {
      errs.push_back(api::invalid(api::child(path, member), json::value(std::int64_t{value}),
                                  std::string(msg)));
    }
  };
  constexpr std::string_view kOverReplicas = "cannot be greater than status.replicas";
  at_most(status.fully_labeled_replicas, "fullyLabeledReplicas", status.replicas, kOverReplicas);
  at_most(status.ready_replicas, "readyReplicas", status.replicas, kOverReplicas);
  at_most(status.available_replicas, "availableReplicas", status.replicas, kOverReplicas);
  at_most(status.available_replicas, "availableReplicas", status.ready_replicas,
          "cannot be greater than readyReplicas");
  return errs;
}

}  // namespace kcm::controllers::replicaset
