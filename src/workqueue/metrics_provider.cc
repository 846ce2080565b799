#include "workqueue/metrics_provider.h"

#include <mutex>

namespace kcm::workqueue {
namespace {

std::mutex& provider_mu() {
  static std::mutex mu;
  return mu;
}
std::shared_ptr<MetricsProvider>& provider_slot() {
  static std::shared_ptr<MetricsProvider> provider;
  return provider;
}
bool& provider_set() {
  static bool set = false;
  return set;
}

}  // namespace

bool set_metrics_provider(std::shared_ptr<MetricsProvider> provider) {
  std::lock_guard lock(provider_mu());
  if (provider_set()) return false;
  provider_set() = true;
  provider_slot() = std::move(provider);
  return true;
}

std::shared_ptr<MetricsProvider> global_metrics_provider() {
  std::lock_guard lock(provider_mu());
  return provider_slot();
}

}  // namespace kcm::workqueue
