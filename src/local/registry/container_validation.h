// spec.containers, spec.initContainers and spec.ephemeralContainers
// (upstream's validateContainers, validateInitContainers,
// validateEphemeralContainers and validateContainerCommon).
#pragma once

#include <string_view>

#include "api/field_error.h"
#include "api/json.h"
#include "local/registry/pod_validation_options.h"

namespace kcm::local::registry {

namespace json = boost::json;

api::FieldErrors validate_containers(const json::array* containers, const ContainerContext& ctx,
                                     std::string_view field);
// `regular` are spec.containers (init container names must differ from them).
api::FieldErrors validate_init_containers(const json::array* init, const json::array* regular,
                                          const ContainerContext& ctx, std::string_view field);
api::FieldErrors validate_ephemeral_containers(const json::array* ephemeral,
                                               const json::array* regular, const json::array* init,
                                               const ContainerContext& ctx, std::string_view field);
// validateContainerOnlyForPod: an image without surrounding whitespace.
void validate_container_image_for_pod(const json::object& c, std::string_view field,
                                      api::FieldErrors& errs);

}  // namespace kcm::local::registry
