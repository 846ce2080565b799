#include "controller/run_workers.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "eventually.h"
#include "log/thread_name.h"

namespace kcm::controller {
namespace {

using std::chrono::milliseconds;
using test_support::eventually;

// A queue of `pending` anonymous items: process_next blocks while it is empty
// and returns false once it is shut down and drained, as a workqueue's get().
struct CountingWorkQueue {
  std::mutex mu;
  std::condition_variable cv;
  int pending = 0;
  int processed = 0;
  int shut_downs = 0;

  bool process_next() {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return pending > 0 || shut_downs > 0; });
    if (pending == 0) return false;
    --pending;
    ++processed;
    return true;
  }
  void shut_down() {
    {
      const std::lock_guard lock(mu);
      ++shut_downs;
    }
    cv.notify_all();
  }
  int processed_count() {
    const std::lock_guard lock(mu);
    return processed;
  }
};

TEST(RunWorkersTest, WorkersStartAfterTheCachesSyncAndEndAfterShutDown) {
  CountingWorkQueue queue;
  queue.pending = 5;
  std::atomic<bool> synced{false};
  std::atomic<bool> on_synced_ran{false};
  std::atomic<int> calls_before_on_synced{0};
  const WorkerLoop loop{.controller = "test-controller",
                        .synced = {[&] { return synced.load(); }},
                        .on_synced = [&] { on_synced_ran = true; },
                        .process_next =
                            [&] {
                              if (!on_synced_ran) ++calls_before_on_synced;
                              return queue.process_next();
                            },
                        .shut_down = [&] { queue.shut_down(); }};
  std::stop_source stop;
  std::thread runner([&] { run_workers(loop, 3, stop.get_token()); });

  std::this_thread::sleep_for(milliseconds(300));
  EXPECT_EQ(queue.processed_count(), 0) << "worked before the caches synced";
  synced = true;
  EXPECT_TRUE(eventually([&] { return queue.processed_count() == 5; }));
  stop.request_stop();
  runner.join();  // returns only once every worker ended
  EXPECT_EQ(queue.shut_downs, 1);
  EXPECT_TRUE(on_synced_ran);
  EXPECT_EQ(calls_before_on_synced, 0);
}

TEST(RunWorkersTest, StopBeforeTheCachesSyncStartsNoWorker) {
  CountingWorkQueue queue;
  queue.pending = 1;
  std::atomic<int> calls{0};
  const WorkerLoop loop{.controller = "test-controller",
                        .synced = {[] { return false; }},
                        .on_synced = [&] { ++calls; },
                        .process_next =
                            [&] {
                              ++calls;
                              return queue.process_next();
                            },
                        .shut_down = [&] { queue.shut_down(); }};
  std::stop_source stop;
  std::thread runner([&] { run_workers(loop, 2, stop.get_token()); });
  std::this_thread::sleep_for(milliseconds(100));
  stop.request_stop();
  runner.join();
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(queue.shut_downs, 1);
  EXPECT_EQ(queue.pending, 1);
}

TEST(RunWorkersTest, WorkersAreNamedAfterTheirController) {
  CountingWorkQueue queue;
  queue.pending = 1;
  std::mutex mu;
  std::string seen;
  const WorkerLoop loop{.controller = "a-controller-with-a-long-name",
                        .synced = {[] { return true; }},
                        .on_synced = {},
                        .process_next =
                            [&] {
                              {
                                const std::lock_guard lock(mu);
                                seen = log::thread_name();
                              }
                              return queue.process_next();
                            },
                        .shut_down = [&] { queue.shut_down(); }};
  std::stop_source stop;
  std::thread runner([&] { run_workers(loop, 1, stop.get_token()); });
  EXPECT_TRUE(eventually([&] { return queue.processed_count() == 1; }));
  stop.request_stop();
  runner.join();
  // As `top -H` shows it: Linux keeps 15 bytes of a thread's name.
  EXPECT_EQ(seen, "a-controller-wi");
}

}  // namespace
}  // namespace kcm::controller
