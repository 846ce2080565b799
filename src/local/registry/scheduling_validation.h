// The scheduling constraints of a pod spec: affinity, tolerations and
// topology spread constraints (upstream's validateAffinity,
// ValidateTolerations and validateTopologySpreadConstraints).
#pragma once

#include <string_view>

#include "api/field_error.h"
#include "api/json.h"
#include "local/registry/pod_validation_options.h"

namespace kcm::local::registry {

namespace json = boost::json;

void validate_affinity(const json::object* affinity, const PodValidationOptions& opts,
                       std::string_view field, api::FieldErrors& errs);
void validate_tolerations(const json::array& tolerations, std::string_view field,
                          api::FieldErrors& errs);
void validate_topology_spread_constraints(const json::array* constraints,
                                          const PodValidationOptions& opts, std::string_view field,
                                          api::FieldErrors& errs);
// validateTaintEffect: NoSchedule, PreferNoSchedule or NoExecute.
void validate_taint_effect(const json::value* effect, bool allow_empty, std::string_view field,
                           api::FieldErrors& errs);
// A metav1.LabelSelector given as JSON (nullptr: nil), validated strictly
// unless `allow_invalid_label_value`.
void validate_json_label_selector(const json::value* selector, bool allow_invalid_label_value,
                                  std::string_view field, api::FieldErrors& errs);

}  // namespace kcm::local::registry
