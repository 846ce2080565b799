#include "app/healthcheck_slis.h"

#include <string>
#include <utility>

namespace kcm::app {

Result<std::shared_ptr<HealthcheckSlis>> HealthcheckSlis::create() {
  metrics::Opts gauge_opts;
  gauge_opts.ns = "kubernetes";
  gauge_opts.name = "healthcheck";
  gauge_opts.help = "This metric records the result of a single healthcheck.";
  gauge_opts.stability = metrics::StabilityLevel::kStable;
  auto gauge = metrics::GaugeVec::create(gauge_opts, {"name", "type"});
  if (!gauge) return fail(gauge.error());

  metrics::Opts counter_opts;
  counter_opts.ns = "kubernetes";
  counter_opts.name = "healthchecks_total";
  counter_opts.help = "This metric records the results of all healthcheck.";
  counter_opts.stability = metrics::StabilityLevel::kStable;
  auto counter = metrics::CounterVec::create(counter_opts, {"name", "type", "status"});
  if (!counter) return fail(counter.error());

  auto registry = std::make_shared<metrics::Registry>();
  if (auto r = registry->register_collector(*gauge); !r) return fail(r.error());
  if (auto r = registry->register_collector(*counter); !r) return fail(r.error());
  return std::make_shared<HealthcheckSlis>(Key{}, std::move(registry), std::move(*gauge),
                                           std::move(*counter));
}

void HealthcheckSlis::observe(std::string_view name, std::string_view type, bool success) {
  if (auto g = healthcheck_->with_label_values({std::string(name), std::string(type)})) {
    (*g)->set(success ? 1 : 0);
  }
  const std::string status = success ? "success" : "error";
  if (auto c = total_->with_label_values({std::string(name), std::string(type), status})) {
    (*c)->inc();
  }
}

void HealthcheckSlis::reset() {
  healthcheck_->reset();
  total_->reset();
}

}  // namespace kcm::app
