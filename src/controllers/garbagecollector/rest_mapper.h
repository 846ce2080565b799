// apiVersion + kind -> resource, from the discovered resources (the part of
// upstream's RESTMapper the garbage collector uses). Thread-safe; reset on
// every re-discovery so CRDs become mappable.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/group_version.h"
#include "api/result.h"
#include "client/discovery.h"

namespace kcm::controllers::garbagecollector {

struct ResourceMapping {
  api::GroupVersionResource resource;
  bool namespaced = false;
};

class RestMapper {
 public:
  // Replaces every mapping with those of `resources` (subresources skipped).
  void reset(const std::vector<client::ApiResource>& resources);
  // The resource of `kind` in the group of `api_version`, at that version.
  // Error (upstream restMappingError): "unable to get REST mapping for kind/version".
  Result<ResourceMapping> mapping(std::string_view api_version, std::string_view kind) const;

 private:
  mutable std::mutex mu_;
  // (group, kind) -> (plural, namespaced)
  std::map<std::pair<std::string, std::string>, std::pair<std::string, bool>, std::less<>> kinds_;
};

}  // namespace kcm::controllers::garbagecollector
