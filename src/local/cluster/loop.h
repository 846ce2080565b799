// The one thread the simulated cluster runs on: the scheduler and the
// kubelets are plain objects touched only from here, so they need no locks.
// Everything that arrives from elsewhere (watch events, write completions)
// is posted in; delays are timers on the same thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <thread>

namespace kcm::local::cluster {

class Loop {
 public:
  Loop();
  ~Loop();  // stops and joins
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  void start();
  // Stops the thread; work posted afterwards is dropped (never run).
  void stop();

  // Thread-safe.
  void post(std::function<void()> fn);

  // A pending call: cancelled when the Timer is destroyed, replaced or cancel()ed.
  class Timer {
   public:
    Timer() = default;
    ~Timer() { cancel(); }
    Timer(Timer&&) = default;
    Timer& operator=(Timer&& other) noexcept {
      if (this != &other) {
        cancel();
        state_ = std::move(other.state_);
      }
      return *this;
    }
    void cancel();
    // Set and neither fired nor cancelled.
    bool armed() const;

   private:
    friend class Loop;
    struct State;
    std::shared_ptr<State> state_;
  };
  // Runs `fn` on the loop after `delay` (loop thread only).
  [[nodiscard]] Timer after(std::chrono::nanoseconds delay, std::function<void()> fn);

 private:
  boost::asio::io_context ioc_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> work_;
  std::thread thread_;
};

}  // namespace kcm::local::cluster
