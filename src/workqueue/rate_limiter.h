// How long an item should wait before it is retried (client-go's RateLimiter).
#pragma once

#include "workqueue/clock.h"

namespace kcm::workqueue {

template <class T>
class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // The delay for this retry of item (and counts the retry where tracked).
  virtual Duration when(const T& item) = 0;
  // Stops tracking item, whether it finally succeeded or was given up.
  virtual void forget(const T& item) = 0;
  // How many failures item has had.
  virtual int num_requeues(const T& item) = 0;
};

}  // namespace kcm::workqueue
