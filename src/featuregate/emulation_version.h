// --emulated-version as the component globals registry reads and validates
// it (component-base compatibility): a binary at 1.N may emulate 1.N-3 to
// 1.N, never below 1.31, and its feature gates then follow the emulated
// version (FeatureGate's emulating constructor).
#pragma once

#include <string>
#include <vector>

#include "api/result.h"
#include "featuregate/feature_gate.h"

namespace kcm::featuregate {

struct EmulationRange {
  MajorMinor floor;
  MajorMinor binary;
};

// The kube component's range for a binary at 1.<binary_minor>.
EmulationRange kube_emulation_range(int binary_minor);

// The option --help lists: "kube=1.31..1.33 (default=1.33)".
std::string kube_emulation_option(const EmulationRange& range);

// The kube version that `entries` ("[component=]version", as given) ask for,
// or the binary's when they ask for none. Errors as the registry's Set():
// version parse errors, "patch version not allowed, got: kube=1.31.2",
// "duplicate version flag, kube=1.30 and kube=1.32", "component not
// registered: wardle". The range is not checked here (see below).
Result<MajorMinor> kube_emulation_version(const std::vector<std::string>& entries,
                                          const EmulationRange& range);

// effectiveVersion.Validate: "emulation version 1.34 is not between [1.31,
// 1.33.0]", and for the min compatibility version that follows it (one minor
// below, at least the floor) "minCompatibilityVersion version 1.31 is not
// between [1.31, 1.30]".
std::vector<std::string> validate_emulation_version(MajorMinor emulated,
                                                    const EmulationRange& range);

}  // namespace kcm::featuregate
