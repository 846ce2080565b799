#include "controller/parallel_calls.h"

#include <algorithm>

#include "log/thread_name.h"

namespace kcm::controller {

struct ParallelCalls::Job {
  const std::function<void(std::size_t)>* fn;
  std::size_t n;
  std::size_t next = 0;      // the next call no one took
  std::size_t returned = 0;  // calls that returned
  int helpers_left;          // pool threads that may still join this job
};

ParallelCalls::ParallelCalls(int parallelism) : parallelism_(std::max(parallelism, 1)) {}

ParallelCalls::~ParallelCalls() {
  {
    const std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_)
    t.join();
}

void ParallelCalls::start_threads_locked() {
  if (!threads_.empty()) return;
  threads_.reserve(static_cast<std::size_t>(parallelism_ - 1));
  for (int i = 1; i < parallelism_; ++i)
    threads_.emplace_back([this] {
      log::set_thread_name("parallel");
      helper_loop();
    });
}

void ParallelCalls::run(std::size_t n, const std::function<void(std::size_t)>& fn) {
  if (n <= 1 || parallelism_ <= 1) {
    for (std::size_t i = 0; i < n; ++i)
      fn(i);
    return;
  }
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->n = n;
  const int helpers = static_cast<int>(std::min<std::size_t>(n, parallelism_) - 1);
  job->helpers_left = helpers;
  {
    const std::lock_guard lock(mu_);
    start_threads_locked();
    jobs_.push_back(job);
  }
  // Wake as many helpers as may join, not all of them: a woken helper with
  // nothing to do costs a context switch. (A busy one checks for work before
  // it waits again, so no job is missed.)
  for (int i = 0; i < helpers; ++i)
    work_.notify_one();
  work_on(*job);
  std::unique_lock lock(mu_);
  done_.wait(lock, [&] { return job->returned == job->n; });
}

void ParallelCalls::work_on(Job& job) {
  std::unique_lock lock(mu_);
  while (job.next < job.n) {
    const std::size_t i = job.next++;
    if (job.next == job.n) std::erase_if(jobs_, [&](const auto& j) { return j.get() == &job; });
    lock.unlock();
    (*job.fn)(i);
    lock.lock();
    if (++job.returned == job.n) {
      // The last call: nothing is left to take. Woken after the unlock, the
      // caller does not block on the mutex this thread still holds.
      lock.unlock();
      done_.notify_all();
      return;
    }
  }
}

void ParallelCalls::helper_loop() {
  std::unique_lock lock(mu_);
  while (true) {
    std::shared_ptr<Job> job;  // kept alive while this thread works on it
    work_.wait(lock, [&] {
      if (stop_) return true;
      const auto it = std::find_if(jobs_.begin(), jobs_.end(),
                                   [](const auto& j) { return j->helpers_left > 0; });
      if (it != jobs_.end()) job = *it;
      return job != nullptr;
    });
    if (stop_) return;
    --job->helpers_left;
    lock.unlock();
    work_on(*job);
    lock.lock();
  }
}

}  // namespace kcm::controller
