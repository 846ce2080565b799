// Lock-free add on an atomic double (a CAS loop; what Go's metrics do).
#pragma once

#include <atomic>

namespace kcm::metrics {

inline void atomic_add(std::atomic<double>& target, double delta) {
  double old = target.load(std::memory_order_relaxed);
  while (!target.compare_exchange_weak(old, old + delta, std::memory_order_relaxed)) {
  }
}

}  // namespace kcm::metrics
