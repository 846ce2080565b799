#include "metrics/registry.h"

#include "metrics/text_format.h"

namespace kcm::metrics {

Result<void> Registry::register_collector(std::shared_ptr<const Collector> collector) {
  if (!collector) return fail("cannot register a null collector");
  std::lock_guard lock(mu_);
  std::string name(collector->name());
  if (collectors_.contains(name)) return fail("duplicate metrics collector registration attempted");
  collectors_.emplace(std::move(name), std::move(collector));
  return {};
}

bool Registry::unregister(std::string_view name) {
  std::lock_guard lock(mu_);
  const auto it = collectors_.find(name);
  if (it == collectors_.end()) return false;
  collectors_.erase(it);
  return true;
}

std::vector<FamilySnapshot> Registry::gather() const {
  std::vector<std::shared_ptr<const Collector>> collectors;
  {
    std::lock_guard lock(mu_);
    for (const auto& [name, c] : collectors_)
      collectors.push_back(c);
  }
  // Collect outside the lock: collectors take their own locks.
  std::vector<FamilySnapshot> out;
  out.reserve(collectors.size());
  for (const auto& c : collectors)
    out.push_back(c->collect());
  return out;
}

std::string Registry::render_text() const {
  return metrics::render_text(gather());
}

}  // namespace kcm::metrics
