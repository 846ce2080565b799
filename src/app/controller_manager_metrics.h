// k8s.io/controller-manager's ControllerManagerMetrics (component-base
// metrics/prometheus/controllers): which controllers this manager runs.
//   running_managed_controllers{manager,name}  gauge, 1 while the controller
//   runs, 0 once it stopped (BETA)
// Set rather than incremented, so a controller that dies without saying so
// is never counted twice.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "api/result.h"
#include "metrics/gauge.h"
#include "metrics/registry.h"

namespace kcm::app {

inline constexpr std::string_view kControllerManagerName = "kube-controller-manager";

class ControllerManagerMetrics {
 public:
  // Registers the family on `registry`; errors if it is there already.
  // `manager` fills the manager label (upstream NewControllerManagerMetrics).
  static Result<std::shared_ptr<ControllerManagerMetrics>> create(
      metrics::Registry& registry, std::string manager = std::string(kControllerManagerName));

  void controller_started(std::string_view name);
  void controller_stopped(std::string_view name);

 private:
  struct Key {};  // only create() constructs

 public:
  ControllerManagerMetrics(Key, std::shared_ptr<metrics::GaugeVec> running, std::string manager)
      : running_(std::move(running)), manager_(std::move(manager)) {}

 private:
  void set(std::string_view name, double value);

  const std::shared_ptr<metrics::GaugeVec> running_;
  const std::string manager_;
};

}  // namespace kcm::app
