#include "local/registry/apps_validation.h"

#include <string>

#include "api/int_or_string.h"
#include "api/label_selector.h"
#include "local/registry/field_access.h"
#include "local/registry/go_value.h"
#include "local/registry/pod_validation.h"
#include "local/registry/scheduling_validation.h"
#include "local/registry/semantic_equal.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

using Errs = api::FieldErrors;

// A JSON IntOrString (a number or a string; anything else reads as 0).
api::IntOrString int_or_string(const json::value* v) {
  if (v == nullptr) return {};
  auto parsed = api::IntOrString::from_json(*v);
  return parsed ? *parsed : api::IntOrString();
}

// ValidatePositiveIntOrPercent.
void validate_positive_int_or_percent(const json::value* v, const std::string& field, Errs& errs) {
  const api::IntOrString value = int_or_string(v);
  if (value.is_string()) {
    for (const auto& msg : api::is_valid_percent(value.str_val())) {
      errs.push_back(invalid_go(field, go_int_or_string(value.to_json()), msg));
    }
    return;
  }
  validate_nonnegative(value.int_value(), field, errs);
}

void validate_strategy(const json::object& spec, Errs& errs) {
  const json::object& strategy = member_or_empty(spec, "strategy");
  const std::string_view type = string_member(strategy, "type");
  const json::object* rolling = object_member(strategy, "rollingUpdate");
  if (type == "Recreate") {
    if (rolling != nullptr) {
      errs.push_back(api::forbidden("spec.strategy.rollingUpdate",
                                    "may not be specified when strategy `type` is 'Recreate'"));
    }
    return;
  }
  if (type == "RollingUpdate") {
    if (rolling == nullptr) {
      errs.push_back(api::required("spec.strategy.rollingUpdate",
                                   "this should be defaulted and never be nil"));
      return;
    }
    const std::string base = "spec.strategy.rollingUpdate";
    const json::value* max_unavailable = member(*rolling, "maxUnavailable");
    const json::value* max_surge = member(*rolling, "maxSurge");
    validate_positive_int_or_percent(max_unavailable, base + ".maxUnavailable", errs);
    validate_positive_int_or_percent(max_surge, base + ".maxSurge", errs);
    const api::IntOrString unavailable = int_or_string(max_unavailable);
    if (api::int_or_percent_value(unavailable) == 0 &&
        api::int_or_percent_value(int_or_string(max_surge)) == 0) {
      errs.push_back(invalid_go(base + ".maxUnavailable", go_int_or_string(unavailable.to_json()),
                                "may not be 0 when `maxSurge` is 0"));
    }
    for (const auto& e : api::is_not_more_than_100_percent(unavailable, base + ".maxUnavailable")) {
      errs.push_back(invalid_go(e.field, go_int_or_string(unavailable.to_json()), e.detail));
    }
    return;
  }
  // Upstream prints the DeploymentStrategy struct (RollingUpdate is a pointer
  // whose address cannot be reproduced).
  const std::string rendering = "apps.DeploymentStrategy{Type:" + api::go_quote(type) +
                                ", RollingUpdate:(*apps.RollingUpdateDeployment)(" +
                                (rolling != nullptr ? "0xc000000000" : "nil") + ")}";
  errs.push_back(not_supported_go("spec.strategy", rendering, {"Recreate", "RollingUpdate"}));
}

// The selector and template checks shared by both kinds (ReplicaSet's
// message says "deployment" upstream too).
void validate_selector_and_template(const json::object& spec, Errs& errs) {
  const json::value* selector = member(spec, "selector");
  std::optional<api::LabelSelector> parsed;
  bool parse_failed = false;
  if (selector == nullptr) {
    errs.push_back(api::required("spec.selector"));
  } else {
    validate_json_label_selector(selector, false, "spec.selector", errs);
    auto p = api::LabelSelector::from_json(*selector, "spec.selector");
    if (p) {
      parsed = std::move(*p);
    } else {
      parse_failed = true;
    }
    if (parsed && parsed->empty()) {
      errs.push_back(invalid_go("spec.selector", go_label_selector(*selector),
                                "empty selector is invalid for deployment"));
    }
  }
  auto as_sel =
      parse_failed ? Result<api::labels::Selector>(fail("unparsable")) : api::as_selector(parsed);
  if (!as_sel) {
    errs.push_back(
        invalid_go("spec.selector", go_label_selector(*selector), "invalid label selector"));
    return;
  }
  static const json::object kEmpty;
  const json::object& tmpl = member_or_empty(spec, "template");
  const json::object& meta = member_or_empty(tmpl, "metadata");
  const json::object* labels = object_member(meta, "labels");
  if (!as_sel->empty() && !api::labels::matches(*as_sel, labels != nullptr ? *labels : kEmpty)) {
    errs.push_back(invalid_go("spec.template.metadata.labels", go_string_map(labels),
                              "`selector` does not match template `labels`"));
  }
  append(errs, validate_pod_template_spec(tmpl, "spec.template", PodValidationOptions{}));
  const json::object& pod_spec = member_or_empty(tmpl, "spec");
  const std::string_view restart = string_member(pod_spec, "restartPolicy");
  if (restart != "Always") {
    errs.push_back(
        api::not_supported("spec.template.spec.restartPolicy", json::value(restart), {"Always"}));
  }
  if (has(pod_spec, "activeDeadlineSeconds")) {
    errs.push_back(api::forbidden("spec.template.spec.activeDeadlineSeconds",
                                  "activeDeadlineSeconds in ReplicaSet is not Supported"));
  }
}

Errs validate_deployment_spec(const json::object& spec) {
  Errs errs;
  validate_nonnegative(int_member(spec, "replicas").value_or(0), "spec.replicas", errs);
  validate_selector_and_template(spec, errs);
  validate_strategy(spec, errs);
  const std::int64_t min_ready = int_member(spec, "minReadySeconds").value_or(0);
  validate_nonnegative(min_ready, "spec.minReadySeconds", errs);
  if (auto limit = int_member(spec, "revisionHistoryLimit")) {
    validate_nonnegative(*limit, "spec.revisionHistoryLimit", errs);
  }
  if (auto deadline = int_member(spec, "progressDeadlineSeconds")) {
    validate_nonnegative(*deadline, "spec.progressDeadlineSeconds", errs);
    if (*deadline <= min_ready) {
      errs.push_back(api::invalid("spec.progressDeadlineSeconds", json::value(*deadline),
                                  "must be greater than minReadySeconds"));
    }
  }
  return errs;
}

Errs validate_replica_set_spec(const json::object& spec) {
  Errs errs;
  validate_nonnegative(int_member(spec, "replicas").value_or(0), "spec.replicas", errs);
  validate_nonnegative(int_member(spec, "minReadySeconds").value_or(0), "spec.minReadySeconds",
                       errs);
  validate_selector_and_template(spec, errs);
  return errs;
}

void validate_selector_immutable(const json::object& obj, const json::object& old, Errs& errs) {
  const json::value* now = member(member_or_empty(obj, "spec"), "selector");
  const json::value* before = member(member_or_empty(old, "spec"), "selector");
  static const api::schema::Type& label_selector = builtin_type("meta/v1", "LabelSelector");
  if ((now == nullptr) == (before == nullptr) &&
      (now == nullptr || semantic_equal(*now, *before, label_selector))) {
    return;
  }
  if (now == nullptr) {
    // A nil pointer prints as the string "null".
    errs.push_back(
        api::invalid("spec.selector", json::value("null"), std::string(kFieldImmutableErrorMsg)));
    return;
  }
  errs.push_back(
      invalid_go("spec.selector", go_label_selector(*now), std::string(kFieldImmutableErrorMsg)));
}

std::int64_t count(const json::object& status, std::string_view key) {
  return int_member(status, key).value_or(0);
}

// The status checks both kinds share; `extra` is updatedReplicas
// (Deployment) or fullyLabeledReplicas (ReplicaSet).
Errs validate_status(const json::object& status, std::string_view extra, bool deployment) {
  Errs errs;
  if (deployment) {
    validate_nonnegative(count(status, "observedGeneration"), "status.observedGeneration", errs);
  }
  validate_nonnegative(count(status, "replicas"), "status.replicas", errs);
  if (deployment) {
    for (std::string_view key :
         {"updatedReplicas", "readyReplicas", "availableReplicas", "unavailableReplicas"}) {
      validate_nonnegative(count(status, key), path_of("status", key), errs);
    }
    if (auto c = int_member(status, "collisionCount")) {
      validate_nonnegative(*c, "status.collisionCount", errs);
    }
  } else {
    for (std::string_view key :
         {"fullyLabeledReplicas", "readyReplicas", "availableReplicas", "observedGeneration"}) {
      validate_nonnegative(count(status, key), path_of("status", key), errs);
    }
  }
  if (auto t = int_member(status, "terminatingReplicas")) {
    validate_nonnegative(*t, "status.terminatingReplicas", errs);
  }
  const std::int64_t replicas = count(status, "replicas");
  for (std::string_view key :
       {extra, std::string_view("readyReplicas"), std::string_view("availableReplicas")}) {
    if (count(status, key) > replicas) {
      errs.push_back(api::invalid(path_of("status", key), json::value(count(status, key)),
                                  "cannot be greater than status.replicas"));
    }
  }
  if (count(status, "availableReplicas") > count(status, "readyReplicas")) {
    errs.push_back(api::invalid("status.availableReplicas",
                                json::value(count(status, "availableReplicas")),
                                "cannot be greater than readyReplicas"));
  }
  return errs;
}

}  // namespace

api::FieldErrors validate_deployment(const json::object& deployment) {
  Errs errs;
  validate_kube_finalizer_names(deployment, errs);
  append(errs, validate_deployment_spec(member_or_empty(deployment, "spec")));
  return errs;
}

api::FieldErrors validate_deployment_update(const json::object& deployment,
                                            const json::object& old) {
  Errs errs = validate_deployment(deployment);
  validate_selector_immutable(deployment, old, errs);
  return errs;
}

api::FieldErrors validate_deployment_status_update(const json::object& deployment,
                                                   const json::object& old) {
  Errs errs;
  validate_kube_finalizer_names(deployment, errs);
  const json::object& status = member_or_empty(deployment, "status");
  append(errs, validate_status(status, "updatedReplicas", true));
  const auto now = int_member(status, "collisionCount");
  const auto before = int_member(member_or_empty(old, "status"), "collisionCount");
  if (before && (!now || *now < *before)) {
    errs.push_back(api::invalid("status.collisionCount", json::value(now.value_or(0)),
                                "cannot be decremented"));
  }
  return errs;
}

api::FieldErrors validate_replica_set(const json::object& replica_set) {
  Errs errs;
  validate_kube_finalizer_names(replica_set, errs);
  append(errs, validate_replica_set_spec(member_or_empty(replica_set, "spec")));
  return errs;
}

api::FieldErrors validate_replica_set_update(const json::object& replica_set,
                                             const json::object& old) {
  Errs errs = validate_replica_set(replica_set);
  validate_selector_immutable(replica_set, old, errs);
  return errs;
}

api::FieldErrors validate_replica_set_status_update(const json::object& replica_set,
                                                    const json::object&) {
  Errs errs;
  validate_kube_finalizer_names(replica_set, errs);
  append(errs,
         validate_status(member_or_empty(replica_set, "status"), "fullyLabeledReplicas", false));
  return errs;
}

}  // namespace kcm::local::registry
