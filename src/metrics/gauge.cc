#include "metrics/gauge.h"

#include "metrics/atomic_double.h"

namespace kcm::metrics {

void Gauge::add(double delta) {
  atomic_add(value_, delta);
}

GaugeVec::GaugeVec(Desc desc)
    : MetricVec(std::move(desc), [] { return std::make_shared<Gauge>(); }) {}

Result<std::shared_ptr<GaugeVec>> GaugeVec::create(const Opts& opts,
                                                   std::vector<std::string> label_names) {
  auto desc = make_desc(opts, std::move(label_names));
  if (!desc) return fail(std::move(desc).error());
  return std::shared_ptr<GaugeVec>(new GaugeVec(std::move(*desc)));  // private constructor
}

FamilySnapshot GaugeVec::collect() const {
  return {desc_.name,
          desc_.help,
          MetricType::kGauge,
          {},
          snapshot_children([](MetricSnapshot& m, const Gauge& g) { m.value = g.value(); })};
}

}  // namespace kcm::metrics
