// The parallel calls of a controller's batches (pod creations and deletions),
// run on threads kept for the controller's lifetime. Upstream starts one
// goroutine per call; a thread per call pays, every batch, for creating the
// thread, setting up its thread-local state (allocator cache, OpenSSL error
// queue) and tearing it down again, which showed up in profiles of the
// Deployment benchmark.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kcm::controller {

class ParallelCalls {
 public:
  // At most `parallelism` calls of one run() at once, the caller's thread
  // being one of them; 1 or less runs every call on the caller's thread.
  explicit ParallelCalls(int parallelism);
  ~ParallelCalls();  // joins the threads (no run() may be in progress)
  ParallelCalls(const ParallelCalls&) = delete;
  ParallelCalls& operator=(const ParallelCalls&) = delete;

  // Calls fn(i) for every i in [0, n) and returns once all have returned.
  // Thread-safe: concurrent runs share the threads, the oldest first.
  void run(std::size_t n, const std::function<void(std::size_t)>& fn);

 private:
  struct Job;
  void start_threads_locked();
  void work_on(Job& job);
  void helper_loop();

  const int parallelism_;
  std::mutex mu_;
  std::condition_variable work_;           // a job has calls no one took yet, or stop
  std::condition_variable done_;           // a job's last call returned
  std::deque<std::shared_ptr<Job>> jobs_;  // jobs with calls no one took yet
  std::vector<std::thread> threads_;       // started at the first parallel run
  bool stop_ = false;
};

}  // namespace kcm::controller
