// SIGINT and SIGTERM as a stop token (upstream's SetupSignalContext): the
// first signal requests stop so workers can drain; a second one exits at once
// with code 1.
//
// Construct it in main before any other thread starts: it blocks both signals
// in the calling thread (so every thread started later inherits the mask) and
// takes them only on its own thread, with sigtimedwait.
#pragma once

#include <csignal>
#include <stop_token>
#include <thread>

namespace kcm::signals {

class ShutdownSignals {
 public:
  ShutdownSignals();
  ~ShutdownSignals();
  ShutdownSignals(const ShutdownSignals&) = delete;
  ShutdownSignals& operator=(const ShutdownSignals&) = delete;

  std::stop_token token() const { return stop_.get_token(); }
  bool requested() const { return stop_.stop_requested(); }
  // Requests stop as a signal would (e.g. when the process decides to end).
  void request_stop() { stop_.request_stop(); }

 private:
  sigset_t signals_;
  std::stop_source stop_;
  std::jthread thread_;  // last: stopped and joined first
};

}  // namespace kcm::signals
