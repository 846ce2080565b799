#include "leaderelection/leader_elector.h"

#include <fmt/core.h>

#include <stdexcept>

#include "leaderelection/healthz_adaptor.h"
#include "log/thread_name.h"

namespace kcm::leaderelection {

using std::chrono::nanoseconds;

Result<void> validate(const LeaderElectionConfig& c) {
  if (c.lease_duration <= c.renew_deadline) {
    return fail("leaseDuration must be greater than renewDeadline");
  }
  // time.Duration(JitterFactor * float64(RetryPeriod)) truncates to whole nanoseconds.
  const nanoseconds jittered(
      static_cast<std::int64_t>(kJitterFactor * static_cast<double>(c.retry_period.count())));
  if (c.renew_deadline <= jittered) {
    return fail("renewDeadline must be greater than retryPeriod*JitterFactor");
  }
  if (c.lease_duration < nanoseconds(1)) return fail("leaseDuration must be greater than zero");
  if (c.renew_deadline < nanoseconds(1)) return fail("renewDeadline must be greater than zero");
  if (c.retry_period < nanoseconds(1)) return fail("retryPeriod must be greater than zero");
  if (!c.callbacks.on_started_leading) return fail("OnStartedLeading callback must not be nil");
  if (!c.callbacks.on_stopped_leading) return fail("OnStoppedLeading callback must not be nil");
  if (!c.lock) return fail("Lock must not be nil.");
  if (c.lock->identity().empty()) return fail("Lock identity is empty");
  return {};
}

Result<std::shared_ptr<LeaderElector>> LeaderElector::create(LeaderElectionConfig config) {
  if (auto valid = validate(config); !valid) return fail(valid.error());
  if (!config.clock) config.clock = real_clock();
  if (!config.logger) config.logger = record::stderr_logger();
  // The constructor is private: make_shared cannot reach it.
  return std::shared_ptr<LeaderElector>(new LeaderElector(std::move(config)));  // NOLINT
}

void LeaderElector::run_or_die(std::stop_token stop, LeaderElectionConfig config) {
  auto watch_dog = config.watch_dog;
  auto elector = create(std::move(config));
  if (!elector) throw std::invalid_argument(elector.error());
  if (watch_dog) watch_dog->set_leader_election(*elector);
  (*elector)->run(stop);
}

LeaderElector::LeaderElector(LeaderElectionConfig config)
    : config_(std::move(config)), identity_(config_.lock->identity()) {
  if (config_.metrics) config_.metrics->leader_off(config_.name);
  if (config_.callbacks.on_new_leader) {
    notify_thread_ = std::jthread([this](std::stop_token st) {
      log::set_thread_name("leader-notify");
      notify_loop(st);
    });
  }
}

LeaderElector::~LeaderElector() {
  if (notify_thread_.joinable()) {
    notify_thread_.request_stop();
    notify_cv_.notify_all();
    notify_thread_.join();
  }
}

void LeaderElector::log(record::Severity severity, std::string_view message) const {
  config_.logger(severity, message);
}

void LeaderElector::run(std::stop_token stop) {
  if (!acquire(stop)) {
    config_.callbacks.on_stopped_leading();
    return;
  }
  std::stop_source leading;
  const std::stop_callback forward(stop, [&leading] { leading.request_stop(); });
  std::thread started(
      [this, token = leading.get_token()] { config_.callbacks.on_started_leading(token); });
  renew(leading);
  // Upstream cancels the leading context, then calls OnStoppedLeading.
  leading.request_stop();
  config_.callbacks.on_stopped_leading();
  started.join();
}

std::chrono::nanoseconds LeaderElector::jittered_retry_period() {
  // wait.Jitter(d, f): d + rand[0,1) * f * d.
  const double r = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
  const double d = static_cast<double>(config_.retry_period.count());
  return nanoseconds(static_cast<std::int64_t>(d + r * kJitterFactor * d));
}

bool LeaderElector::acquire(std::stop_token stop) {
  const std::string desc = config_.lock->describe();
  log(record::Severity::kInfo, fmt::format("attempting to acquire leader lease {}...", desc));
  bool succeeded = false;
  // wait.JitterUntil(..., sliding): try at once, then sleep a jittered period after each try.
  while (!stop.stop_requested()) {
    succeeded = try_acquire_or_renew();
    maybe_report_transition();
    if (succeeded) {
      config_.lock->record_event("became leader");
      if (config_.metrics) config_.metrics->leader_on(config_.name);
      log(record::Severity::kInfo, fmt::format("successfully acquired lease {}", desc));
      break;
    }
    log(record::Severity::kDebug, fmt::format("failed to acquire lease {}", desc));
    if (!config_.clock->sleep_for(jittered_retry_period(), stop)) break;
  }
  return succeeded;
}

bool LeaderElector::poll_renew(Clock::MonoTime deadline, std::stop_token stop) {
  // wait.PollImmediateUntil(RetryPeriod, ..., timeout of RenewDeadline): the
  // first try is immediate, later ones on RetryPeriod ticks until the deadline.
  const Clock& clock = *config_.clock;
  auto next = clock.monotonic() + config_.retry_period;
  if (try_acquire_or_renew()) return true;
  while (true) {
    auto now = clock.monotonic();
    if (stop.stop_requested() || now >= deadline) return false;
    const auto wake = std::min(next, deadline);
    if (!config_.clock->sleep_for(wake - now, stop)) return false;
    now = clock.monotonic();
    if (now >= deadline) return false;
    if (try_acquire_or_renew()) return true;
    next += config_.retry_period;
    // A ticker drops the ticks a slow try missed: at most one fires at once.
    if (next < now) next = now;
  }
}

void LeaderElector::renew(std::stop_source& leading) {
  const std::stop_token stop = leading.get_token();
  const std::string desc = config_.lock->describe();
  // wait.Until(..., RetryPeriod): renew, then sleep RetryPeriod after each success.
  while (!stop.stop_requested()) {
    const auto deadline = config_.clock->monotonic() + config_.renew_deadline;
    const bool renewed = poll_renew(deadline, stop);
    maybe_report_transition();
    if (renewed) {
      log(record::Severity::kDebug, fmt::format("successfully renewed lease {}", desc));
      if (!config_.clock->sleep_for(config_.retry_period, stop)) break;
      continue;
    }
    if (config_.metrics) config_.metrics->leader_off(config_.name);
    log(record::Severity::kInfo,
        fmt::format(
            "failed to renew lease {}: {}", desc,
            stop.stop_requested() ? "context canceled" : "timed out waiting for the condition"));
    leading.request_stop();
  }
  if (config_.release_on_cancel) release();
  config_.lock->record_event("stopped leading");
}

bool LeaderElector::release() {
  if (!is_leader()) return true;
  LeaderElectionRecord record;
  record.leader_transitions = observed_record().leader_transitions;
  record.lease_duration_seconds = 1;
  record.acquire_time = record.renew_time = api::Time(config_.clock->now());
  const auto deadline = config_.clock->monotonic() + config_.renew_deadline;
  // retry.DefaultRetry allows 5 attempts on Conflict, all within RenewDeadline.
  for (int attempt = 1;; ++attempt) {
    auto updated = config_.lock->update(record);
    if (updated) {
      set_observed_record(record);
      return true;
    }
    log(record::Severity::kError,
        fmt::format("Failed to release lock: {}", updated.error().message));
    if (!updated.error().is(api::reason::kConflict) || attempt >= 5 ||
        config_.clock->monotonic() >= deadline) {
      return false;
    }
    // Somebody wrote the Lease since we last did: re-read it, and release
    // only what is still ours.
    auto current = config_.lock->get();
    if (!current) return false;
    if (current->record.holder_identity != identity_) return true;
  }
}

bool LeaderElector::try_acquire_or_renew() {
  // Both instants are taken once, before any request, as upstream does.
  const auto now = config_.clock->now();
  const auto now_mono = config_.clock->monotonic();
  LeaderElectionRecord desired;
  desired.holder_identity = identity_;
  desired.lease_duration_seconds = static_cast<int>(
      std::chrono::duration_cast<std::chrono::seconds>(config_.lease_duration).count());
  desired.renew_time = desired.acquire_time = api::Time(now);

  // 1. Fast path: the leader writes over its cached Lease without reading first.
  if (is_leader() && is_lease_valid(now_mono)) {
    const LeaderElectionRecord old = observed_record();
    desired.acquire_time = old.acquire_time;
    desired.leader_transitions = old.leader_transitions;
    auto updated = config_.lock->update(desired);
    if (updated) {
      set_observed_record(desired);
      return true;
    }
    log(record::Severity::kError,
        fmt::format("Failed to update lock optimistically: {}, falling back to slow path",
                    updated.error().message));
  }

  // 2. Read the record, or create it.
  auto got = config_.lock->get();
  if (!got) {
    if (!got.error().is(api::reason::kNotFound)) {
      log(record::Severity::kError, fmt::format("error retrieving resource lock {}: {}",
                                                config_.lock->describe(), got.error().message));
      return false;
    }
    auto created = config_.lock->create(desired);
    if (!created) {
      log(record::Severity::kError,
          fmt::format("error initially creating leader election record: {}",
                      created.error().message));
      return false;
    }
    set_observed_record(desired);
    return true;
  }

  // 3. A changed record means its holder is alive: restart our count.
  {
    bool changed = false;
    {
      std::lock_guard lock(mu_);
      changed = observed_raw_record_ != got->raw;
    }
    if (changed) {
      set_observed_record(got->record);
      std::lock_guard lock(mu_);
      observed_raw_record_ = got->raw;
    }
  }
  const LeaderElectionRecord& old = got->record;
  if (!old.holder_identity.empty() && is_lease_valid(now_mono) && !is_leader()) {
    log(record::Severity::kDebug,
        fmt::format("lock is held by {} and has not yet expired", old.holder_identity));
    return false;
  }

  // 4. Take over (or renew through the slow path).
  if (is_leader()) {
    desired.acquire_time = old.acquire_time;
    desired.leader_transitions = old.leader_transitions;
    if (config_.metrics) config_.metrics->slowpath_exercised(config_.name);
  } else {
    desired.leader_transitions = old.leader_transitions + 1;
  }
  auto updated = config_.lock->update(desired);
  if (!updated) {
    log(record::Severity::kError,
        fmt::format("Failed to update lock: {}", updated.error().message));
    return false;
  }
  set_observed_record(desired);
  return true;
}

void LeaderElector::maybe_report_transition() {
  std::string leader;
  {
    std::lock_guard lock(mu_);
    if (observed_record_.holder_identity == reported_leader_) return;
    reported_leader_ = observed_record_.holder_identity;
    leader = reported_leader_;
  }
  if (!config_.callbacks.on_new_leader) return;
  {
    std::lock_guard lock(notify_mu_);
    notify_queue_.push_back(std::move(leader));
  }
  notify_cv_.notify_one();
}

void LeaderElector::notify_loop(std::stop_token stop) {
  while (true) {
    std::string leader;
    {
      std::unique_lock lock(notify_mu_);
      notify_cv_.wait(lock, stop, [this] { return !notify_queue_.empty(); });
      if (stop.stop_requested()) return;
      leader = std::move(notify_queue_.front());
      notify_queue_.pop_front();
    }
    config_.callbacks.on_new_leader(leader);
  }
}

Result<void> LeaderElector::check(std::chrono::nanoseconds max_tolerable_expired_lease) const {
  if (!is_leader()) return {};  // a hot standby is healthy
  const auto observed = observed_time();
  const bool expired =
      observed == Clock::MonoTime::min() ||
      config_.clock->monotonic() - observed > config_.lease_duration + max_tolerable_expired_lease;
  if (expired) {
    return fail(fmt::format("failed election to renew leadership on lease {}", config_.name));
  }
  return {};
}

std::string LeaderElector::get_leader() const {
  std::lock_guard lock(mu_);
  return observed_record_.holder_identity;
}

bool LeaderElector::is_leader() const {
  std::lock_guard lock(mu_);
  return observed_record_.holder_identity == identity_;
}

bool LeaderElector::is_lease_valid(Clock::MonoTime now) const {
  std::lock_guard lock(mu_);
  if (observed_time_ == Clock::MonoTime::min()) return false;
  return observed_time_ + std::chrono::seconds(observed_record_.lease_duration_seconds) > now;
}

void LeaderElector::set_observed_record(const LeaderElectionRecord& record) {
  const auto now = config_.clock->monotonic();
  std::lock_guard lock(mu_);
  observed_record_ = record;
  observed_time_ = now;
}

LeaderElectionRecord LeaderElector::observed_record() const {
  std::lock_guard lock(mu_);
  return observed_record_;
}

Clock::MonoTime LeaderElector::observed_time() const {
  std::lock_guard lock(mu_);
  return observed_time_;
}

void LeaderElector::set_observed_for_testing(const LeaderElectionRecord& record,
                                             Clock::MonoTime observed_time) {
  std::lock_guard lock(mu_);
  observed_record_ = record;
  observed_raw_record_ = raw_record(record);
  observed_time_ = observed_time;
}

}  // namespace kcm::leaderelection
