#include "local/registry/pod_create_mutations.h"

#include <string>

#include "local/registry/field_access.h"

namespace kcm::local::registry {
namespace {

void apply_label_keys(json::object& term, const json::object& labels) {
  json::object* selector = mutable_object_member(term, "labelSelector");
  if (selector == nullptr) return;
  for (const auto& [key, op] :
       {std::pair{"matchLabelKeys", "In"}, std::pair{"mismatchLabelKeys", "NotIn"}}) {
    const json::array* keys = array_member(term, key);
    if (keys == nullptr) continue;
    for (const auto& k : *keys) {
      if (!k.is_string()) continue;
      const json::value* v = labels.if_contains(k.get_string());
      if (v == nullptr || !v->is_string()) continue;
      json::value& exprs = (*selector)["matchExpressions"];
      if (!exprs.is_array()) exprs = json::array();
      json::array values;
      values.emplace_back(v->get_string());
      exprs.get_array().emplace_back(
          json::object{{"key", k.get_string()}, {"operator", op}, {"values", std::move(values)}});
    }
  }
}

}  // namespace

void apply_scheduling_gated_condition(json::object& pod, std::string_view now) {
  const json::object* spec = object_member(pod, "spec");
  const json::array* gates = spec != nullptr ? array_member(*spec, "schedulingGates") : nullptr;
  if (gates == nullptr || gates->empty()) return;
  json::object& status = object_at(pod, "status");
  if (const json::array* conditions = array_member(status, "conditions")) {
    for (const auto& c : *conditions) {
      const json::object* o = c.if_object();
      if (o != nullptr && string_member(*o, "type") == "PodScheduled") return;
    }
  }
  json::value& conditions = status["conditions"];
  if (!conditions.is_array()) conditions = json::array();
  conditions.get_array().emplace_back(
      json::object{{"type", "PodScheduled"},
                   {"status", "False"},
                   {"lastProbeTime", nullptr},
                   {"lastTransitionTime", now},
                   {"reason", "SchedulingGated"},
                   {"message", "Scheduling is blocked due to non-empty scheduling gates"}});
}

void merge_affinity_label_keys(json::object& pod) {
  const json::object* meta = object_member(pod, "metadata");
  static const json::object kEmpty;
  const json::object* l = meta != nullptr ? object_member(*meta, "labels") : nullptr;
  const json::object labels = l != nullptr ? *l : kEmpty;
  json::object* spec = mutable_object_member(pod, "spec");
  json::object* affinity = spec != nullptr ? mutable_object_member(*spec, "affinity") : nullptr;
  if (affinity == nullptr) return;
  for (std::string_view kind : {"podAffinity", "podAntiAffinity"}) {
    json::object* a = mutable_object_member(*affinity, kind);
    if (a == nullptr) continue;
    if (json::array* pref =
            mutable_array_member(*a, "preferredDuringSchedulingIgnoredDuringExecution")) {
      for (auto& w : *pref) {
        json::object* wt = w.if_object();
        json::object* term =
            wt != nullptr ? mutable_object_member(*wt, "podAffinityTerm") : nullptr;
        if (term != nullptr) apply_label_keys(*term, labels);
      }
    }
    if (json::array* req =
            mutable_array_member(*a, "requiredDuringSchedulingIgnoredDuringExecution")) {
      for (auto& t : *req) {
        if (json::object* term = t.if_object()) apply_label_keys(*term, labels);
      }
    }
  }
}

}  // namespace kcm::local::registry
