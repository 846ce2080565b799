#include "local/registry/namespace_validation.h"

#include "api/name_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

// validateFinalizerName: a qualified name, and a standard one when unprefixed.
void validate_finalizer_name(std::string_view name, std::string_view field,
                             api::FieldErrors& errs) {
  append_invalid(field, name, api::is_qualified_name(name), errs);
  validate_kube_finalizer_name(name, field, errs);
}

api::FieldErrors validate_spec_finalizers(const json::object& ns, bool indexed) {
  api::FieldErrors errs;
  validate_kube_finalizer_names(ns, errs);
  const json::object* spec = object_member(ns, "spec");
  const json::array* finalizers = spec != nullptr ? array_member(*spec, "finalizers") : nullptr;
  if (finalizers == nullptr) return errs;
  for (std::size_t i = 0; i < finalizers->size(); ++i) {
    const json::value& f = (*finalizers)[i];
    validate_finalizer_name(api::as_string_view(&f),
                            indexed ? api::index("spec.finalizers", i) : "spec.finalizers", errs);
  }
  return errs;
}

}  // namespace

api::FieldErrors validate_namespace(const json::object& ns) {
  return validate_spec_finalizers(ns, false);
}

api::FieldErrors validate_namespace_update(const json::object& ns, const json::object&) {
  return validate_spec_finalizers(ns, true);
}

api::FieldErrors validate_namespace_status_update(const json::object& ns, const json::object&) {
  api::FieldErrors errs;
  validate_kube_finalizer_names(ns, errs);
  const json::object* meta = object_member(ns, "metadata");
  const bool deleting = meta != nullptr && has(*meta, "deletionTimestamp");
  const json::object* status = object_member(ns, "status");
  const std::string_view phase = status != nullptr ? string_member(*status, "phase") : "";
  // Upstream names the field "status.Phase".
  if (!deleting && phase != "Active") {
    errs.push_back(api::invalid("status.Phase", json::value(phase),
                                "may only be 'Active' if `deletionTimestamp` is empty"));
  } else if (deleting && phase != "Terminating") {
    errs.push_back(api::invalid("status.Phase", json::value(phase),
                                "may only be 'Terminating' if `deletionTimestamp` is not empty"));
  }
  return errs;
}

}  // namespace kcm::local::registry
