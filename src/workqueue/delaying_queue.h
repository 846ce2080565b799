// A queue that can add an item after a delay (client-go's delaying queue).
// Waiting items sit in a time-ordered set served by one waiter thread; adding
// an item that is already waiting keeps the earlier ready time.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "log/thread_name.h"
#include "workqueue/queue.h"

namespace kcm::workqueue {

template <class T>
class DelayingQueue : public Queue<T> {
 public:
  explicit DelayingQueue(QueueConfig config = {});
  ~DelayingQueue() override;

  // Adds item once duration has passed (at once when duration <= 0). Ignored
  // while shutting down; counts a retry either way.
  void add_after(const T& item, Duration duration);

  void shut_down() override;
  void shut_down_with_drain() override;

  // Items waiting for their time (diagnostics and tests).
  std::size_t waiting_len() const;
  // When a waiting item becomes ready; nullopt if it is not waiting.
  std::optional<TimePoint> ready_at(const T& item) const;

  // The waiter also wakes at least this often (upstream's heartbeat).
  static constexpr Duration kMaxWait = std::chrono::seconds(10);

 private:
  using Waiting = std::multimap<TimePoint, T>;

  void stop_waiting();
  void waiting_loop();

  std::unique_ptr<CounterMetric> retries_;
  mutable std::mutex wait_mu_;
  std::condition_variable wait_cond_;
  bool stopped_ = false;
  Waiting waiting_;
  std::unordered_map<T, typename Waiting::iterator> waiting_by_item_;
  ClockSubscription wake_;
  std::thread waiter_;
};

template <class T>
DelayingQueue<T>::DelayingQueue(QueueConfig config) : Queue<T>(std::move(config)) {
  if (!this->name().empty() && this->provider()) {
    retries_ = this->provider()->new_retries_metric(this->name());
  }
  wake_ = this->clock()->subscribe([this] {
    std::lock_guard lock(wait_mu_);
    wait_cond_.notify_all();
  });
  waiter_ = std::thread([this] {
    log::set_thread_name("queue-delay");
    waiting_loop();
  });
}

template <class T>
DelayingQueue<T>::~DelayingQueue() {
  wake_.reset();
  stop_waiting();
  if (waiter_.joinable()) waiter_.join();
}

template <class T>
void DelayingQueue<T>::add_after(const T& item, Duration duration) {
  if (this->shutting_down()) return;
  if (retries_) retries_->inc();
  if (duration <= Duration::zero()) {
    this->add(item);
    return;
  }
  const TimePoint ready = saturating_add(this->clock()->now(), duration);
  {
    std::lock_guard lock(wait_mu_);
    if (stopped_) return;
    if (const auto it = waiting_by_item_.find(item); it != waiting_by_item_.end()) {
      if (ready >= it->second->first) return;  // the earlier time wins
      waiting_.erase(it->second);
      it->second = waiting_.emplace(ready, item);
    } else {
      waiting_by_item_.emplace(item, waiting_.emplace(ready, item));
    }
  }
  wait_cond_.notify_one();
}

template <class T>
void DelayingQueue<T>::stop_waiting() {
  {
    std::lock_guard lock(wait_mu_);
    stopped_ = true;
  }
  wait_cond_.notify_all();
}

template <class T>
void DelayingQueue<T>::shut_down() {
  Queue<T>::shut_down();
  stop_waiting();
}

template <class T>
void DelayingQueue<T>::shut_down_with_drain() {
  stop_waiting();
  Queue<T>::shut_down_with_drain();
}

template <class T>
std::size_t DelayingQueue<T>::waiting_len() const {
  std::lock_guard lock(wait_mu_);
  return waiting_.size();
}

template <class T>
std::optional<TimePoint> DelayingQueue<T>::ready_at(const T& item) const {
  std::lock_guard lock(wait_mu_);
  const auto it = waiting_by_item_.find(item);
  if (it == waiting_by_item_.end()) return std::nullopt;
  return it->second->first;
}

template <class T>
void DelayingQueue<T>::waiting_loop() {
  std::unique_lock lock(wait_mu_);
  std::vector<T> ready;
  while (!stopped_) {
    const TimePoint now = this->clock()->now();
    while (!waiting_.empty() && waiting_.begin()->first <= now) {
      const auto first = waiting_.begin();
      waiting_by_item_.erase(first->second);
      ready.push_back(std::move(first->second));
      waiting_.erase(first);
    }
    if (!ready.empty()) {
      // Add outside our lock, earliest first.
      lock.unlock();
      for (const T& item : ready)
        this->add(item);
      ready.clear();
      lock.lock();
      continue;
    }
    TimePoint deadline = saturating_add(now, kMaxWait);
    if (!waiting_.empty()) deadline = std::min(deadline, waiting_.begin()->first);
    this->clock()->wait_until(lock, wait_cond_, deadline);
  }
}

extern template class DelayingQueue<std::string>;

}  // namespace kcm::workqueue
