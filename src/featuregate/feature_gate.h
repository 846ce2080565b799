// Feature gates as component-base's featuregate package has them: each gate
// has a history of stages and defaults per Kubernetes minor version, a
// component sees the gates at its own version, and `--feature-gates` sets
// them with upstream's syntax and error texts.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"

namespace kcm::featuregate {

// kPreAlpha: a gate the binary has but the emulated version predates.
enum class Stage { kPreAlpha, kAlpha, kBeta, kGA, kDeprecated };

// The name upstream prints: "PRE-ALPHA", "ALPHA", "BETA", "" (GA) or
// "DEPRECATED".
std::string_view stage_name(Stage stage);

// A Kubernetes version as --emulated-version sets it.
struct MajorMinor {
  unsigned long major = 1;
  unsigned long minor = 0;
  auto operator<=>(const MajorMinor&) const = default;
};
// "1.31".
std::string to_string(MajorMinor version);

// One step of a gate's history: its stage and default from Kubernetes
// 1.<minor> on.
struct VersionedSpec {
  int minor = 0;
  bool default_value = false;
  Stage stage = Stage::kAlpha;
  bool lock_to_default = false;  // setting the other value is an error
};

struct Feature {
  std::string name;
  std::vector<VersionedSpec> history;  // oldest first
};

class FeatureGate {
 public:
  // The gates as a component at Kubernetes 1.<minor> has them: a gate whose
  // history starts later is unknown. AllAlpha and AllBeta are always known.
  FeatureGate(const std::vector<Feature>& features, int minor);
  // The same binary emulating an earlier (or, refused later by validation,
  // another) version: each gate takes its last spec at or before `emulated`;
  // a gate newer than that is PreAlpha (off, and an error to set).
  FeatureGate(const std::vector<Feature>& features, int binary_minor, MajorMinor emulated);

  // featureGate.Set: "Name=bool,Name=bool" over the current values. A gate
  // named explicitly wins over AllAlpha/AllBeta, whatever the order. Errors
  // as upstream: "missing bool value for X", "invalid value of X=y, err:
  // strconv.ParseBool: ...", "unrecognized feature gate: X", "cannot set
  // feature gate X to false, feature is locked to true", "cannot set feature
  // gate X to true, feature is PreAlpha at emulated version 1.31" (several
  // aggregated as "[e1, e2]"). On error nothing changes. Success returns the warnings
  // upstream logs for GA and deprecated gates.
  Result<std::vector<std::string>> set(std::string_view value);

  bool known(std::string_view name) const;
  // Whether `name` is on. Asking for a gate the component does not know is a
  // programming error (upstream panics): it aborts.
  bool enabled(std::string_view name) const;

  // KnownFeatures, for --help: "Name=true|false (STAGE - default=bool)",
  // sorted; GA, deprecated and PreAlpha gates are left out.
  std::vector<std::string> known_features() const;

  // Every gate but the PreAlpha ones, with its stage and value, sorted by
  // name (GetAll: the kubernetes_feature_enabled metric).
  struct State {
    std::string name;
    Stage stage;
    bool enabled;
  };
  std::vector<State> states() const;

 private:
  struct Gate {
    VersionedSpec spec;
    bool enabled;
  };
  std::string emulation_version_;  // "1.31", for the PreAlpha error
  std::map<std::string, Gate, std::less<>> gates_;
  // The gates set by name so far: AllAlpha/AllBeta leave them as set.
  std::set<std::string, std::less<>> explicit_;
};

}  // namespace kcm::featuregate
