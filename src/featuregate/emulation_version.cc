#include "featuregate/emulation_version.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "api/go_strings.h"
#include "api/version.h"
#include "featuregate/component_entries.h"

namespace kcm::featuregate {
namespace {

// The lowest version any kube component emulates (upstream's
// minimumKubeEmulationVersion).
constexpr MajorMinor kMinimumKubeEmulation{1, 31};

}  // namespace

EmulationRange kube_emulation_range(int binary_minor) {
  const MajorMinor binary{1, static_cast<unsigned long>(std::max(binary_minor, 0))};
  const MajorMinor three_back{1, binary.minor > 3 ? binary.minor - 3 : 0};
  return {std::max(three_back, kMinimumKubeEmulation), binary};
}

std::string kube_emulation_option(const EmulationRange& range) {
  return fmt::format("{}={}..{} (default={})", kKubeComponent, to_string(range.floor),
                     to_string(range.binary), to_string(range.binary));
}

Result<MajorMinor> kube_emulation_version(const std::vector<std::string>& entries,
                                          const EmulationRange& range) {
  std::map<std::string, api::Version> versions;  // toVersionMap
  for (const std::string& entry : entries) {
    std::string component(kKubeComponent);
    std::string_view value = entry;
    if (const auto eq = entry.find('='); eq != std::string::npos) {
      component = api::trim_space(std::string_view(entry).substr(0, eq));
      value = api::trim_space(std::string_view(entry).substr(eq + 1));
    }
    auto version = api::parse_version(value);
    if (!version) return fail(version.error());
    if (version->patch() != 0) {
      return fail(
          fmt::format("patch version not allowed, got: {}={}", component, version->to_string()));
    }
    if (auto it = versions.find(component); it != versions.end()) {
      return fail(fmt::format("duplicate version flag, {}={} and {}={}", component,
                              it->second.to_string(), component, version->to_string()));
    }
    versions.emplace(component, std::move(*version));
  }
  for (const auto& [component, version] : versions) {
    if (component != kKubeComponent)
      return fail(fmt::format("component not registered: {}", component));
  }
  const auto kube = versions.find(std::string(kKubeComponent));
  if (kube == versions.end()) return range.binary;
  return MajorMinor{kube->second.major(), kube->second.minor()};
}

std::vector<std::string> validate_emulation_version(MajorMinor emulated,
                                                    const EmulationRange& range) {
  std::vector<std::string> errors;
  if (emulated > range.binary || emulated < range.floor) {
    errors.push_back(fmt::format("emulation version {} is not between [{}, {}.0]",
                                 to_string(emulated), to_string(range.floor),
                                 to_string(range.binary)));
  }
  // SetEmulationVersion puts the min compatibility version one minor below
  // the emulated one, and no lower than the floor.
  const MajorMinor below{emulated.major, emulated.minor > 0 ? emulated.minor - 1 : 0};
  const MajorMinor min_compatibility = std::max(below, range.floor);
  if (min_compatibility > emulated || min_compatibility < range.floor) {
    errors.push_back(fmt::format("minCompatibilityVersion version {} is not between [{}, {}]",
                                 to_string(min_compatibility), to_string(range.floor),
                                 to_string(emulated)));
  }
  return errors;
}

}  // namespace kcm::featuregate
