// The clock the leader elector reads and sleeps on (k8s.io/utils/clock's
// role). Production uses real_clock(); tests inject a FakeClock so that
// acquire, renew and expiry run without real waiting.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <stop_token>

namespace kcm::leaderelection {

class Clock {
 public:
  using WallTime = std::chrono::system_clock::time_point;
  using MonoTime = std::chrono::steady_clock::time_point;

  virtual ~Clock() = default;
  // Wall time: what is written into Lease timestamps.
  virtual WallTime now() const = 0;
  // Monotonic time: what expiry and health are measured on, so that a wall
  // clock step never makes a lease look renewed or expired.
  virtual MonoTime monotonic() const = 0;
  // Blocks for `d` on this clock. Returns false when `stop` was requested
  // before the time passed; a non-positive `d` returns at once.
  virtual bool sleep_for(std::chrono::nanoseconds d, std::stop_token stop) = 0;
};

// The process clock (system_clock and steady_clock; sleeps are real).
std::shared_ptr<Clock> real_clock();

// A clock that moves only when told to. Sleepers block until step() (or
// step_to_next_waiter()) carries the time to their deadline; the step itself
// takes them off the waiter count, so once waiters() is back to the number of
// looping threads, every woken thread has run and gone back to sleep.
class FakeClock : public Clock {
 public:
  // The wall time starts at `start`; the monotonic time at an arbitrary origin.
  explicit FakeClock(WallTime start = WallTime(std::chrono::seconds(1'800'000'000)));

  WallTime now() const override;
  MonoTime monotonic() const override;
  bool sleep_for(std::chrono::nanoseconds d, std::stop_token stop) override;

  // Moves both times forward by `d` and wakes the sleepers that are due.
  void step(std::chrono::nanoseconds d);
  // Moves the time to the earliest sleeper's deadline; false when nobody sleeps.
  bool step_to_next_waiter();
  // How many threads are blocked in sleep_for and not yet due.
  std::size_t waiters() const;
  // Blocks (in real time, at most `real_timeout`) until at least `n` threads sleep.
  bool await_waiters(std::size_t n,
                     std::chrono::milliseconds real_timeout = std::chrono::seconds(10)) const;

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable_any cv_;  // time moved or a sleeper came or went
  WallTime wall_;
  MonoTime mono_;
  struct Sleeper {
    MonoTime deadline;
    bool due = false;
  };
  // Marks (and unlists) the sleepers whose deadline has come. Needs mu_.
  void wake_due();

  std::list<Sleeper*> sleepers_;  // blocked and not yet due
};

}  // namespace kcm::leaderelection
