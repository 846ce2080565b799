#include "workqueue/rate_limiting_queue.h"

namespace kcm::workqueue {

template class RateLimitingQueue<std::string>;

}  // namespace kcm::workqueue
