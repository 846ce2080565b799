// One handler's queue and thread inside a shared informer (upstream
// processorListener): an unbounded buffer, so a slow handler never blocks
// the informer or the other handlers. A kInline handler has neither: add()
// calls it. Internal to shared_informer.cc.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <variant>

#include "cache/event_handler.h"

namespace kcm::cache {

struct AddNotification {
  ObjectPtr obj;
  bool is_in_initial_list;
};
struct UpdateNotification {
  ObjectPtr old_obj;
  ObjectPtr new_obj;
};
struct DeleteNotification {
  DeletedObject obj;
};
using Notification = std::variant<AddNotification, UpdateNotification, DeleteNotification>;

class ProcessorListener : public ResourceEventHandlerRegistration {
 public:
  using Clock = std::chrono::steady_clock;

  ProcessorListener(std::shared_ptr<ResourceEventHandler> handler,
                    std::chrono::milliseconds requested_resync, std::chrono::milliseconds resync,
                    std::function<bool()> upstream_synced);
  ~ProcessorListener() override;

  // Drops what the handler has no interest in (HandlerInterest).
  void add(Notification n);
  void start();
  // Stops the thread; notifications not yet handled are dropped. An inline
  // handler is not called after stop().
  void stop();

  bool has_synced() const override;

  // Resync bookkeeping, under the processor's lock.
  bool should_resync(Clock::time_point now) const;
  void determine_next_resync(Clock::time_point now);
  void set_resync_period(std::chrono::milliseconds p);
  std::chrono::milliseconds requested_resync_period() const { return requested_resync_; }
  std::chrono::milliseconds resync_period() const;
  bool syncing = false;  // due for the resync in progress

 private:
  void run();
  void deliver(const Notification& n);

  const std::shared_ptr<ResourceEventHandler> handler_;
  const HandlerInterest interest_;
  const bool inline_ = false;
  const std::chrono::milliseconds requested_resync_;
  const std::function<bool()> upstream_synced_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Notification> pending_;
  std::size_t initial_pending_ = 0;  // initial-list adds not yet handled
  bool stopping_ = false;
  std::chrono::milliseconds resync_;
  Clock::time_point next_resync_{};
  std::thread thread_;
};

}  // namespace kcm::cache
