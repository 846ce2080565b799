#include "local/cluster/loop.h"

#include <boost/asio/post.hpp>

namespace kcm::local::cluster {

Loop::Loop() : work_(boost::asio::make_work_guard(ioc_)) {}

Loop::~Loop() {
  stop();
}

void Loop::start() {
  thread_ = std::thread([this] { ioc_.run(); });
}

void Loop::stop() {
  work_.reset();
  ioc_.stop();
  if (thread_.joinable()) thread_.join();
}

void Loop::post(std::function<void()> fn) {
  boost::asio::post(ioc_, std::move(fn));
}

struct Loop::Timer::State {
  explicit State(boost::asio::io_context& ioc, std::chrono::nanoseconds delay)
      : timer(ioc, delay) {}
  boost::asio::steady_timer timer;
  // A handler already queued when cancel() runs still gets called: it checks this.
  bool cancelled = false;
  bool fired = false;
};

bool Loop::Timer::armed() const {
  return state_ && !state_->cancelled && !state_->fired;
}

void Loop::Timer::cancel() {
  if (state_) {
    state_->cancelled = true;
    state_->timer.cancel();
  }
  state_.reset();
}

Loop::Timer Loop::after(std::chrono::nanoseconds delay, std::function<void()> fn) {
  Timer t;
  t.state_ = std::make_shared<Timer::State>(ioc_, delay);
  t.state_->timer.async_wait(
      [state = t.state_, fn = std::move(fn)](const boost::system::error_code& ec) {
        if (ec || state->cancelled) return;
        state->fired = true;
        fn();
      });
  return t;
}

}  // namespace kcm::local::cluster
