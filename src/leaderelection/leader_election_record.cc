#include "leaderelection/leader_election_record.h"

#include <fmt/core.h>

#include <cstdint>
#include <limits>

namespace kcm::leaderelection {
namespace {

Result<std::string> string_member(const api::json::object& o, std::string_view key) {
  const auto* v = api::find(o, key);
  if (v == nullptr || v->is_null()) return std::string();
  if (!v->is_string()) return fail(fmt::format("spec.{}: expected string", key));
  return std::string(v->get_string());
}

Result<int> int32_member(const api::json::object& o, std::string_view key) {
  const auto* v = api::find(o, key);
  if (v == nullptr || v->is_null()) return 0;
  std::int64_t n = 0;
  if (v->is_int64()) {
    n = v->get_int64();
  } else if (v->is_uint64() && v->get_uint64() <= std::numeric_limits<std::int32_t>::max()) {
    n = static_cast<std::int64_t>(v->get_uint64());
  } else {
    return fail(fmt::format("spec.{}: expected int32", key));
  }
  if (n < std::numeric_limits<std::int32_t>::min() ||
      n > std::numeric_limits<std::int32_t>::max()) {
    return fail(fmt::format("spec.{}: expected int32", key));
  }
  return static_cast<int>(n);
}

Result<api::Time> time_member(const api::json::object& o, std::string_view key) {
  const auto* v = api::find(o, key);
  if (v == nullptr || v->is_null()) return api::Time();
  auto t = api::MicroTime::from_json(*v);
  if (!t) return fail(fmt::format("spec.{}: {}", key, t.error()));
  return t->is_zero() ? api::Time() : api::Time(t->time_point());
}

api::json::value micro(const api::Time& t) {
  return t.is_zero() ? api::MicroTime().to_json() : api::MicroTime(t.time_point()).to_json();
}

}  // namespace

Result<LeaderElectionRecord> lease_spec_to_record(const api::json::value& spec) {
  LeaderElectionRecord r;
  if (spec.is_null()) return r;
  if (!spec.is_object()) return fail("spec: expected object");
  const auto& o = spec.get_object();
  auto holder = string_member(o, "holderIdentity");
  if (!holder) return fail(holder.error());
  auto duration = int32_member(o, "leaseDurationSeconds");
  if (!duration) return fail(duration.error());
  auto transitions = int32_member(o, "leaseTransitions");
  if (!transitions) return fail(transitions.error());
  auto acquire = time_member(o, "acquireTime");
  if (!acquire) return fail(acquire.error());
  auto renew = time_member(o, "renewTime");
  if (!renew) return fail(renew.error());
  auto preferred = string_member(o, "preferredHolder");
  if (!preferred) return fail(preferred.error());
  auto strategy = string_member(o, "strategy");
  if (!strategy) return fail(strategy.error());
  r.holder_identity = std::move(*holder);
  r.lease_duration_seconds = *duration;
  r.leader_transitions = *transitions;
  r.acquire_time = *acquire;
  r.renew_time = *renew;
  r.preferred_holder = std::move(*preferred);
  r.strategy = std::move(*strategy);
  return r;
}

api::json::object record_to_lease_spec(const LeaderElectionRecord& r) {
  api::json::object spec;
  spec["holderIdentity"] = r.holder_identity;
  spec["leaseDurationSeconds"] = r.lease_duration_seconds;
  spec["acquireTime"] = micro(r.acquire_time);
  spec["renewTime"] = micro(r.renew_time);
  spec["leaseTransitions"] = r.leader_transitions;
  if (!r.strategy.empty()) spec["strategy"] = r.strategy;
  if (!r.preferred_holder.empty()) spec["preferredHolder"] = r.preferred_holder;
  return spec;
}

std::string raw_record(const LeaderElectionRecord& r) {
  api::json::object o;
  o["holderIdentity"] = r.holder_identity;
  o["leaseDurationSeconds"] = r.lease_duration_seconds;
  o["acquireTime"] = r.acquire_time.to_json();
  o["renewTime"] = r.renew_time.to_json();
  o["leaderTransitions"] = r.leader_transitions;
  o["strategy"] = r.strategy;
  o["preferredHolder"] = r.preferred_holder;
  return api::to_json_string(o);
}

}  // namespace kcm::leaderelection
