#include "cache/processor_listener.h"

#include <type_traits>

#include "log/thread_name.h"

namespace kcm::cache {

ProcessorListener::ProcessorListener(std::shared_ptr<ResourceEventHandler> handler,
                                     std::chrono::milliseconds requested_resync,
                                     std::chrono::milliseconds resync,
                                     std::function<bool()> upstream_synced)
    : handler_(std::move(handler)),
      interest_(handler_->interest()),
      inline_(handler_->delivery() == HandlerDelivery::kInline),
      requested_resync_(requested_resync),
      upstream_synced_(std::move(upstream_synced)),
      resync_(resync) {
  determine_next_resync(Clock::now());
}

ProcessorListener::~ProcessorListener() {
  stop();
}

void ProcessorListener::add(Notification n) {
  const bool wanted = std::visit(
      [this](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, AddNotification>) return interest_.add;
        if constexpr (std::is_same_v<T, UpdateNotification>) return interest_.update;
        if constexpr (std::is_same_v<T, DeleteNotification>) return interest_.remove;
      },
      n);
  if (!wanted) return;
  if (inline_) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
    }
    deliver(n);
    return;
  }
  {
    std::lock_guard lock(mu_);
    if (auto* a = std::get_if<AddNotification>(&n); a != nullptr && a->is_in_initial_list) {
      ++initial_pending_;
    }
    pending_.push_back(std::move(n));
  }
  // After the unlock, so that the woken thread does not block on the mutex.
  cv_.notify_one();
}

void ProcessorListener::start() {
  std::lock_guard lock(mu_);
  if (inline_ || thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] {
    log::set_thread_name("handlers");
    run();
  });
}

void ProcessorListener::stop() {
  std::thread t;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    cv_.notify_one();
    t = std::move(thread_);
  }
  if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
  if (t.joinable()) t.detach();  // a handler stopping its own informer
}

void ProcessorListener::run() {
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    if (stopping_) return;
    Notification n = std::move(pending_.front());
    pending_.pop_front();
    lock.unlock();
    deliver(n);
    lock.lock();
    if (auto* a = std::get_if<AddNotification>(&n); a != nullptr && a->is_in_initial_list) {
      --initial_pending_;
    }
  }
}

void ProcessorListener::deliver(const Notification& n) {
  if (auto* a = std::get_if<AddNotification>(&n)) {
    handler_->on_add(a->obj, a->is_in_initial_list);
  } else if (auto* u = std::get_if<UpdateNotification>(&n)) {
    handler_->on_update(u->old_obj, u->new_obj);
  } else {
    handler_->on_delete(std::get<DeleteNotification>(n).obj);
  }
}

bool ProcessorListener::has_synced() const {
  if (!upstream_synced_()) return false;
  std::lock_guard lock(mu_);
  return initial_pending_ == 0;
}

bool ProcessorListener::should_resync(Clock::time_point now) const {
  std::lock_guard lock(mu_);
  if (resync_.count() == 0) return false;
  return now >= next_resync_;
}

void ProcessorListener::determine_next_resync(Clock::time_point now) {
  std::lock_guard lock(mu_);
  if (resync_.count() != 0) next_resync_ = now + resync_;
}

void ProcessorListener::set_resync_period(std::chrono::milliseconds p) {
  std::lock_guard lock(mu_);
  resync_ = p;
}

std::chrono::milliseconds ProcessorListener::resync_period() const {
  std::lock_guard lock(mu_);
  return resync_;
}

}  // namespace kcm::cache
