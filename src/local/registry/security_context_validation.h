// Pod and container securityContext (upstream's validatePodSpecSecurityContext
// and ValidateSecurityContext), and the seccomp/AppArmor profile fields they
// share. kcm-local allows privileged containers, as clusters usually do.
#pragma once

#include <string_view>

#include "api/field_error.h"
#include "api/json.h"
#include "local/registry/pod_validation_options.h"

namespace kcm::local::registry {

namespace json = boost::json;

// `spec` is the pod spec (hostNetwork, hostPID and hostIPC live there in v1);
// `field` is the spec's path ("spec" or "spec.template.spec").
void validate_pod_security_context(const json::object& spec, std::string_view field,
                                   const PodValidationOptions& opts, api::FieldErrors& errs);
// A container's securityContext (nullptr: absent) on `field`.
void validate_container_security_context(const json::object* sc, std::string_view field,
                                         bool host_users, api::FieldErrors& errs);
void validate_seccomp_profile(const json::object* profile, std::string_view field,
                              api::FieldErrors& errs);
void validate_app_armor_profile(const json::object* profile, std::string_view field,
                                api::FieldErrors& errs);

}  // namespace kcm::local::registry
