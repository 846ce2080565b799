#include "controllers/deployment/annotations.h"

#include <array>
#include <limits>
#include <vector>

#include "api/int_or_string.h"
#include "controllers/deployment/replica_math.h"

namespace kcm::controllers::deployment {

namespace {

constexpr std::array<std::string_view, 6> kAnnotationsToSkip = {
    kLastAppliedConfigAnnotation, kRevisionAnnotation,    kRevisionHistoryAnnotation,
    kDesiredReplicasAnnotation,   kMaxReplicasAnnotation, kDeprecatedRollbackTo};

// strconv.ParseInt(s, 10, 64), with Go's error text.
Result<std::int64_t> parse_int64(std::string_view s) {
  const api::GoAtoiResult r = api::go_atoi(s);
  if (r.error.empty()) return r.value;
  std::string message = r.error;
  constexpr std::string_view kAtoi = "strconv.Atoi";
  if (message.starts_with(kAtoi)) message.replace(0, kAtoi.size(), "strconv.ParseInt");
  return fail(std::move(message));
}

std::string quote(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = s.find(',', start);
    if (comma == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
}

std::string string_of(const json::object& o, std::string_view key) {
  return std::string(api::find_string(o, key).value_or(""));
}

}  // namespace

bool skip_copy_annotation(std::string_view key) {
  for (std::string_view k : kAnnotationsToSkip) {
    if (k == key) return true;
  }
  return false;
}

Result<std::int64_t> revision(const Annotations& annotations) {
  const auto it = annotations.find(kRevisionAnnotation);
  if (it == annotations.end()) return std::int64_t{0};
  return parse_int64(it->second);
}

std::int64_t max_revision(const ReplicaSetList& replica_sets) {
  std::int64_t max = 0;
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs == nullptr) continue;
    const auto v = revision(rs->annotations);
    if (v.ok() && *v > max) max = *v;
  }
  return max;
}

std::int64_t last_revision(const ReplicaSetList& replica_sets) {
  std::int64_t max = 0;
  std::int64_t second = 0;
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs == nullptr) continue;
    const auto v = revision(rs->annotations);
    if (!v.ok()) continue;
    if (*v >= max) {
      second = max;
      max = *v;
    } else if (*v > second) {
      second = *v;
    }
  }
  return second;
}

Result<std::optional<std::int32_t>> non_negative_int32_annotation(const Annotations& annotations,
                                                                  std::string_view key) {
  const auto it = annotations.find(key);
  if (it == annotations.end()) return std::optional<std::int32_t>();
  const std::string& s = it->second;
  // strconv.ParseUint(s, 10, 32): digits only.
  const std::string prefix = "strconv.ParseUint: parsing " + quote(s) + ": ";
  if (s.empty()) return fail(prefix + "invalid syntax");
  std::uint64_t value = 0;
  bool overflow = false;
  for (const char c : s) {
    if (c < '0' || c > '9') return fail(prefix + "invalid syntax");
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
    if (value > std::numeric_limits<std::uint32_t>::max()) {
      overflow = true;
      value = std::numeric_limits<std::uint32_t>::max();  // keep scanning for syntax errors
    }
  }
  if (overflow) return fail(prefix + "value out of range");
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max());
  if (value > kMax) {
    return fail("value " + std::to_string(value) + " is out of range (higher than " +
                std::to_string(kMax) + ")");
  }
  return std::optional<std::int32_t>(static_cast<std::int32_t>(value));
}

std::optional<std::int32_t> desired_replicas_annotation(const ReplicaSetInfo& rs) {
  auto v = non_negative_int32_annotation(rs.annotations, kDesiredReplicasAnnotation);
  return v.ok() ? *v : std::nullopt;
}

std::optional<std::int32_t> max_replicas_annotation(const ReplicaSetInfo& rs) {
  auto v = non_negative_int32_annotation(rs.annotations, kMaxReplicasAnnotation);
  return v.ok() ? *v : std::nullopt;
}

json::object& ensure_annotations(json::object& obj) {
  return api::ensure_object(api::ensure_object(obj, "metadata"), "annotations");
}

bool copy_deployment_annotations_to_replica_set(const Annotations& deployment_annotations,
                                                json::object& rs) {
  json::object& annotations = ensure_annotations(rs);
  bool changed = false;
  for (const auto& [k, v] : deployment_annotations) {
    if (skip_copy_annotation(k)) continue;
    const json::value* current = annotations.if_contains(k);
    if (current != nullptr && current->is_string() && current->get_string() == v) continue;
    annotations[k] = v;
    changed = true;
  }
  return changed;
}

bool set_new_replica_set_annotations(const DeploymentView& d, json::object& rs,
                                     std::string_view new_revision, bool exists,
                                     std::size_t history_limit_in_chars) {
  bool changed = copy_deployment_annotations_to_replica_set(d.annotations, rs);
  json::object& annotations = ensure_annotations(rs);
  const json::value* old_value = annotations.if_contains(kRevisionAnnotation);
  const bool had_revision = old_value != nullptr;
  const std::string old_revision = had_revision ? string_of(annotations, kRevisionAnnotation) : "";
  std::int64_t old_int = 0;
  if (auto parsed = parse_int64(old_revision); parsed.ok()) {
    old_int = *parsed;
  } else if (!old_revision.empty()) {
    return false;  // upstream logs "OldRevision not int" and gives up
  }
  const auto new_int = parse_int64(new_revision);
  if (!new_int.ok()) return false;
  if (old_int < *new_int) {
    annotations[kRevisionAnnotation] = new_revision;
    changed = true;
    // A reused RS (rollback or template change back): keep its old revisions.
    if (had_revision) {
      const std::string history = string_of(annotations, kRevisionHistoryAnnotation);
      std::vector<std::string_view> old_revisions = split_commas(history);
      if (old_revisions.front().empty()) {
        annotations[kRevisionHistoryAnnotation] = old_revision;
      } else {
        std::size_t total = history.size() + old_revision.size() + 1;
        std::size_t start = 0;
        while (total > history_limit_in_chars && start < old_revisions.size()) {
          total -= old_revisions[start].size() + 1;
          ++start;
        }
        if (total <= history_limit_in_chars) {
          std::string joined;
          for (std::size_t i = start; i < old_revisions.size(); ++i) {
            joined += old_revisions[i];
            joined += ',';
          }
          joined += old_revision;
          annotations[kRevisionHistoryAnnotation] = joined;
        }
      }
    }
  }
  if (!exists && set_replicas_annotations(rs, d.replicas, d.replicas + max_surge(d))) {
    changed = true;
  }
  return changed;
}

bool set_replicas_annotations(json::object& rs, std::int32_t desired_replicas,
                              std::int32_t max_replicas) {
  json::object& annotations = ensure_annotations(rs);
  bool updated = false;
  const auto set = [&](std::string_view key, std::int32_t value) {
    const std::string s = std::to_string(value);
    if (string_of(annotations, key) != s) {
      annotations[key] = s;
      updated = true;
    }
  };
  set(kDesiredReplicasAnnotation, desired_replicas);
  set(kMaxReplicasAnnotation, max_replicas);
  return updated;
}

bool replicas_annotations_need_update(const Annotations& rs_annotations,
                                      std::int32_t desired_replicas, std::int32_t max_replicas) {
  const auto differs = [&](std::string_view key, std::int32_t value) {
    const auto it = rs_annotations.find(key);
    return it == rs_annotations.end() || it->second != std::to_string(value);
  };
  return differs(kDesiredReplicasAnnotation, desired_replicas) ||
         differs(kMaxReplicasAnnotation, max_replicas);
}

bool set_deployment_revision(json::object& deployment, std::string_view revision) {
  json::object& annotations = ensure_annotations(deployment);
  if (string_of(annotations, kRevisionAnnotation) == revision &&
      annotations.contains(kRevisionAnnotation)) {
    return false;
  }
  // Go compares against the map's zero value: an absent key equals "".
  if (revision.empty() && !annotations.contains(kRevisionAnnotation)) return false;
  annotations[kRevisionAnnotation] = revision;
  return true;
}

void set_deployment_annotations_to(json::object& deployment, const Annotations& rs_annotations) {
  json::object& annotations = ensure_annotations(deployment);
  json::object kept;
  for (const auto& kv : annotations) {
    if (skip_copy_annotation(kv.key())) kept[kv.key()] = kv.value();
  }
  for (const auto& [k, v] : rs_annotations) {
    if (!skip_copy_annotation(k)) kept[k] = v;
  }
  annotations = std::move(kept);
}

}  // namespace kcm::controllers::deployment
