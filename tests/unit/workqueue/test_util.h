// Polling helper for tests that wait on another thread's progress.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace kcm::workqueue::testing {

// Polls pred every millisecond until it holds or timeout passes.
inline bool wait_for(const std::function<bool()>& pred,
                     std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return pred();
}

}  // namespace kcm::workqueue::testing
