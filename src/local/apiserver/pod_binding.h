// POST pods/NAME/binding: upstream's BindingREST.Create. Validates the v1
// Binding, then assigns the pod in one read-modify-write: it sets
// spec.nodeName, merges the binding's annotations and sets PodScheduled=True;
// 409 when the pod is bound already, is being deleted or has scheduling gates.
// Both the HTTP handler and kcm-local's scheduler bind through here.
#pragma once

#include <string_view>

#include "api/json.h"
#include "api/status.h"
#include "local/apiserver/rest_store.h"

namespace kcm::local::apiserver {

// ValidatePodBinding, and the name/namespace checks of the create handler.
// An error is the Status upstream answers with.
Result<void, api::Status> check_pod_binding(std::string_view ns, std::string_view name,
                                            const json::object& binding);

// The pod after binding (setPodHostAndAnnotations); `now` is the condition's
// lastTransitionTime when PodScheduled changes.
Result<json::object, api::Status> bind_pod(const json::object& pod, const json::object& binding,
                                           std::string_view now);

// Checks and applies `binding` to pod `ns/name` of `pods`; `done` gets 201
// with a Success Status body, as upstream answers.
void create_pod_binding(RestStore& rest, const ResourceInfo& pods, std::string_view ns,
                        std::string_view name, const json::object& binding,
                        const WriteOptions& options, WriteDone done);

}  // namespace kcm::local::apiserver
