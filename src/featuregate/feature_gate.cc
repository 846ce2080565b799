#include "featuregate/feature_gate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <utility>

#include "api/go_strings.h"
#include "api/strconv.h"
#include "log/log.h"

namespace kcm::featuregate {
namespace {

constexpr std::string_view kAllAlpha = "AllAlpha";
constexpr std::string_view kAllBeta = "AllBeta";

// utilerrors.NewAggregate(errs).Error().
std::string aggregate(const std::vector<std::string>& errors) {
  if (errors.size() == 1) return errors.front();
  std::string out = "[";
  for (std::size_t i = 0; i < errors.size(); ++i)
    out += (i ? ", " : "") + errors[i];
  return out + "]";
}

const char* go_bool(bool b) {
  return b ? "true" : "false";
}

}  // namespace

std::string_view stage_name(Stage stage) {
  switch (stage) {
    case Stage::kPreAlpha:
      return "PRE-ALPHA";
    case Stage::kAlpha:
      return "ALPHA";
    case Stage::kBeta:
      return "BETA";
    case Stage::kGA:
      return "";
    case Stage::kDeprecated:
      return "DEPRECATED";
  }
  return "";
}

std::string to_string(MajorMinor version) {
  return fmt::format("{}.{}", version.major, version.minor);
}

FeatureGate::FeatureGate(const std::vector<Feature>& features, int minor)
    : FeatureGate(features, minor, MajorMinor{1, static_cast<unsigned long>(std::max(minor, 0))}) {}

FeatureGate::FeatureGate(const std::vector<Feature>& features, int binary_minor,
                         MajorMinor emulated)
    : emulation_version_(to_string(emulated)) {
  gates_.emplace(kAllAlpha, Gate{{0, false, Stage::kAlpha, false}, false});
  gates_.emplace(kAllBeta, Gate{{0, false, Stage::kBeta, false}, false});
  for (const Feature& f : features) {
    // The binary knows the gate only from the version that introduced it on.
    if (f.history.empty() || f.history.front().minor > binary_minor) continue;
    const VersionedSpec* at = nullptr;
    for (const VersionedSpec& spec : f.history) {
      if (spec.minor > binary_minor) break;
      if (MajorMinor{1, static_cast<unsigned long>(spec.minor)} <= emulated) at = &spec;
    }
    const VersionedSpec spec = at != nullptr ? *at : VersionedSpec{0, false, Stage::kPreAlpha};
    gates_.insert_or_assign(f.name, Gate{spec, spec.default_value});
  }
}

Result<std::vector<std::string>> FeatureGate::set(std::string_view value) {
  // The pairs in the order given; a name given twice keeps its last value.
  std::vector<std::pair<std::string, bool>> pairs;
  for (const std::string_view item : api::split(value, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    const std::string_view key = api::trim_space(item.substr(0, eq));
    if (eq == std::string_view::npos) return fail(fmt::format("missing bool value for {}", key));
    const std::string_view text = api::trim_space(item.substr(eq + 1));
    auto b = api::parse_go_bool(text);
    if (!b) return fail(fmt::format("invalid value of {}={}, err: {}", key, text, b.error()));
    auto same =
        std::find_if(pairs.begin(), pairs.end(), [&](const auto& p) { return p.first == key; });
    if (same != pairs.end()) {
      same->second = *b;
    } else {
      pairs.emplace_back(std::string(key), *b);
    }
  }

  auto next = gates_;
  auto explicit_names = explicit_;
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  std::vector<std::pair<Stage, bool>> all_stage;  // AllAlpha / AllBeta given
  for (const auto& [name, on] : pairs) {
    auto it = next.find(name);
    if (it == next.end()) {
      errors.push_back(fmt::format("unrecognized feature gate: {}", name));
      return fail(aggregate(errors));
    }
    Gate& gate = it->second;
    if (gate.spec.lock_to_default && gate.spec.default_value != on) {
      errors.push_back(fmt::format("cannot set feature gate {} to {}, feature is locked to {}",
                                   name, go_bool(on), go_bool(gate.spec.default_value)));
      continue;
    }
    if (name == kAllAlpha || name == kAllBeta) {
      gate.enabled = on;
      all_stage.emplace_back(name == kAllAlpha ? Stage::kAlpha : Stage::kBeta, on);
      continue;
    }
    if (gate.spec.stage == Stage::kPreAlpha) {
      errors.push_back(fmt::format(
          "cannot set feature gate {} to {}, feature is PreAlpha at emulated version {}", name,
          go_bool(on), emulation_version_));
      continue;
    }
    gate.enabled = on;
    explicit_names.insert(name);
    if (gate.spec.stage == Stage::kDeprecated) {
      warnings.push_back(fmt::format(
          "Setting deprecated feature gate {}={}. It will be removed in a future release.", name,
          go_bool(on)));
    } else if (gate.spec.stage == Stage::kGA) {
      warnings.push_back(
          fmt::format("Setting GA feature gate {}={}. It will be removed in a future release.",
                      name, go_bool(on)));
    }
  }
  if (!errors.empty()) return fail(aggregate(errors));
  // AllAlpha and AllBeta set every gate of their stage that was not named.
  for (const auto& [stage, on] : all_stage) {
    for (auto& [name, gate] : next) {
      if (name == kAllAlpha || name == kAllBeta || gate.spec.stage != stage) continue;
      if (!explicit_names.contains(name)) gate.enabled = on;
    }
  }
  gates_ = std::move(next);
  explicit_ = std::move(explicit_names);
  return warnings;
}

bool FeatureGate::known(std::string_view name) const {
  return gates_.contains(name);
}

bool FeatureGate::enabled(std::string_view name) const {
  auto it = gates_.find(name);
  if (it == gates_.end()) {
    log::error(fmt::format("feature {:?} is not registered in FeatureGate", name));
    std::abort();
  }
  return it->second.enabled;
}

std::vector<std::string> FeatureGate::known_features() const {
  std::vector<std::string> out;
  for (const auto& [name, gate] : gates_) {
    const Stage stage = gate.spec.stage;
    if (stage == Stage::kGA || stage == Stage::kDeprecated || stage == Stage::kPreAlpha) continue;
    out.push_back(fmt::format("{}=true|false ({} - default={})", name, stage_name(stage),
                              go_bool(gate.spec.default_value)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<FeatureGate::State> FeatureGate::states() const {
  std::vector<State> out;
  for (const auto& [name, gate] : gates_) {
    if (gate.spec.stage != Stage::kPreAlpha) out.push_back({name, gate.spec.stage, gate.enabled});
  }
  return out;
}

}  // namespace kcm::featuregate
