#include "app/feature_metrics.h"

#include <string>

#include "metrics/gauge.h"

namespace kcm::app {

Result<void> register_feature_metrics(metrics::Registry& registry,
                                      const featuregate::FeatureGate& features) {
  metrics::Opts opts;
  opts.name = "kubernetes_feature_enabled";
  opts.help = "This metric records the data about the stage and enablement of a k8s feature.";
  opts.stability = metrics::StabilityLevel::kBeta;
  auto gauge = metrics::GaugeVec::create(opts, {"name", "stage"});
  if (!gauge) return fail(gauge.error());
  for (const auto& state : features.states()) {
    auto series = (*gauge)->with_label_values(
        {state.name, std::string(featuregate::stage_name(state.stage))});
    if (!series) return fail(series.error());
    (*series)->set(state.enabled ? 1 : 0);
  }
  return registry.register_collector(*gauge);
}

}  // namespace kcm::app
