// What a request path means, as upstream's RequestInfoFactory reads it:
// /api/v1/namespaces/default/pods/web/status => a "status" subresource of
// pod "web" in "default", verb from the HTTP method (list vs get, watch).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kcm::local::apiserver {

struct RequestInfo {
  bool is_resource_request = false;
  std::string path;
  std::string verb;        // get list watch create update patch delete deletecollection
  std::string api_prefix;  // "api" or "apis"
  std::string group;
  std::string version;
  std::string namespace_;
  std::string resource;
  std::string subresource;
  std::string name;
  std::vector<std::string> parts;  // the segments after the group/version
};

// `method` is the HTTP method in upper case; `watch`: the `watch` query
// parameter was given and reads true (query_bool).
RequestInfo parse_request_info(std::string_view method, std::string_view path, bool watch);

// A boolean query parameter that is present, read as upstream's parameter
// codec reads every one (Convert_Slice_string_To_bool): false for "false" and
// "0" in any case, true for anything else, the empty value included.
bool query_bool(std::string_view value);

// Splits a path into its non-empty segments.
std::vector<std::string> split_path(std::string_view path);

}  // namespace kcm::local::apiserver
