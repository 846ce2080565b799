// Which resources the API server serves (client-go's discovery client):
// /api and /apis for the groups, /api/v1 and /apis/<group>/<version> for
// each group version's resources. Controllers that act on every kind (the
// garbage collector, the namespace controller) start here; CRDs show up as
// soon as the server serves them.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/group_version.h"
#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "client/rest_client.h"

namespace kcm::client {

// metav1.APIResource, with the group version it was listed under.
struct ApiResource {
  api::GroupVersion group_version;
  std::string name;  // plural, or "<plural>/<subresource>"
  std::string kind;
  bool namespaced = false;
  std::vector<std::string> verbs;

  api::GroupVersionResource gvr() const {
    return {group_version.group, group_version.version, name};
  }
  bool is_subresource() const { return name.find('/') != std::string::npos; }
  // upstream discovery.SupportsAllVerbs.
  bool supports_all(const std::vector<std::string_view>& wanted) const;
};

// metav1.APIGroup: the versions in the server's order, the preferred one.
struct ApiGroup {
  std::string name;  // "" for the core group
  std::vector<std::string> versions;
  std::string preferred_version;
};

// upstream ServerPreferredResources: per group, the preferred version's
// resources, plus those only another version serves. A group version whose
// list failed is skipped and named in `failed` (upstream
// ErrGroupDiscoveryFailed): callers act on the rest and retry later.
struct PreferredResources {
  std::vector<ApiResource> resources;         // no subresources
  std::map<std::string, std::string> failed;  // "group/version" -> error message
};

// Parsers of the three documents (unit-tested without a server). Errors name
// what is malformed.
Result<std::vector<std::string>> parse_api_versions(const boost::json::value& doc);  // /api
Result<std::vector<ApiGroup>> parse_api_group_list(const boost::json::value& doc);   // /apis
Result<std::vector<ApiResource>> parse_api_resource_list(const boost::json::value& doc);

class DiscoveryClient {
 public:
  explicit DiscoveryClient(std::shared_ptr<RestClient> rest) : rest_(std::move(rest)) {}

  // The core group (from /api) first, then /apis in the server's order.
  Result<std::vector<ApiGroup>, api::Status> server_groups() const;
  Result<std::vector<ApiResource>, api::Status> server_resources_for_group_version(
      const api::GroupVersion& group_version) const;
  Result<PreferredResources, api::Status> server_preferred_resources() const;

 private:
  std::shared_ptr<RestClient> rest_;
};

}  // namespace kcm::client
