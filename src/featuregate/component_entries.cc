#include "featuregate/component_entries.h"

#include <fmt/format.h>

#include "api/go_strings.h"

namespace kcm::featuregate {

void append_component_entries(std::string_view value, std::vector<ComponentEntry>& entries) {
  for (const std::string_view pair : api::split(value, ',')) {
    if (pair.empty()) continue;
    const auto colon = pair.find(':');
    if (colon == std::string_view::npos) {
      entries.push_back({"", std::string(api::trim_space(pair))});
    } else {
      entries.push_back({std::string(api::trim_space(pair.substr(0, colon))),
                         std::string(api::trim_space(pair.substr(colon + 1)))});
    }
  }
}

Result<std::string> kube_settings(const std::vector<ComponentEntry>& entries) {
  bool unprefixed = false;
  bool prefixed = false;
  std::string kube;
  for (const ComponentEntry& entry : entries) {
    if (!entry.component.empty() && entry.component != kKubeComponent) {
      return fail(fmt::format("component not registered: {}", entry.component));
    }
    (entry.component.empty() ? unprefixed : prefixed) = true;
    kube += (kube.empty() ? "" : ",") + entry.setting;
  }
  if (unprefixed && prefixed) {
    return fail(
        "set kube feature gates with default empty prefix or kube: prefix consistently, do not "
        "mix use");
  }
  return kube;
}

}  // namespace kcm::featuregate
