#include "controller/pod_util.h"

#include <algorithm>
#include <limits>
#include <set>

#include "api/field_error.h"

namespace kcm::controller {

namespace {

const json::object* member_object(const json::object& o, std::string_view key) {
  return api::find_object(o, key);
}

std::string_view member_string(const json::object* o, std::string_view key) {
  if (o == nullptr) return {};
  return api::as_string_view(api::find(*o, key));
}

api::Time time_member(const json::object* o, std::string_view key) {
  if (o == nullptr) return {};
  const json::value* v = api::find(*o, key);
  if (v == nullptr) return {};
  auto t = api::Time::from_json(*v);
  return t.ok() ? *t : api::Time{};
}

std::int64_t restart_count(const json::value& status) {
  if (!status.is_object()) return 0;
  return api::find_int(status.as_object(), "restartCount").value_or(0);
}

}  // namespace

std::string_view pod_phase(const json::object& pod) {
  return member_string(member_object(pod, "status"), "phase");
}

std::string_view pod_node_name(const json::object& pod) {
  return member_string(member_object(pod, "spec"), "nodeName");
}

const json::object* pod_ready_condition(const json::object& pod) {
  const json::object* status = member_object(pod, "status");
  if (status == nullptr) return nullptr;
  const json::array* conditions = api::find_array(*status, "conditions");
  if (conditions == nullptr) return nullptr;
  for (const json::value& c : *conditions) {
    if (c.is_object() && member_string(&c.as_object(), "type") == "Ready") return &c.as_object();
  }
  return nullptr;
}

bool is_pod_ready(const json::object& pod) {
  const json::object* c = pod_ready_condition(pod);
  return c != nullptr && member_string(c, "status") == "True";
}

api::Time pod_ready_time(const json::object& pod) {
  if (!is_pod_ready(pod)) return {};
  // The first Ready condition is the one that is True here.
  return time_member(pod_ready_condition(pod), "lastTransitionTime");
}

Result<std::int32_t> pod_deletion_cost(const json::object& pod) {
  const json::object* meta = member_object(pod, "metadata");
  const json::object* annotations = meta ? member_object(*meta, "annotations") : nullptr;
  if (annotations == nullptr) return 0;
  const json::value* v = api::find(*annotations, kPodDeletionCostAnnotation);
  if (v == nullptr) return 0;
  const std::string_view s = api::as_string_view(v);
  // Upstream refuses a leading '+' and leading zeros before parsing.
  const bool valid_first = !s.empty() && (s[0] == '-' || s == "0" || (s[0] >= '1' && s[0] <= '9'));
  if (!valid_first) return fail("invalid value " + api::go_quote(s));
  // strconv.ParseInt(s, 10, 32).
  std::size_t i = s[0] == '-' ? 1 : 0;
  const auto syntax = [&] {
    return fail("strconv.ParseInt: parsing " + api::go_quote(s) + ": invalid syntax");
  };
  if (i == s.size()) return syntax();
  const auto range = [&] {
    return fail("strconv.ParseInt: parsing " + api::go_quote(s) + ": value out of range");
  };
  // Like Go, the scan stops at the first bad digit or once the magnitude
  // exceeds the unsigned 32-bit range; the int32 bounds are checked after.
  std::int64_t value = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return syntax();
    value = value * 10 + (s[i] - '0');
    if (value > std::int64_t{std::numeric_limits<std::uint32_t>::max()}) return range();
  }
  if (s[0] == '-') value = -value;
  if (value > std::numeric_limits<std::int32_t>::max() ||
      value < std::numeric_limits<std::int32_t>::min()) {
    return range();
  }
  return static_cast<std::int32_t>(value);
}

ContainerRestarts max_container_restarts(const json::object& pod) {
  ContainerRestarts out;
  const json::object* status = member_object(pod, "status");
  if (status == nullptr) return out;
  if (const json::array* statuses = api::find_array(*status, "containerStatuses")) {
    for (const json::value& c : *statuses)
      out.regular = std::max(out.regular, restart_count(c));
  }
  const json::object* spec = member_object(pod, "spec");
  std::set<std::string_view, std::less<>> sidecars;
  if (const json::array* inits = spec ? api::find_array(*spec, "initContainers") : nullptr) {
    for (const json::value& c : *inits) {
      if (c.is_object() && member_string(&c.as_object(), "restartPolicy") == "Always") {
        sidecars.insert(member_string(&c.as_object(), "name"));
      }
    }
  }
  if (sidecars.empty()) return out;
  if (const json::array* statuses = api::find_array(*status, "initContainerStatuses")) {
    for (const json::value& c : *statuses) {
      if (c.is_object() && sidecars.count(member_string(&c.as_object(), "name")) != 0) {
        out.sidecar = std::max(out.sidecar, restart_count(c));
      }
    }
  }
  return out;
}

api::Time pod_creation_time(const json::object& pod) {
  return time_member(member_object(pod, "metadata"), "creationTimestamp");
}

}  // namespace kcm::controller
