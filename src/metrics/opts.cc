#include "metrics/opts.h"

namespace kcm::metrics {

std::string fq_name(const Opts& opts) {
  // BuildFQName gives nothing without a name, whatever the other parts are.
  if (opts.name.empty()) return "";
  std::string out;
  for (const std::string* part : {&opts.ns, &opts.subsystem, &opts.name}) {
    if (part->empty()) continue;
    if (!out.empty()) out += '_';
    out += *part;
  }
  return out;
}

std::string annotated_help(const Opts& opts) {
  switch (opts.stability) {
    case StabilityLevel::kNone:
      return opts.help;
    case StabilityLevel::kInternal:
      return "[INTERNAL] " + opts.help;
    case StabilityLevel::kAlpha:
      return "[ALPHA] " + opts.help;
    case StabilityLevel::kBeta:
      return "[BETA] " + opts.help;
    case StabilityLevel::kStable:
      return "[STABLE] " + opts.help;
  }
  return opts.help;
}

}  // namespace kcm::metrics
