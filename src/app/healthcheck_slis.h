// component-base's SLI metrics (metrics/prometheus/slis), which
// kube-controller-manager serves on /metrics/slis from a registry of their own:
//   kubernetes_healthcheck{name,type}               gauge, 1 if the check passed when last
//                                                   run, else 0
//   kubernetes_healthchecks_total{name,type,status} counter, status "success" or "error"
// `type` is the endpoint that ran the check ("healthz"). Both are STABLE.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "api/result.h"
#include "metrics/counter.h"
#include "metrics/gauge.h"
#include "metrics/registry.h"

namespace kcm::app {

class HealthcheckSlis {
 public:
  // With a registry of its own holding both families.
  static Result<std::shared_ptr<HealthcheckSlis>> create();

  // slis.ObserveHealthcheck.
  void observe(std::string_view name, std::string_view type, bool success);
  // The registry's Reset (DELETE /metrics/slis): every series dropped.
  void reset();

  std::shared_ptr<const metrics::Registry> registry() const { return registry_; }

 private:
  struct Key {};  // only create() constructs

 public:
  HealthcheckSlis(Key, std::shared_ptr<metrics::Registry> registry,
                  std::shared_ptr<metrics::GaugeVec> healthcheck,
                  std::shared_ptr<metrics::CounterVec> total)
      : registry_(std::move(registry)),
        healthcheck_(std::move(healthcheck)),
        total_(std::move(total)) {}

 private:
  const std::shared_ptr<metrics::Registry> registry_;
  const std::shared_ptr<metrics::GaugeVec> healthcheck_;
  const std::shared_ptr<metrics::CounterVec> total_;
};

}  // namespace kcm::app
