// Resource names and quantities in requests, limits, overhead and node
// capacity (upstream's validateResourceRequirements and friends).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "api/field_error.h"
#include "api/json.h"
#include "api/quantity.h"

namespace kcm::local::registry {

namespace json = boost::json;

// The quantity of a JSON value, or an Invalid error on `field` (upstream's
// decoder would refuse the request with the same text).
std::optional<api::Quantity> quantity_of(const json::value& v, std::string_view field,
                                         api::FieldErrors& errs);

// validateResourceName: a qualified name, and a standard one when unprefixed.
void validate_resource_name(std::string_view name, std::string_view field, api::FieldErrors& errs);
// validateContainerResourceName.
void validate_container_resource_name(std::string_view name, std::string_view field,
                                      api::FieldErrors& errs);
// ValidateResourceQuantityValue: not negative, whole for integer resources.
void validate_resource_quantity_value(std::string_view name, const api::Quantity& q,
                                      std::string_view field, api::FieldErrors& errs);

enum class ResourceLevel { kContainer, kPod };

// Requests and limits of a container (or of the pod with kPod): names,
// quantities, requests <= limits, hugepages and claims. `resources` may be
// nullptr. `pod_claim_names` are the names in spec.resourceClaims.
void validate_resource_requirements(const json::object* resources, std::string_view field,
                                    const std::set<std::string>& pod_claim_names,
                                    ResourceLevel level, api::FieldErrors& errs);

}  // namespace kcm::local::registry
