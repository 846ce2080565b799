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

// apiequality.Semantic.DeepEqual of two PodTemplateSpecs, as the decoded Go
// structs compare (api/schema/semantic_equal.h): a field set to its zero
// value equals an absent one unless the field is a pointer, nil and empty
// lists and maps are alike, quantities compare by value.
bool equal_pod_templates(const json::value& a, const json::value& b);

// EqualIgnoreHash: equal_pod_templates with the pod-template-hash label
// removed from both (the inputs are not modified).
bool equal_ignore_hash(const json::value& template_a, const json::value& template_b);

}  // namespace kcm::controllers::deployment
