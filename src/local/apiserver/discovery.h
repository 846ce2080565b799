// Discovery documents built from the resource table: aggregated discovery
// (apidiscovery.k8s.io/v2, what kubectl asks for first) and the legacy
// APIVersions / APIGroupList / APIResourceList form.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"
#include "local/registry/resource_info.h"

namespace kcm::local::apiserver {

namespace json = boost::json;

// `/api` (core) or `/apis` (every named group), aggregated. `api_version` is
// "apidiscovery.k8s.io/v2" or ".../v2beta1" (the shape is the same).
json::value aggregated_discovery(const registry::ResourceTable& table, bool core,
                                 std::string_view api_version);

// Legacy forms.
json::value api_versions(std::string_view server_address);
json::value api_group_list(const registry::ResourceTable& table);
// nullopt-like null value when the group/version is not served.
json::value api_resource_list(const registry::ResourceTable& table, std::string_view group,
                              std::string_view version);
// `/apis/<group>`: an APIGroup, or null when not served.
json::value api_group(const registry::ResourceTable& table, std::string_view group);

// Which aggregated discovery version an Accept header asks for: "v2",
// "v2beta1", or "" for the legacy documents.
std::string aggregated_discovery_version(std::string_view accept);

}  // namespace kcm::local::apiserver
