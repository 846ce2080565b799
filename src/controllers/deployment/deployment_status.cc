#include "controllers/deployment/deployment_status.h"

#include <algorithm>
#include <array>

#include "controllers/deployment/json_members.h"

namespace kcm::controllers::deployment {

namespace {

constexpr std::array<std::string_view, 6> kConditionMembers = {
    "type", "status", "lastUpdateTime", "lastTransitionTime", "reason", "message"};
constexpr std::array<std::string_view, 9> kStatusMembers = {
    "observedGeneration",  "replicas",          "updatedReplicas",
    "readyReplicas",       "availableReplicas", "unavailableReplicas",
    "terminatingReplicas", "conditions",        "collisionCount"};

template <std::size_t N>
bool is_one_of(std::string_view key, const std::array<std::string_view, N>& keys) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::int32_t int32_member(const json::object& o, std::string_view key) {
  return static_cast<std::int32_t>(api::find_int(o, key).value_or(0));
}

std::optional<std::int32_t> optional_int32_member(const json::object& o, std::string_view key) {
  if (auto v = api::find_int(o, key)) return static_cast<std::int32_t>(*v);
  return std::nullopt;
}

api::Time time_member(const json::object& o, std::string_view key) {
  if (const json::value* t = api::find(o, key)) {
    auto parsed = api::Time::from_json(*t);
    if (parsed.ok()) return *parsed;
  }
  return {};
}

}  // namespace

DeploymentCondition DeploymentCondition::from_json(const json::object& o) {
  DeploymentCondition c;
  c.type = string_member(o, "type");
  c.status = string_member(o, "status");
  c.last_update_time = time_member(o, "lastUpdateTime");
  c.last_transition_time = time_member(o, "lastTransitionTime");
  c.reason = string_member(o, "reason");
  c.message = string_member(o, "message");
  for (const auto& kv : o) {
    if (!is_one_of(kv.key(), kConditionMembers)) c.unknown[kv.key()] = kv.value();
  }
  return c;
}

json::object DeploymentCondition::to_json() const {
  json::object o;
  o["type"] = type;
  o["status"] = status;
  o["lastUpdateTime"] = last_update_time.to_json();
  o["lastTransitionTime"] = last_transition_time.to_json();
  if (!reason.empty()) o["reason"] = reason;
  if (!message.empty()) o["message"] = message;
  for (const auto& kv : unknown)
    o[kv.key()] = kv.value();
  return o;
}

DeploymentStatus DeploymentStatus::from_json(const json::value* status) {
  DeploymentStatus s;
  if (status == nullptr || !status->is_object()) return s;
  const json::object& o = status->as_object();
  s.observed_generation = api::find_int(o, "observedGeneration").value_or(0);
  s.replicas = int32_member(o, "replicas");
  s.updated_replicas = int32_member(o, "updatedReplicas");
  s.ready_replicas = int32_member(o, "readyReplicas");
  s.available_replicas = int32_member(o, "availableReplicas");
  s.unavailable_replicas = int32_member(o, "unavailableReplicas");
  s.terminating_replicas = optional_int32_member(o, "terminatingReplicas");
  if (const json::array* conditions = api::find_array(o, "conditions")) {
    for (const json::value& c : *conditions) {
      if (c.is_object()) s.conditions.push_back(DeploymentCondition::from_json(c.as_object()));
    }
  }
  s.collision_count = optional_int32_member(o, "collisionCount");
  return s;
}

void DeploymentStatus::write_to(json::object& status) const {
  json::object out;
  if (observed_generation != 0) out["observedGeneration"] = observed_generation;
  if (replicas != 0) out["replicas"] = replicas;
  if (updated_replicas != 0) out["updatedReplicas"] = updated_replicas;
  if (ready_replicas != 0) out["readyReplicas"] = ready_replicas;
  if (available_replicas != 0) out["availableReplicas"] = available_replicas;
  if (unavailable_replicas != 0) out["unavailableReplicas"] = unavailable_replicas;
  if (terminating_replicas) out["terminatingReplicas"] = *terminating_replicas;
  if (!conditions.empty()) {
    json::array a;
    for (const DeploymentCondition& c : conditions)
      a.emplace_back(c.to_json());
    out["conditions"] = std::move(a);
  }
  if (collision_count) out["collisionCount"] = *collision_count;
  for (const auto& kv : status) {
    if (!is_one_of(kv.key(), kStatusMembers)) out[kv.key()] = kv.value();
  }
  status = std::move(out);
}

json::object DeploymentStatus::to_json() const {
  json::object o;
  write_to(o);
  return o;
}

DeploymentCondition new_deployment_condition(std::string_view type, std::string_view status,
                                             std::string_view reason, std::string_view message,
                                             api::Time now) {
  DeploymentCondition c;
  c.type = std::string(type);
  c.status = std::string(status);
  c.last_update_time = now;
  c.last_transition_time = now;
  c.reason = std::string(reason);
  c.message = std::string(message);
  return c;
}

const DeploymentCondition* get_deployment_condition(const DeploymentStatus& status,
                                                    std::string_view type) {
  for (const DeploymentCondition& c : status.conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

void set_deployment_condition(DeploymentStatus& status, DeploymentCondition condition) {
  if (const DeploymentCondition* current = get_deployment_condition(status, condition.type)) {
    if (current->status == condition.status && current->reason == condition.reason) return;
    if (current->status == condition.status) {
      condition.last_transition_time = current->last_transition_time;
    }
  }
  remove_deployment_condition(status, condition.type);
  status.conditions.push_back(std::move(condition));
}

void remove_deployment_condition(DeploymentStatus& status, std::string_view type) {
  std::erase_if(status.conditions, [&](const DeploymentCondition& c) { return c.type == type; });
}

DeploymentCondition replica_set_to_deployment_condition(std::string_view type,
                                                        std::string_view status,
                                                        api::Time last_transition_time,
                                                        std::string_view reason,
                                                        std::string_view message) {
  DeploymentCondition c;
  c.type = std::string(type);
  c.status = std::string(status);
  c.last_update_time = last_transition_time;
  c.last_transition_time = last_transition_time;
  c.reason = std::string(reason);
  c.message = std::string(message);
  return c;
}

}  // namespace kcm::controllers::deployment
