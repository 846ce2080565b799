#include "controllers/garbagecollector/rest_mapper.h"

#include <fmt/format.h>

namespace kcm::controllers::garbagecollector {

void RestMapper::reset(const std::vector<client::ApiResource>& resources) {
  std::map<std::pair<std::string, std::string>, std::pair<std::string, bool>, std::less<>> kinds;
  for (const client::ApiResource& r : resources) {
    if (r.is_subresource() || r.kind.empty()) continue;
    kinds.try_emplace({r.group_version.group, r.kind}, r.name, r.namespaced);
  }
  const std::lock_guard lock(mu_);
  kinds_ = std::move(kinds);
}

Result<ResourceMapping> RestMapper::mapping(std::string_view api_version,
                                            std::string_view kind) const {
  const api::GroupVersion gv = api::GroupVersion::parse(api_version);
  const std::lock_guard lock(mu_);
  const auto it = kinds_.find(std::pair<std::string, std::string>{gv.group, std::string(kind)});
  if (it == kinds_.end() || gv.version.empty()) {
    return fail(fmt::format("unable to get REST mapping for {}/{}.", kind, api_version));
  }
  return ResourceMapping{{gv.group, gv.version, it->second.first}, it->second.second};
}

}  // namespace kcm::controllers::garbagecollector
