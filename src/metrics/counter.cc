#include "metrics/counter.h"

#include "metrics/atomic_double.h"

namespace kcm::metrics {

void Counter::add(double delta) {
  if (!(delta >= 0)) return;
  atomic_add(value_, delta);
}

CounterVec::CounterVec(Desc desc)
    : MetricVec(std::move(desc), [] { return std::make_shared<Counter>(); }) {}

Result<std::shared_ptr<CounterVec>> CounterVec::create(const Opts& opts,
                                                       std::vector<std::string> label_names) {
  auto desc = make_desc(opts, std::move(label_names));
  if (!desc) return fail(std::move(desc).error());
  return std::shared_ptr<CounterVec>(new CounterVec(std::move(*desc)));  // private constructor
}

FamilySnapshot CounterVec::collect() const {
  return {desc_.name,
          desc_.help,
          MetricType::kCounter,
          {},
          snapshot_children([](MetricSnapshot& m, const Counter& c) { m.value = c.value(); })};
}

}  // namespace kcm::metrics
