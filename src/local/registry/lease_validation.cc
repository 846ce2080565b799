#include "local/registry/lease_validation.h"

#include "api/name_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {

api::FieldErrors validate_lease(const json::object& lease) {
  api::FieldErrors errs;
  const json::object* spec = object_member(lease, "spec");
  if (spec == nullptr) return errs;
  if (auto d = int_member(*spec, "leaseDurationSeconds"); d && *d <= 0) {
    errs.push_back(
        api::invalid("spec.leaseDurationSeconds", json::value(*d), "must be greater than 0"));
  }
  if (auto t = int_member(*spec, "leaseTransitions"); t && *t < 0) {
    errs.push_back(
        api::invalid("spec.leaseTransitions", json::value(*t), std::string(kNegativeErrorMsg)));
  }
  const json::value* strategy = member(*spec, "strategy");
  if (strategy != nullptr) {
    const std::string_view s = api::as_string_view(strategy);
    // Upstream appends "strategy" to the strategy's own path.
    const std::string path = "spec.strategy.strategy";
    if (s.find('/') == std::string_view::npos) {
      if (s != "OldestEmulationVersion") {
        errs.push_back(api::not_supported(path, json::value(s), {"OldestEmulationVersion"}));
      }
    } else {
      append_invalid(path, s, api::is_qualified_name(s), errs);
    }
  }
  if (!string_member(*spec, "preferredHolder").empty() &&
      (strategy == nullptr || string_member(*spec, "strategy").empty())) {
    errs.push_back(
        api::forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined"));
  }
  return errs;
}

}  // namespace kcm::local::registry
