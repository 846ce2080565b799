// The basic work queue (client-go's workqueue.Typed): a FIFO of items with a
// dirty set (needs processing) and a processing set (handed to a worker).
// An item is in the FIFO at most once and is never handed to two workers at
// once; adding it while it is processed re-queues it once, when done() is
// called. T needs std::hash<T> and ==; controllers use std::string keys.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>

#include "log/thread_name.h"
#include "workqueue/clock.h"
#include "workqueue/metrics_provider.h"
#include "workqueue/queue_metrics.h"

namespace kcm::workqueue {

struct QueueConfig {
  // Metrics are kept only for a named queue (label name=<name>).
  std::string name;
  // Null: the global provider (set_metrics_provider); none set means no metrics.
  std::shared_ptr<MetricsProvider> metrics_provider;
  // Null: the real clock.
  std::shared_ptr<Clock> clock;
  // How often the unfinished-work gauges are refreshed.
  Duration unfinished_work_update_period = std::chrono::milliseconds(500);
};

template <class T>
class Queue {
 public:
  explicit Queue(QueueConfig config = {});
  virtual ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  // Marks item as needing processing. Ignored while shutting down.
  void add(const T& item);
  // Items waiting in the FIFO (informational only).
  std::size_t len() const;
  // Blocks until an item is available; nullopt once the queue is shut down
  // and empty (items queued before shutdown are still handed out). Call
  // done(item) when finished with it.
  std::optional<T> get();
  // Marks item as processed; re-queues it if it was added meanwhile.
  void done(const T& item);
  // Drops later adds and wakes every get(); workers exit once the FIFO is empty.
  virtual void shut_down();
  // As shut_down, then blocks until every handed-out item is done(). Calling
  // shut_down() meanwhile ends the wait.
  virtual void shut_down_with_drain();
  bool shutting_down() const;

 protected:
  const std::shared_ptr<Clock>& clock() const { return clock_; }
  const std::string& name() const { return name_; }
  const std::shared_ptr<MetricsProvider>& provider() const { return provider_; }

 private:
  void update_unfinished_work_loop(TimePoint next);

  const std::string name_;
  const std::shared_ptr<MetricsProvider> provider_;
  const std::shared_ptr<Clock> clock_;
  const Duration update_period_;

  mutable std::mutex mu_;
  std::condition_variable cond_;        // get() waiters
  std::condition_variable drain_cond_;  // shut_down_with_drain() waiters
  std::condition_variable tick_cond_;   // the metrics loop
  std::deque<T> queue_;
  std::unordered_set<T> dirty_;
  std::unordered_set<T> processing_;
  bool shutting_down_ = false;
  bool drain_ = false;
  bool stop_ticking_ = false;
  QueueMetrics<T> metrics_;

  ClockSubscription tick_wake_;
  std::thread tick_thread_;
};

namespace detail {
std::shared_ptr<MetricsProvider> effective_provider(const QueueConfig& config);
}

template <class T>
Queue<T>::Queue(QueueConfig config)
    : name_(std::move(config.name)),
      provider_(detail::effective_provider(config)),
      clock_(config.clock ? std::move(config.clock) : real_clock()),
      update_period_(config.unfinished_work_update_period > Duration::zero()
                         ? config.unfinished_work_update_period
                         : std::chrono::milliseconds(500)) {
  if (!name_.empty() && provider_) {
    metrics_ = QueueMetrics<T>(*provider_, name_, clock_);
    // Only a queue with metrics needs the refresh loop (as upstream).
    tick_wake_ = clock_->subscribe([this] {
      std::lock_guard lock(mu_);
      tick_cond_.notify_all();
    });
    // The first deadline is fixed here, not on the thread, so time that moves
    // before the thread runs still counts.
    const TimePoint first = saturating_add(clock_->now(), update_period_);
    tick_thread_ = std::thread([this, first] {
      log::set_thread_name("queue-metrics");
      update_unfinished_work_loop(first);
    });
  }
}

template <class T>
Queue<T>::~Queue() {
  tick_wake_.reset();
  {
    std::lock_guard lock(mu_);
    stop_ticking_ = true;
  }
  tick_cond_.notify_all();
  if (tick_thread_.joinable()) tick_thread_.join();
}

template <class T>
void Queue<T>::add(const T& item) {
  {
    std::lock_guard lock(mu_);
    if (shutting_down_) return;
    if (dirty_.contains(item)) return;  // already waiting (or re-queued by done)
    metrics_.add(item);
    dirty_.insert(item);
    if (processing_.contains(item)) return;  // done() re-queues it
    queue_.push_back(item);
  }
  cond_.notify_one();
}

template <class T>
std::size_t Queue<T>::len() const {
  std::lock_guard lock(mu_);
  return queue_.size();
}

template <class T>
std::optional<T> Queue<T>::get() {
  std::unique_lock lock(mu_);
  cond_.wait(lock, [this] { return !queue_.empty() || shutting_down_; });
  if (queue_.empty()) return std::nullopt;  // shutting down
  T item = std::move(queue_.front());
  queue_.pop_front();
  metrics_.get(item);
  processing_.insert(item);
  dirty_.erase(item);
  return item;
}

template <class T>
void Queue<T>::done(const T& item) {
  bool requeued = false;
  bool idle = false;
  {
    std::lock_guard lock(mu_);
    metrics_.done(item);
    processing_.erase(item);
    if (dirty_.contains(item)) {
      queue_.push_back(item);
      requeued = true;
    } else {
      idle = processing_.empty();
    }
  }
  if (requeued) cond_.notify_one();
  // A drain waits for an empty processing set; a re-queued item empties it
  // as well, so wake the drain in both cases.
  if (requeued || idle) drain_cond_.notify_all();
}

template <class T>
void Queue<T>::shut_down() {
  {
    std::lock_guard lock(mu_);
    drain_ = false;
    shutting_down_ = true;
  }
  cond_.notify_all();
  drain_cond_.notify_all();
  tick_cond_.notify_all();
}

template <class T>
void Queue<T>::shut_down_with_drain() {
  std::unique_lock lock(mu_);
  drain_ = true;
  shutting_down_ = true;
  cond_.notify_all();
  tick_cond_.notify_all();
  drain_cond_.wait(lock, [this] { return processing_.empty() || !drain_; });
}

template <class T>
bool Queue<T>::shutting_down() const {
  std::lock_guard lock(mu_);
  return shutting_down_;
}

template <class T>
void Queue<T>::update_unfinished_work_loop(TimePoint next) {
  std::unique_lock lock(mu_);
  while (!stop_ticking_ && !shutting_down_) {
    clock_->wait_until(lock, tick_cond_, next);
    if (stop_ticking_ || shutting_down_) break;
    const TimePoint now = clock_->now();
    if (now < next) continue;
    metrics_.update_unfinished_work();
    // Like a Go ticker, ticks missed while time jumped are dropped.
    while (next <= now)
      next = saturating_add(next, update_period_);
  }
}

extern template class Queue<std::string>;

}  // namespace kcm::workqueue
