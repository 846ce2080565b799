#include "app/leader_metrics.h"

#include <string>
#include <utility>

namespace kcm::app {

Result<std::shared_ptr<LeaderElectionMetrics>> LeaderElectionMetrics::create(
    metrics::Registry& registry) {
  metrics::Opts gauge_opts;
  gauge_opts.name = "leader_election_master_status";
  gauge_opts.help =
      "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 "
      "indicates master. 'name' is the string used to identify the lease. Please make sure to "
      "group by name.";
  auto gauge = metrics::GaugeVec::create(gauge_opts, {"name"});
  if (!gauge) return fail(gauge.error());

  metrics::Opts counter_opts;
  counter_opts.name = "leader_election_slowpath_total";
  counter_opts.help =
      "Total number of slow path exercised in renewing leader leases. 'name' is the string used "
      "to identify the lease. Please make sure to group by name.";
  auto counter = metrics::CounterVec::create(counter_opts, {"name"});
  if (!counter) return fail(counter.error());

  if (auto r = registry.register_collector(*gauge); !r) return fail(r.error());
  if (auto r = registry.register_collector(*counter); !r) {
    registry.unregister(gauge_opts.name);
    return fail(r.error());
  }
  return std::make_shared<LeaderElectionMetrics>(Key{}, std::move(*gauge), std::move(*counter));
}

void LeaderElectionMetrics::leader_on(std::string_view name) {
  if (auto g = master_status_->with_label_values({std::string(name)})) (*g)->set(1);
}

void LeaderElectionMetrics::leader_off(std::string_view name) {
  if (auto g = master_status_->with_label_values({std::string(name)})) (*g)->set(0);
}

void LeaderElectionMetrics::slowpath_exercised(std::string_view name) {
  if (auto c = slowpath_->with_label_values({std::string(name)})) (*c)->inc();
}

}  // namespace kcm::app
