// LeaderElector (client-go tools/leaderelection): candidates compete for a
// lock; the holder renews it every RetryPeriod and gives up leading when it
// cannot renew within RenewDeadline; the others take over once they have
// seen the record unchanged for LeaseDuration, measured on their own clock
// (so clock skew between candidates does not matter, only clock rates).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <stop_token>
#include <string>
#include <thread>

#include "api/result.h"
#include "leaderelection/clock.h"
#include "leaderelection/leader_election_record.h"
#include "leaderelection/resource_lock.h"
#include "record/logger.h"

namespace kcm::leaderelection {

inline constexpr double kJitterFactor = 1.2;
// The defaults of kube-controller-manager's --leader-elect-* flags.
inline constexpr std::chrono::nanoseconds kDefaultLeaseDuration = std::chrono::seconds(15);
inline constexpr std::chrono::nanoseconds kDefaultRenewDeadline = std::chrono::seconds(10);
inline constexpr std::chrono::nanoseconds kDefaultRetryPeriod = std::chrono::seconds(2);

// leader_election_master_status{name} (1 leading / 0 not) and
// leader_election_slowpath_total{name}.
class LeaderMetrics {
 public:
  virtual ~LeaderMetrics() = default;
  virtual void leader_on(std::string_view name) = 0;
  virtual void leader_off(std::string_view name) = 0;
  virtual void slowpath_exercised(std::string_view name) = 0;
};

struct LeaderCallbacks {
  // Runs on its own thread once the lease is acquired; the token is stopped
  // when leadership ends. run() waits for it to return before returning.
  std::function<void(std::stop_token)> on_started_leading;
  // Runs when run() ends, whether or not we ever led.
  std::function<void()> on_stopped_leading;
  // Optional: each newly observed holder (the first one included), in order,
  // on a thread of the elector's.
  std::function<void(const std::string& identity)> on_new_leader;
};

class HealthzAdaptor;

struct LeaderElectionConfig {
  std::shared_ptr<ResourceLock> lock;
  // How long a non-leader waits without seeing the record change before it
  // takes over.
  std::chrono::nanoseconds lease_duration = kDefaultLeaseDuration;
  // How long the leader keeps retrying a renewal before it stops leading.
  std::chrono::nanoseconds renew_deadline = kDefaultRenewDeadline;
  // Between tries (jittered by kJitterFactor while acquiring).
  std::chrono::nanoseconds retry_period = kDefaultRetryPeriod;
  LeaderCallbacks callbacks;
  // Attached by run_or_die.
  std::shared_ptr<HealthzAdaptor> watch_dog;
  // Write an empty holder when leading ends, so another candidate need not
  // wait out the lease. Only safe when all guarded work has stopped by then.
  bool release_on_cancel = false;
  // The lock's name for metrics and the health check message.
  std::string name;
  std::shared_ptr<Clock> clock;            // real_clock() when null
  std::shared_ptr<LeaderMetrics> metrics;  // optional
  record::Logger logger;                   // stderr when empty
};

// NewLeaderElector's checks, with upstream's messages.
Result<void> validate(const LeaderElectionConfig& config);

class LeaderElector {
 public:
  static Result<std::shared_ptr<LeaderElector>> create(LeaderElectionConfig config);
  // RunOrDie: throws std::invalid_argument for an invalid config; attaches
  // the watch dog, then runs.
  static void run_or_die(std::stop_token stop, LeaderElectionConfig config);

  ~LeaderElector();
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // Acquires, then renews until renewal fails or `stop` is requested.
  void run(std::stop_token stop);

  // The last observed holder ("" before any was seen).
  std::string get_leader() const;
  bool is_leader() const;
  // Fails when we lead but last renewed more than lease_duration + tolerance ago.
  Result<void> check(std::chrono::nanoseconds max_tolerable_expired_lease) const;

  // One attempt to acquire or renew (tryAcquireOrRenew). Public so tests and
  // callers with their own loop can drive it.
  bool try_acquire_or_renew();
  // Writes an empty holder if we lead (ReleaseOnCancel).
  bool release();
  // Calls on_new_leader when the observed holder changed since the last report.
  void maybe_report_transition();

  LeaderElectionRecord observed_record() const;
  Clock::MonoTime observed_time() const;
  // Tests: pretend `record` was observed at `observed_time`.
  void set_observed_for_testing(const LeaderElectionRecord& record, Clock::MonoTime observed_time);

 private:
  explicit LeaderElector(LeaderElectionConfig config);

  bool acquire(std::stop_token stop);
  void renew(std::stop_source& leading);
  bool poll_renew(Clock::MonoTime deadline, std::stop_token stop);
  bool is_lease_valid(Clock::MonoTime now) const;
  void set_observed_record(const LeaderElectionRecord& record);
  std::chrono::nanoseconds jittered_retry_period();
  void log(record::Severity severity, std::string_view message) const;
  void notify_loop(std::stop_token stop);

  const LeaderElectionConfig config_;
  const std::string identity_;

  mutable std::mutex mu_;  // guards the observed state
  LeaderElectionRecord observed_record_;
  std::string observed_raw_record_;
  Clock::MonoTime observed_time_ = Clock::MonoTime::min();  // Go's zero time: never valid
  std::string reported_leader_;

  std::mt19937_64 rng_{std::random_device{}()};  // run() thread only

  std::mutex notify_mu_;
  std::condition_variable_any notify_cv_;
  std::deque<std::string> notify_queue_;
  std::jthread notify_thread_;  // last: stopped and joined first
};

}  // namespace kcm::leaderelection
