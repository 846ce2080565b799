// component-base's feature gate metric, which every Kubernetes component
// exposes on /metrics (featuregate AddMetrics):
//   kubernetes_feature_enabled{name,stage} 1|0  (BETA)
#pragma once

#include "api/result.h"
#include "featuregate/feature_gate.h"
#include "metrics/registry.h"

namespace kcm::app {

// One series per gate `features` knows, AllAlpha and AllBeta included; the
// stage is "ALPHA", "BETA", "" (GA) or "DEPRECATED".
Result<void> register_feature_metrics(metrics::Registry& registry,
                                      const featuregate::FeatureGate& features);

}  // namespace kcm::app
