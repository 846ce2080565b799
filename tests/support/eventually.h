// Polling for tests that wait on another thread's (or process's) progress.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace kcm::test_support {

// Asks `condition` every `interval` until it holds or `timeout` passes; asks
// once more at the deadline, so a condition that came true during the last
// sleep still counts.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(20),
                       std::chrono::milliseconds interval = std::chrono::milliseconds(1)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(interval);
  }
  return condition();
}

}  // namespace kcm::test_support
