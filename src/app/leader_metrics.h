// component-base's leader-election metrics, which kube-controller-manager
// exposes on /metrics:
//   leader_election_master_status{name}  gauge, 1 while leading the lease `name`, else 0
//   leader_election_slowpath_total{name} counter, renewals that had to read the lease first
// The methods match leaderelection::LeaderMetrics (leader_on, leader_off,
// slowpath_exercised), so the app's wiring adapts one to the other in a line.
#pragma once

#include <memory>
#include <string_view>
#include <utility>

#include "api/result.h"
#include "metrics/counter.h"
#include "metrics/gauge.h"
#include "metrics/registry.h"

namespace kcm::app {

class LeaderElectionMetrics {
 public:
  // Registers both families on `registry`; errors if either is there already.
  static Result<std::shared_ptr<LeaderElectionMetrics>> create(metrics::Registry& registry);

  void leader_on(std::string_view name);
  void leader_off(std::string_view name);
  void slowpath_exercised(std::string_view name);

 private:
  struct Key {};  // only create() constructs

 public:
  LeaderElectionMetrics(Key, std::shared_ptr<metrics::GaugeVec> master_status,
                        std::shared_ptr<metrics::CounterVec> slowpath)
      : master_status_(std::move(master_status)), slowpath_(std::move(slowpath)) {}

 private:
  const std::shared_ptr<metrics::GaugeVec> master_status_;
  const std::shared_ptr<metrics::CounterVec> slowpath_;
};

}  // namespace kcm::app
