// Serving custom resources: what an established CustomResourceDefinition
// adds to the served resources (one ResourceInfo per served version, with the
// version's schema as its Strategy: pruning, defaulting, validation, and the
// status subresource's rules), as upstream's crdHandler builds per CRD.
#pragma once

#include <memory>
#include <vector>

#include "api/json.h"
#include "local/registry/resource_info.h"

namespace kcm::local::registry {

// The served versions of `crd` (which passed validate_crd). A version whose
// schema or printer columns cannot be used is left out, with the reason
// appended to `problems` when given.
std::vector<std::shared_ptr<const ResourceInfo>> served_resources(
    const json::object& crd, std::vector<std::string>* problems = nullptr);

// The storage entry of a custom resource's objects before its CRD is known
// (recovery): only metadata.name and metadata.namespace are selectable.
const ResourceInfo& custom_storage_info();

}  // namespace kcm::local::registry
