#include "app/controller_manager_metrics.h"

namespace kcm::app {

Result<std::shared_ptr<ControllerManagerMetrics>> ControllerManagerMetrics::create(
    metrics::Registry& registry, std::string manager) {
  metrics::Opts opts;
  opts.name = "running_managed_controllers";
  opts.help = "Indicates where instances of a controller are currently running";
  opts.stability = metrics::StabilityLevel::kBeta;
  auto gauge = metrics::GaugeVec::create(opts, {"name", "manager"});
  if (!gauge) return fail(gauge.error());
  if (auto ok = registry.register_collector(*gauge); !ok) return fail(ok.error());
  return std::make_shared<ControllerManagerMetrics>(Key{}, std::move(*gauge), std::move(manager));
}

void ControllerManagerMetrics::controller_started(std::string_view name) {
  set(name, 1);
}

void ControllerManagerMetrics::controller_stopped(std::string_view name) {
  set(name, 0);
}

void ControllerManagerMetrics::set(std::string_view name, double value) {
  if (auto g = running_->with_label_values({std::string(name), manager_})) (*g)->set(value);
}

}  // namespace kcm::app
