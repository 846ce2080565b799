#include "local/cluster/fit.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <tuple>

namespace kcm::local::cluster {
namespace {

constexpr std::string_view kReasonUnschedulable = "node(s) were unschedulable";
constexpr std::string_view kReasonAffinity = "node(s) didn't match Pod's node affinity/selector";

std::string str(const json::object& o, std::string_view key) {
  return std::string(api::find_string(o, key).value_or(""));
}

std::map<std::string, std::string> string_map(const json::object* o) {
  std::map<std::string, std::string> out;
  if (o == nullptr) return out;
  for (const auto& kv : *o) {
    if (kv.value().is_string()) out.emplace(kv.key(), kv.value().get_string());
  }
  return out;
}

std::vector<NodeSelectorRequirement> requirements(const json::object& term, std::string_view key) {
  std::vector<NodeSelectorRequirement> out;
  const json::array* list = api::find_array(term, key);
  if (list == nullptr) return out;
  for (const auto& r : *list) {
    if (!r.is_object()) continue;
    NodeSelectorRequirement req{str(r.get_object(), "key"), str(r.get_object(), "operator"), {}};
    if (const json::array* values = api::find_array(r.get_object(), "values")) {
      for (const auto& v : *values) {
        if (v.is_string()) req.values.emplace_back(v.get_string());
      }
    }
    out.push_back(std::move(req));
  }
  return out;
}

std::optional<std::int64_t> to_int(std::string_view s) {
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool requirement_matches(const NodeSelectorRequirement& r, const std::string* value) {
  const auto contains = [&] {
    return value != nullptr &&
           std::find(r.values.begin(), r.values.end(), *value) != r.values.end();
  };
  if (r.op == "In") return contains();
  if (r.op == "NotIn") return !contains();
  if (r.op == "Exists") return value != nullptr;
  if (r.op == "DoesNotExist") return value == nullptr;
  if (r.op == "Gt" || r.op == "Lt") {
    if (value == nullptr || r.values.size() != 1) return false;
    const auto have = to_int(*value);
    const auto want = to_int(r.values[0]);
    if (!have || !want) return false;
    return r.op == "Gt" ? *have > *want : *have < *want;
  }
  return false;
}

bool term_matches(const NodeSelectorTerm& term, const NodeFacts& node) {
  // An empty term selects nothing (upstream's nodeaffinity semantics).
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const auto& r : term.match_expressions) {
    const auto it = node.labels.find(r.key);
    if (!requirement_matches(r, it == node.labels.end() ? nullptr : &it->second)) return false;
  }
  for (const auto& r : term.match_fields) {
    if (r.key != "metadata.name") return false;
    if (!requirement_matches(r, &node.name)) return false;
  }
  return true;
}

bool affinity_matches(const PodFacts& pod, const NodeFacts& node) {
  for (const auto& [k, v] : pod.node_selector) {
    const auto it = node.labels.find(k);
    if (it == node.labels.end() || it->second != v) return false;
  }
  if (!pod.has_required_affinity) return true;
  return std::any_of(pod.required_terms.begin(), pod.required_terms.end(),
                     [&](const NodeSelectorTerm& t) { return term_matches(t, node); });
}

bool tolerated(const PodFacts& pod, const Taint& taint) {
  return std::any_of(pod.tolerations.begin(), pod.tolerations.end(),
                     [&](const Toleration& t) { return t.tolerates(taint); });
}

// Upstream's LeastAllocated for one resource.
std::int64_t least_allocated(std::int64_t requested, std::int64_t capacity) {
  if (capacity <= 0 || requested > capacity) return 0;
  return (capacity - requested) * 100 / capacity;
}

}  // namespace

bool Toleration::tolerates(const Taint& taint) const {
  if (!effect.empty() && effect != taint.effect) return false;
  if (!key.empty() && key != taint.key) return false;
  if (op == "Exists") return true;
  if (op.empty() || op == "Equal") return value == taint.value;
  return false;
}

PodFacts PodFacts::from(const json::object& pod) {
  PodFacts out;
  if (const json::object* meta = api::find_object(pod, "metadata")) {
    out.namespace_ = str(*meta, "namespace");
    out.name = str(*meta, "name");
  }
  const json::object* spec = api::find_object(pod, "spec");
  if (spec == nullptr) return out;
  out.node_selector = string_map(api::find_object(*spec, "nodeSelector"));
  const json::object* required = nullptr;
  if (const json::object* affinity = api::find_object(*spec, "affinity")) {
    if (const json::object* node = api::find_object(*affinity, "nodeAffinity")) {
      required = api::find_object(*node, "requiredDuringSchedulingIgnoredDuringExecution");
    }
  }
  if (const json::array* terms =
          required ? api::find_array(*required, "nodeSelectorTerms") : nullptr) {
    out.has_required_affinity = true;
    for (const auto& t : *terms) {
      if (!t.is_object()) continue;
      out.required_terms.push_back({requirements(t.get_object(), "matchExpressions"),
                                    requirements(t.get_object(), "matchFields")});
    }
  }
  if (const json::array* tolerations = api::find_array(*spec, "tolerations")) {
    for (const auto& t : *tolerations) {
      if (!t.is_object()) continue;
      const json::object& o = t.get_object();
      out.tolerations.push_back(
          {str(o, "key"), str(o, "operator"), str(o, "value"), str(o, "effect")});
    }
  }
  out.requests = pod_requests(*spec);
  out.non_zero_requests = pod_requests(*spec, true);
  out.preemption_never = api::find_string(*spec, "preemptionPolicy") == "Never";
  return out;
}

NodeFacts NodeFacts::from(const json::object& node) {
  NodeFacts out;
  if (const json::object* meta = api::find_object(node, "metadata")) {
    out.name = str(*meta, "name");
    out.labels = string_map(api::find_object(*meta, "labels"));
  }
  if (const json::object* spec = api::find_object(node, "spec")) {
    out.unschedulable = api::find_bool(*spec, "unschedulable").value_or(false);
    if (const json::array* taints = api::find_array(*spec, "taints")) {
      for (const auto& t : *taints) {
        if (!t.is_object()) continue;
        const json::object& o = t.get_object();
        out.taints.push_back({str(o, "key"), str(o, "value"), str(o, "effect")});
      }
    }
  }
  // A node that is not Ready carries the taint the node lifecycle controller
  // would add (TaintNodesByCondition), so the taint filter turns it away.
  std::string ready = "Unknown";
  if (const json::object* status = api::find_object(node, "status")) {
    if (const json::array* conditions = api::find_array(*status, "conditions")) {
      for (const auto& c : *conditions) {
        if (c.is_object() && api::find_string(c.get_object(), "type") == "Ready") {
          ready = str(c.get_object(), "status");
        }
      }
    }
  }
  if (ready != "True") {
    const std::string key =
        ready == "False" ? "node.kubernetes.io/not-ready" : "node.kubernetes.io/unreachable";
    const bool present = std::any_of(out.taints.begin(), out.taints.end(), [&](const Taint& t) {
      return t.key == key && t.effect == "NoSchedule";
    });
    if (!present) out.taints.push_back({key, "", "NoSchedule"});
  }
  out.allocatable = node_allocatable(node);
  return out;
}

FitResult filter_node(const PodFacts& pod, const NodeFacts& node) {
  // NodeUnschedulable
  if (node.unschedulable &&
      !tolerated(pod, Taint{"node.kubernetes.io/unschedulable", "", "NoSchedule"})) {
    return {FitCode::kUnresolvable, {std::string(kReasonUnschedulable)}};
  }
  // TaintToleration: the first untolerated NoSchedule/NoExecute taint.
  for (const auto& taint : node.taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    if (!tolerated(pod, taint)) {
      return {FitCode::kUnresolvable,
              {fmt::format("node(s) had untolerated taint {{{}: {}}}", taint.key, taint.value)}};
    }
  }
  // NodeAffinity (nodeSelector and required node affinity)
  if (!affinity_matches(pod, node)) {
    return {FitCode::kUnresolvable, {std::string(kReasonAffinity)}};
  }
  // NodeResourcesFit
  FitResult fit;
  if (node.requested.pods + 1 > node.allocatable.pods) fit.reasons.emplace_back("Too many pods");
  const Resources& want = pod.requests;
  const Resources& have = node.allocatable;
  const Resources& used = node.requested;
  if (want.milli_cpu > 0 && want.milli_cpu > have.milli_cpu - used.milli_cpu) {
    fit.reasons.emplace_back("Insufficient cpu");
  }
  if (want.memory > 0 && want.memory > have.memory - used.memory) {
    fit.reasons.emplace_back("Insufficient memory");
  }
  if (want.ephemeral_storage > 0 &&
      want.ephemeral_storage > have.ephemeral_storage - used.ephemeral_storage) {
    fit.reasons.emplace_back("Insufficient ephemeral-storage");
  }
  if (!fit.reasons.empty()) fit.code = FitCode::kUnschedulable;
  return fit;
}

std::int64_t least_allocated_score(const PodFacts& pod, const NodeFacts& node) {
  const std::int64_t cpu =
      least_allocated(node.non_zero_requested.milli_cpu + pod.non_zero_requests.milli_cpu,
                      node.allocatable.milli_cpu);
  const std::int64_t memory = least_allocated(
      node.non_zero_requested.memory + pod.non_zero_requests.memory, node.allocatable.memory);
  return (cpu + memory) / 2;
}

Decision schedule_pod(const PodFacts& pod, const std::vector<NodeFacts>& nodes) {
  if (nodes.empty()) return {"", std::string(kNoNodesAvailable)};
  std::vector<FitResult> results;
  results.reserve(nodes.size());
  const NodeFacts* best = nullptr;
  std::int64_t best_score = -1;
  for (const auto& node : nodes) {
    results.push_back(filter_node(pod, node));
    if (results.back().code != FitCode::kFits) continue;
    const std::int64_t score = least_allocated_score(pod, node);
    // Highest score; ties go to the node with fewer pods, then the smaller name.
    if (best == nullptr || std::tie(score, best->requested.pods, best->name) >
                               std::tie(best_score, node.requested.pods, node.name)) {
      best = &node;
      best_score = score;
    }
  }
  if (best != nullptr) return {best->name, ""};
  return {"", fit_error_message(results, pod.preemption_never)};
}

namespace {

// "3 Insufficient cpu, 1 node(s) were unschedulable": counts, sorted as strings.
std::string histogram(const std::map<std::string, int>& counts) {
  std::vector<std::string> parts;
  for (const auto& [reason, n] : counts)
    parts.push_back(fmt::format("{} {}", n, reason));
  std::sort(parts.begin(), parts.end());
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace

std::string fit_error_message(const std::vector<FitResult>& results, bool preemption_never) {
  std::map<std::string, int> counts;
  std::size_t resolvable = 0;
  for (const auto& r : results) {
    for (const auto& reason : r.reasons)
      ++counts[reason];
    if (r.code == FitCode::kUnschedulable) ++resolvable;
  }
  std::string msg = fmt::format("0/{} nodes are available:", results.size());
  if (!counts.empty()) msg += " " + histogram(counts) + ".";
  if (preemption_never) return msg + " preemption: not eligible due to preemptionPolicy=Never.";
  // Nodes failing only on resources are preemption candidates, but no pod of a
  // lower priority can be evicted; the rest cannot be helped by preemption.
  std::map<std::string, int> preemption;
  if (resolvable > 0) preemption["No preemption victims found for incoming pod"] = resolvable;
  if (results.size() > resolvable) {
    preemption["Preemption is not helpful for scheduling"] = results.size() - resolvable;
  }
  msg += fmt::format(" preemption: 0/{} nodes are available: {}.", results.size(),
                     histogram(preemption));
  return msg;
}

}  // namespace kcm::local::cluster
