// --feature-gates as a component globals registry reads it (upstream's
// ColonSeparatedMultimapStringString): comma-separated "[component:]Name=bool"
// entries, where no component means "kube". kcm and kcm-local register only
// the kube component.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"

namespace kcm::featuregate {

inline constexpr std::string_view kKubeComponent = "kube";

struct ComponentEntry {
  std::string component;  // as given: empty when the entry had no prefix
  std::string setting;    // "Name=bool", not yet checked
};

// Appends the entries of one use of the flag. Empty entries are skipped; the
// text around each ':' is trimmed.
void append_component_entries(std::string_view value, std::vector<ComponentEntry>& entries);

// The kube component's settings, joined for FeatureGate::set. Errors as
// ComponentGlobalsRegistry.Set: "component not registered: X", and the one
// for mixing "kube:" with unprefixed entries.
Result<std::string> kube_settings(const std::vector<ComponentEntry>& entries);

}  // namespace kcm::featuregate
