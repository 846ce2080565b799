// Building a controller's pod from its template (upstream
// GetPodFromTemplate, NewControllerRef and the checks RealPodControl makes
// before it creates a pod).
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"
#include "api/object_meta.h"
#include "api/result.h"

namespace kcm::controller {

namespace json = api::json;

// metav1.NewControllerRef: apiVersion, kind, name and uid of the owner, with
// controller and blockOwnerDeletion true.
api::OwnerReference new_controller_ref(std::string_view api_version, std::string_view kind,
                                       std::string_view name, std::string_view uid);

// upstream validateControllerRef; errors: "controllerRef has empty APIVersion",
// "controllerRef has empty Kind", "controllerRef.Controller is not set to true",
// "controllerRef.BlockOwnerDeletion is not set".
Result<void> validate_controller_ref(const api::OwnerReference& ref);

// getPodsPrefix: "<name>-" when that is a valid generateName for a pod, else
// "<name>" (the API server then reports the invalid name).
std::string pods_generate_name_prefix(std::string_view controller_name);

// GetPodFromTemplate: a Pod whose metadata holds the template's labels,
// annotations and finalizers, generateName pods_generate_name_prefix(owner
// name) and the controller ref; its spec is a copy of the template's.
// `pod_template` is the PodTemplateSpec (metadata + spec).
json::object pod_from_template(const json::object& pod_template, std::string_view owner_name,
                               const api::OwnerReference& controller_ref);

// The checks RealPodControl.CreatePods makes before the POST:
// validate_controller_ref, then "unable to create pods, no labels" for a pod
// without labels.
Result<void> check_pod_for_create(const json::object& pod,
                                  const api::OwnerReference& controller_ref);

// Event reasons and messages a PodControl records on the owner.
inline constexpr std::string_view kSuccessfulCreatePodReason = "SuccessfulCreate";
inline constexpr std::string_view kFailedCreatePodReason = "FailedCreate";
inline constexpr std::string_view kSuccessfulDeletePodReason = "SuccessfulDelete";
inline constexpr std::string_view kFailedDeletePodReason = "FailedDelete";
// "Created pod: <name>", "Error creating: <err>" (not recorded when the error
// is a NamespaceTerminating one), "Deleted pod: <name>", "Error deleting: <err>"
// (not recorded for NotFound).
std::string created_pod_message(std::string_view pod_name);
std::string failed_create_pod_message(std::string_view error);
std::string deleted_pod_message(std::string_view pod_name);
std::string failed_delete_pod_message(std::string_view error);

}  // namespace kcm::controller
