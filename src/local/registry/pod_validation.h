// Pods and pod templates: upstream's ValidatePodSpec, ValidatePodTemplateSpec,
// ValidatePodSpecificAnnotations and ValidatePodCreate. Metadata itself is
// validated generically by the API server before these run.
#pragma once

#include <string_view>

#include "api/field_error.h"
#include "api/json.h"
#include "local/registry/pod_validation_options.h"

namespace kcm::local::registry {

namespace json = boost::json;

// `pod_name` is empty for templates. `field` is the spec's path.
api::FieldErrors validate_pod_spec(const json::object& spec, std::string_view pod_name,
                                   std::string_view field, const PodValidationOptions& opts);
// A PodTemplateSpec at `field` ("spec.template"). Labels and annotations
// report on "<field>.labels" / "<field>.annotations", as upstream does.
api::FieldErrors validate_pod_template_spec(const json::object& tmpl, std::string_view field,
                                            const PodValidationOptions& opts);
// Mirror-pod, deletion-cost, seccomp and AppArmor annotations.
void validate_pod_specific_annotations(const json::object* annotations, const json::object& spec,
                                       std::string_view field, const PodValidationOptions& opts,
                                       api::FieldErrors& errs);
// Everything a pod create checks beyond generic metadata.
api::FieldErrors validate_pod_create(const json::object& pod);
// The checks ValidatePodCreate and ValidatePodUpdate share
// (validatePodMetadataAndSpec minus the generic metadata part).
api::FieldErrors validate_pod_metadata_and_spec(const json::object& pod,
                                                const PodValidationOptions& opts);
// Whether the pod's deletion-cost annotation is not a 32-bit integer (an
// update keeps accepting what was stored).
bool has_invalid_deletion_cost(const json::object& pod);

}  // namespace kcm::local::registry
