// What describes a metric family: its name parts, help text and stability
// level (component-base's Opts, which the controller-manager's metrics use).
#pragma once

#include <string>

namespace kcm::metrics {

// component-base stability levels. HELP text carries the level as a prefix
// ("[ALPHA] Current depth of workqueue"), as Kubernetes components print it;
// kNone leaves the text alone (plain Prometheus collectors).
enum class StabilityLevel { kNone, kInternal, kAlpha, kBeta, kStable };

struct Opts {
  std::string ns;  // Prometheus "namespace", the first name part (optional)
  std::string subsystem;
  std::string name;
  std::string help;
  // component-base treats an unset level as ALPHA.
  StabilityLevel stability = StabilityLevel::kAlpha;
};

// ns_subsystem_name, skipping empty parts (Go's prometheus.BuildFQName).
std::string fq_name(const Opts& opts);

// The HELP text with its stability prefix.
std::string annotated_help(const Opts& opts);

}  // namespace kcm::metrics
