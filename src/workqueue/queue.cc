#include "workqueue/queue.h"

namespace kcm::workqueue {

namespace detail {
std::shared_ptr<MetricsProvider> effective_provider(const QueueConfig& config) {
  return config.metrics_provider ? config.metrics_provider : global_metrics_provider();
}
}  // namespace detail

template class Queue<std::string>;

}  // namespace kcm::workqueue
