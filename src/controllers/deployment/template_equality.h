// EqualIgnoreHash (upstream deployment_util.go): whether a ReplicaSet's pod
// template is the Deployment's, ignoring the pod-template-hash label. This
// is how the controller finds the new ReplicaSet; the hash itself is never
// compared.
#pragma once

#include <string_view>

#include "api/json.h"

namespace kcm::controllers::deployment {

namespace json = api::json;

// apps.DefaultDeploymentUniqueLabelKey.
inline constexpr std::string_view kPodTemplateHashLabel = "pod-template-hash";

// apiequality.Semantic.DeepEqual over JSON as the decoded Go structs compare:
// absent, null and empty values (0, false, "", [], {}) are alike, numbers
// compare by value, and the values of resource maps (limits, requests,
// overhead) and sizeLimit members compare as quantities.
bool semantic_equal(const json::value& a, const json::value& b);

// EqualIgnoreHash: semantic equality of two PodTemplateSpecs with the
// pod-template-hash label removed from both (the inputs are not modified).
bool equal_ignore_hash(const json::value& template_a, const json::value& template_b);

}  // namespace kcm::controllers::deployment
