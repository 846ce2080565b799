#include "workqueue/rate_limiters.h"

namespace kcm::workqueue {

template class ItemExponentialFailureRateLimiter<std::string>;
template class ItemFastSlowRateLimiter<std::string>;
template class BucketRateLimiter<std::string>;
template class MaxOfRateLimiter<std::string>;
template class WithMaxWaitRateLimiter<std::string>;

}  // namespace kcm::workqueue
