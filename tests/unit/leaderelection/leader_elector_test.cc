#include "leaderelection/leader_elector.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <thread>

#include "leaderelection/healthz_adaptor.h"
#include "leaderelection/identity.h"
#include "leaderelection/lease_lock.h"
#include "lease_fakes.h"
#include "record/fake_recorder.h"

namespace kcm::leaderelection {
namespace {

using namespace std::chrono_literals;
using testing::MemoryLeaseStore;
using testing::ScriptedLeaseStore;
using testing::TickingClock;

// Collects on_new_leader reports (they arrive on the elector's own thread).
class LeaderReports {
 public:
  std::function<void(const std::string&)> callback() {
    return [this](const std::string& id) {
      std::lock_guard lock(mu_);
      reports_.push_back(id);
      cv_.notify_all();
    };
  }
  std::vector<std::string> wait_for(std::size_t n) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, 10s, [&] { return reports_.size() >= n; });
    return reports_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> reports_;
};

api::json::value make_lease(const std::optional<LeaderElectionRecord>& record) {
  api::json::object lease;
  lease["apiVersion"] = "coordination.k8s.io/v1";
  lease["kind"] = "Lease";
  lease["metadata"] = api::json::object{
      {"name", "bar"}, {"namespace", "foo"}, {"resourceVersion", "1"}, {"uid", "u1"}};
  lease["spec"] = record ? api::json::value(record_to_lease_spec(*record))
                         : api::json::value(api::json::object());
  return lease;
}

ScriptedLeaseStore::Reaction get_returns(std::optional<LeaderElectionRecord> record) {
  return [record](const api::json::value*) -> Result<api::json::value, api::Status> {
    return make_lease(record);
  };
}
ScriptedLeaseStore::Reaction not_found() {
  return [](const api::json::value*) -> Result<api::json::value, api::Status> {
    return fail(api::not_found(testing::kLeases, "bar"));
  };
}
ScriptedLeaseStore::Reaction echo() {
  return [](const api::json::value* obj) -> Result<api::json::value, api::Status> { return *obj; };
}

LeaderElectionRecord holder(std::string id, int duration = 0) {
  LeaderElectionRecord r;
  r.holder_identity = std::move(id);
  r.lease_duration_seconds = duration;
  return r;
}

LeaderElectionConfig base_config(std::shared_ptr<ResourceLock> lock) {
  LeaderElectionConfig c;
  c.lock = std::move(lock);
  c.callbacks.on_started_leading = [](std::stop_token) {};
  c.callbacks.on_stopped_leading = [] {};
  c.logger = record::null_logger();
  c.name = "kube-controller-manager";
  return c;
}

std::shared_ptr<LeaseLock> lease_lock(std::shared_ptr<LeaseStore> store, std::string identity,
                                      std::shared_ptr<record::EventRecorder> recorder = nullptr) {
  return std::make_shared<LeaseLock>(
      std::move(store),
      LeaseLockConfig{"foo", "bar", std::move(identity), std::move(recorder), {}});
}

// --- NewLeaderElector's checks ---

TEST(LeaderElectorConfig, Validation) {
  auto lock = lease_lock(std::make_shared<MemoryLeaseStore>(), "baz");
  struct Case {
    const char* name;
    std::function<void(LeaderElectionConfig&)> mutate;
    const char* error;  // nullptr: valid
  };
  const Case cases[] = {
      {"defaults", [](auto&) {}, nullptr},
      {"upstream test config",
       [](auto& c) {
         c.lease_duration = 15s;
         c.renew_deadline = 2s;
         c.retry_period = 1s;
       },
       nullptr},
      {"lease equals renew", [](auto& c) { c.lease_duration = 10s; },
       "leaseDuration must be greater than renewDeadline"},
      {"renew equals jittered retry",
       [](auto& c) {
         c.renew_deadline = 12s;
         c.retry_period = 10s;
       },
       "renewDeadline must be greater than retryPeriod*JitterFactor"},
      {"renew just above jittered retry",
       [](auto& c) {
         c.renew_deadline = 12s + 1ns;
         c.retry_period = 10s;
       },
       nullptr},
      {"negative lease",
       [](auto& c) {
         c.lease_duration = -1s;
         c.renew_deadline = -2s;
         c.retry_period = -3s;
       },
       "leaseDuration must be greater than zero"},
      {"zero renew",
       [](auto& c) {
         c.renew_deadline = 0s;
         c.retry_period = -1s;
       },
       "renewDeadline must be greater than zero"},
      {"zero retry", [](auto& c) { c.retry_period = 0s; }, "retryPeriod must be greater than zero"},
      {"no started callback", [](auto& c) { c.callbacks.on_started_leading = nullptr; },
       "OnStartedLeading callback must not be nil"},
      {"no stopped callback", [](auto& c) { c.callbacks.on_stopped_leading = nullptr; },
       "OnStoppedLeading callback must not be nil"},
      {"no lock", [](auto& c) { c.lock = nullptr; }, "Lock must not be nil."},
      {"empty identity",
       [](auto& c) { c.lock = lease_lock(std::make_shared<MemoryLeaseStore>(), ""); },
       "Lock identity is empty"},
  };
  for (const auto& tc : cases) {
    auto config = base_config(lock);
    tc.mutate(config);
    auto elector = LeaderElector::create(config);
    if (tc.error == nullptr) {
      EXPECT_TRUE(elector) << tc.name << ": " << elector.error();
    } else {
      ASSERT_FALSE(elector) << tc.name;
      EXPECT_EQ(elector.error(), tc.error) << tc.name;
    }
  }
  EXPECT_EQ(kDefaultLeaseDuration, 15s);
  EXPECT_EQ(kDefaultRenewDeadline, 10s);
  EXPECT_EQ(kDefaultRetryPeriod, 2s);
}

TEST(LeaderElectorConfig, RunOrDieThrowsOnInvalidConfig) {
  auto config = base_config(lease_lock(std::make_shared<MemoryLeaseStore>(), "baz"));
  config.lease_duration = 1s;
  std::stop_source stop;
  EXPECT_THROW(LeaderElector::run_or_die(stop.get_token(), config), std::invalid_argument);
}

// --- Port of upstream's TestTryAcquireOrRenew (leases) ---

TEST(LeaderElector, TryAcquireOrRenew) {
  struct Case {
    std::string name;
    LeaderElectionRecord observed_record;
    enum { kZero, kPast, kFuture } observed_time = kZero;
    std::chrono::nanoseconds retry_after{0};
    std::vector<ScriptedLeaseStore::Reactor> reactors;
    bool expect_success;
    bool transition_leader;
    std::string out_holder;
  };
  const std::vector<Case> cases = {
      {"acquire from no object",
       {},
       Case::kZero,
       0s,
       {{"get", not_found()}, {"create", echo()}},
       true,
       false,
       "baz"},
      {"acquire from object without a record",
       {},
       Case::kZero,
       0s,
       {{"get", get_returns(std::nullopt)}, {"update", echo()}},
       true,
       true,
       "baz"},
      {"acquire from led object with the lease duration seconds",
       {},
       Case::kZero,
       3s,
       {{"get", get_returns(holder("bing", 3))},
        {"get", get_returns(holder("bing", 3))},
        {"update", echo()}},
       true,
       true,
       "baz"},
      {"acquire from unled object",
       {},
       Case::kZero,
       0s,
       {{"get", get_returns(LeaderElectionRecord{})}, {"update", echo()}},
       true,
       true,
       "baz"},
      {"acquire from led, unacked object",
       holder("bing"),
       Case::kPast,
       0s,
       {{"get", get_returns(holder("bing"))}, {"update", echo()}},
       true,
       true,
       "baz"},
      {"acquire from empty led, acked object",
       {},
       Case::kFuture,
       0s,
       {{"get", get_returns(holder(""))}, {"update", echo()}},
       true,
       true,
       "baz"},
      {"don't acquire from led, acked object",
       {},
       Case::kFuture,
       0s,
       {{"get", get_returns(holder("bing"))}},
       false,
       false,
       "bing"},
      {"renew already acquired object",
       holder("baz"),
       Case::kFuture,
       0s,
       {{"get", get_returns(holder("baz"))}, {"update", echo()}},
       true,
       false,
       "baz"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    auto clock = std::make_shared<TickingClock>();
    auto store = std::make_shared<ScriptedLeaseStore>(tc.reactors);
    auto recorder = std::make_shared<record::FakeRecorder>();
    LeaderReports reports;
    auto config = base_config(lease_lock(store, "baz", recorder));
    config.lease_duration = 10s;
    config.renew_deadline = 5s;
    config.retry_period = 1s;
    config.clock = clock;
    config.callbacks.on_new_leader = reports.callback();
    auto elector = LeaderElector::create(config);
    ASSERT_TRUE(elector) << elector.error();
    auto& le = **elector;
    const auto now = clock->monotonic();
    le.set_observed_for_testing(tc.observed_record,
                                tc.observed_time == Case::kZero   ? Clock::MonoTime::min()
                                : tc.observed_time == Case::kPast ? now - 1000h
                                                                  : now + 1000h);
    if (tc.expect_success != le.try_acquire_or_renew()) {
      if (tc.retry_after != 0s) {
        clock->advance(tc.retry_after);
        EXPECT_EQ(tc.expect_success, le.try_acquire_or_renew()) << "after retry";
      } else {
        ADD_FAILURE() << "unexpected result of tryAcquireOrRenew: [succeeded=" << !tc.expect_success
                      << "]";
      }
    }
    const auto observed = le.observed_record();
    EXPECT_EQ(observed.holder_identity, tc.out_holder);
    EXPECT_EQ(store->actions().size(), tc.reactors.size()) << "wrong number of api interactions";
    EXPECT_EQ(observed.leader_transitions, tc.transition_leader ? 1 : 0);
    if (tc.expect_success) {
      EXPECT_EQ(observed.lease_duration_seconds, 10);
      EXPECT_FALSE(observed.renew_time.is_zero());
    }
    le.maybe_report_transition();
    EXPECT_EQ(reports.wait_for(1), std::vector<std::string>{tc.out_holder});
    EXPECT_TRUE(recorder->events().empty());
  }
}

// Port of TestReleaseLease: release writes an empty holder for 1s and keeps transitions.
TEST(LeaderElector, ReleaseLease) {
  api::json::value released;
  auto store = std::make_shared<ScriptedLeaseStore>(std::vector<ScriptedLeaseStore::Reactor>{
      {"get", not_found()},
      {"create", echo()},
      {"update", [&released](const api::json::value* obj) -> Result<api::json::value, api::Status> {
         released = *obj;
         return *obj;
       }}});
  auto clock = std::make_shared<TickingClock>();
  LeaderReports reports;
  auto config = base_config(lease_lock(store, "baz"));
  config.clock = clock;
  config.callbacks.on_new_leader = reports.callback();
  auto elector = LeaderElector::create(config);
  ASSERT_TRUE(elector);
  auto& le = **elector;
  ASSERT_TRUE(le.try_acquire_or_renew());
  le.maybe_report_transition();
  EXPECT_EQ(reports.wait_for(1), std::vector<std::string>{"baz"});
  EXPECT_TRUE(le.release());
  EXPECT_EQ(le.observed_record().holder_identity, "");
  EXPECT_EQ(le.observed_record().leader_transitions, 0);
  EXPECT_EQ(store->actions(), (std::vector<std::string>{"get", "create", "update"}));
  const auto& spec = released.at("spec");
  EXPECT_EQ(spec.at("holderIdentity"), "");
  EXPECT_EQ(spec.at("leaseDurationSeconds"), 1);
  EXPECT_EQ(spec.at("leaseTransitions"), 0);
  EXPECT_EQ(spec.at("acquireTime"), spec.at("renewTime"));
  le.maybe_report_transition();
  EXPECT_EQ(reports.wait_for(2), (std::vector<std::string>{"baz", ""}));
  // Not leading: nothing to release, no request.
  EXPECT_TRUE(le.release());
  EXPECT_EQ(store->actions().size(), 3u);
}

// Port of TestFastPathLeaderElection: after acquiring, renewals skip the GET.
TEST(LeaderElector, FastPathThenFallbackToSlowPath) {
  auto store = std::make_shared<MemoryLeaseStore>();
  auto clock = std::make_shared<TickingClock>();
  auto config = base_config(lease_lock(store, "baz"));
  config.clock = clock;
  auto le = *LeaderElector::create(config);
  ASSERT_TRUE(le->try_acquire_or_renew());  // get (NotFound) + create
  ASSERT_TRUE(le->try_acquire_or_renew());  // fast path: update only
  EXPECT_EQ(store->updates(), 1);
  // Somebody else bumped the Lease: the fast path conflicts, the slow path re-reads.
  auto lease = *store->lease();
  lease.at("metadata").as_object()["annotations"] = api::json::object{{"touched", "yes"}};
  ASSERT_TRUE(store->update("foo", lease));
  ASSERT_TRUE(le->try_acquire_or_renew());
  EXPECT_EQ(store->updates(), 4);  // ours, the outside one, our conflict, our slow-path retry
  EXPECT_EQ(store->lease()->at("metadata").at("annotations").at("touched"), "yes");
  EXPECT_EQ(store->lease()->at("spec").at("holderIdentity"), "baz");
}

TEST(LeaseLock, UpdateBeforeGetFailsWithoutARequest) {
  auto store = std::make_shared<ScriptedLeaseStore>(std::vector<ScriptedLeaseStore::Reactor>{});
  LeaseLock lock(store, {"foo", "bar", "baz", nullptr, {}});
  const auto r = lock.update(holder("baz"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "lease not initialized, call get or create first");
  EXPECT_TRUE(store->actions().empty());
  EXPECT_EQ(lock.describe(), "foo/bar");
  EXPECT_EQ(lock.identity(), "baz");
}

TEST(LeaseLock, CreateAndUpdateKeepLabelsAndUnknownSpecMembers) {
  auto store = std::make_shared<MemoryLeaseStore>();
  auto recorder = std::make_shared<record::FakeRecorder>();
  LeaseLock lock(store,
                 {"kube-system", "kube-controller-manager", "me", recorder, {{"app", "kcm"}}});
  ASSERT_TRUE(lock.create(holder("me", 15)));
  auto stored = *store->lease();
  EXPECT_EQ(stored.at("metadata").at("labels").at("app"), "kcm");
  EXPECT_EQ(stored.at("kind"), "Lease");
  EXPECT_EQ(stored.at("apiVersion"), "coordination.k8s.io/v1");
  stored.at("spec").as_object()["futureField"] = 7;
  stored.at("metadata").at("labels").as_object()["other"] = "x";
  ASSERT_TRUE(store->update("kube-system", stored));
  ASSERT_TRUE(lock.get());
  auto r = holder("me", 15);
  r.leader_transitions = 2;
  ASSERT_TRUE(lock.update(r));
  const auto after = *store->lease();
  EXPECT_EQ(after.at("spec").at("futureField"), 7);
  EXPECT_EQ(after.at("spec").at("leaseTransitions"), 2);
  EXPECT_EQ(after.at("metadata").at("labels").at("other"), "x");
  lock.record_event("became leader");
  ASSERT_EQ(recorder->events(), std::vector<std::string>{"Normal LeaderElection me became leader"});
  const auto ref = recorder->objects().front();
  EXPECT_EQ(ref.kind, "Lease");
  EXPECT_EQ(ref.api_version, "coordination.k8s.io/v1");
  EXPECT_EQ(ref.namespace_, "kube-system");
  EXPECT_EQ(ref.name, "kube-controller-manager");
  EXPECT_EQ(ref.uid, "uid-1");
  EXPECT_EQ(ref.resource_version, "3");
}

TEST(LeaseLock, StaleUpdateIsAConflict) {
  auto store = std::make_shared<MemoryLeaseStore>();
  LeaseLock a(store, {"foo", "bar", "a", nullptr, {}});
  LeaseLock b(store, {"foo", "bar", "b", nullptr, {}});
  ASSERT_TRUE(a.create(holder("a", 15)));
  ASSERT_TRUE(b.get());
  ASSERT_TRUE(a.update(holder("a", 15)));
  const auto r = b.update(holder("b", 15));
  ASSERT_FALSE(r);
  EXPECT_TRUE(r.error().is(api::reason::kConflict));
  EXPECT_EQ(r.error().message,
            "Operation cannot be fulfilled on leases.coordination.k8s.io \"bar\": the object has "
            "been modified; please apply your changes to the latest version and try again");
}

// --- Whole elections on a fake clock ---

// Runs electors on threads and moves the fake clock only once every running
// elector is asleep, so each sees time pass exactly as the schedule says.
class Election {
 public:
  struct Candidate {
    std::string id;
    std::shared_ptr<LeaderElector> elector;
    std::stop_source stop;
    std::thread thread;
    std::atomic<bool> leading{false};
    std::atomic<bool> stopped_called{false};
    std::atomic<bool> done{false};
  };

  explicit Election(bool release_on_cancel) : release_on_cancel_(release_on_cancel) {}
  ~Election() {
    for (auto& c : candidates_) {
      c->stop.request_stop();
      if (c->thread.joinable()) c->thread.join();
    }
  }

  Candidate& start(const std::string& id) {
    auto c = std::make_unique<Candidate>();
    c->id = id;
    auto config = base_config(lease_lock(store, id, recorder));
    config.clock = clock;
    config.release_on_cancel = release_on_cancel_;
    if (std::getenv("KCM_LE_DEBUG") != nullptr) {
      config.logger = [this, id](record::Severity, std::string_view m) {
        fprintf(stderr, "%s t=%lld %.*s\n", id.c_str(),
                static_cast<long long>(clock->monotonic().time_since_epoch().count() / 1000000),
                static_cast<int>(m.size()), m.data());
      };
    }
    Candidate* raw = c.get();
    config.callbacks.on_started_leading = [this, raw](std::stop_token token) {
      const int now_leading = ++leaders_;
      max_leaders_ = std::max(max_leaders_.load(), now_leading);
      raw->leading = true;
      // Lead until told to stop (real time: the work does not use the clock).
      std::mutex mu;
      std::condition_variable_any cv;
      std::unique_lock lock(mu);
      cv.wait(lock, token, [] { return false; });
      raw->leading = false;
      --leaders_;
    };
    config.callbacks.on_stopped_leading = [raw] { raw->stopped_called = true; };
    c->elector = *LeaderElector::create(config);
    ++running_;
    c->thread = std::thread([this, raw] {
      raw->elector->run(raw->stop.get_token());
      raw->done = true;
      --running_;
    });
    candidates_.push_back(std::move(c));
    settle();
    return *candidates_.back();
  }

  // Waits (real time) until every running elector sleeps on the clock.
  void settle() {
    for (int i = 0; i < 2000; ++i) {
      if (clock->await_waiters(static_cast<std::size_t>(running_.load()), 5ms)) return;
    }
    FAIL() << "electors did not settle";
  }

  // Moves the clock from sleeper to sleeper until `pred` holds or `limit` passed.
  bool advance_until(const std::function<bool()>& pred, std::chrono::nanoseconds limit) {
    const auto end = clock->monotonic() + limit;
    settle();
    while (!pred()) {
      if (clock->monotonic() >= end || !clock->step_to_next_waiter()) return pred();
      settle();
    }
    return true;
  }

  // on_started_leading runs on its own thread: wait for it in real time.
  static bool wait_leading(const Candidate& c) {
    for (int i = 0; i < 10000 && !c.leading; ++i)
      std::this_thread::sleep_for(1ms);
    return c.leading;
  }

  void stop(Candidate& c) {
    c.stop.request_stop();
    c.thread.join();
    settle();
  }

  std::string holder() const {
    const auto lease = store->lease();
    if (!lease) return "";
    return std::string(lease->at("spec").at("holderIdentity").as_string());
  }
  std::int64_t transitions() const {
    return store->lease()->at("spec").at("leaseTransitions").as_int64();
  }

  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();
  std::shared_ptr<MemoryLeaseStore> store = std::make_shared<MemoryLeaseStore>();
  std::shared_ptr<record::FakeRecorder> recorder = std::make_shared<record::FakeRecorder>();
  std::atomic<int> max_leaders_{0};

 private:
  bool release_on_cancel_;
  std::atomic<int> running_{0};
  std::atomic<int> leaders_{0};
  std::vector<std::unique_ptr<Candidate>> candidates_;
};

void run_takeover(bool release_on_cancel) {
  Election e(release_on_cancel);
  auto& a = e.start("a");
  ASSERT_TRUE(e.advance_until([&] { return e.holder() == "a"; }, 1s));
  ASSERT_TRUE(Election::wait_leading(a));
  auto& b = e.start("b");
  // A minute of renewals: a keeps the lease, b keeps waiting.
  EXPECT_FALSE(e.advance_until([&] { return e.holder() != "a" || b.leading; }, 60s));
  EXPECT_TRUE(a.leading);
  EXPECT_EQ(e.holder(), "a");
  EXPECT_EQ(e.transitions(), 0);

  e.stop(a);
  EXPECT_TRUE(a.stopped_called);
  EXPECT_FALSE(a.leading);
  const auto stopped_at = e.clock->now();
  if (release_on_cancel) {
    EXPECT_EQ(e.holder(), "");
  } else {
    EXPECT_EQ(e.holder(), "a");
  }
  // Watch the Lease, not b's callback: that runs on its own thread and may
  // start after the clock moved on.
  ASSERT_TRUE(e.advance_until([&] { return e.holder() == "b"; }, 60s));
  const auto acquired =
      api::MicroTime::parse(e.store->lease()->at("spec").at("acquireTime").as_string());
  ASSERT_TRUE(acquired);
  const auto waited = acquired->time_point() - stopped_at;
  if (release_on_cancel) {
    // The next (jittered) retry takes the released lease.
    EXPECT_LE(waited, 4400ms);
  } else {
    // b must see the record unchanged for a whole LeaseDuration first.
    EXPECT_GE(waited, 13s);
    EXPECT_LE(waited, 24s);
  }
  EXPECT_TRUE(Election::wait_leading(b));
  EXPECT_EQ(e.holder(), "b");
  EXPECT_EQ(e.transitions(), 1);
  EXPECT_EQ(e.max_leaders_.load(), 1);
  EXPECT_EQ(e.recorder->events(),
            (std::vector<std::string>{"Normal LeaderElection a became leader",
                                      "Normal LeaderElection a stopped leading",
                                      "Normal LeaderElection b became leader"}));
  EXPECT_EQ(b.elector->get_leader(), "b");
  EXPECT_TRUE(b.elector->is_leader());
  e.stop(b);
  EXPECT_TRUE(b.stopped_called);
}

TEST(LeaderElection, SecondCandidateTakesOverAfterLeaseExpires) {
  run_takeover(false);
}

TEST(LeaderElection, ReleaseOnCancelHandsOverAtOnce) {
  run_takeover(true);
}

TEST(LeaderElection, LeaderStopsWhenRenewalFailsForRenewDeadline) {
  Election e(false);
  auto& a = e.start("a");
  ASSERT_TRUE(e.advance_until([&] { return e.holder() == "a"; }, 1s));
  ASSERT_TRUE(Election::wait_leading(a));
  ASSERT_TRUE(e.advance_until([] { return false; }, 7s) == false);
  e.store->set_fail_updates(true);
  const auto failing_since = e.clock->monotonic();
  ASSERT_TRUE(e.advance_until([&] { return a.done.load(); }, 60s));
  const auto lost_after = e.clock->monotonic() - failing_since;
  EXPECT_GE(lost_after, 10s);
  EXPECT_LE(lost_after, 12s);
  EXPECT_TRUE(a.stopped_called);
  EXPECT_EQ(e.recorder->events(),
            (std::vector<std::string>{"Normal LeaderElection a became leader",
                                      "Normal LeaderElection a stopped leading"}));
}

TEST(LeaderElection, StopBeforeAcquiringCallsOnlyStoppedLeading) {
  auto store = std::make_shared<MemoryLeaseStore>();
  // Somebody else holds a fresh lease.
  LeaseLock other(store, {"foo", "bar", "other", nullptr, {}});
  ASSERT_TRUE(other.create(holder("other", 15)));
  auto clock = std::make_shared<FakeClock>();
  auto config = base_config(lease_lock(store, "me"));
  config.clock = clock;
  std::atomic<bool> started{false}, stopped{false};
  config.callbacks.on_started_leading = [&](std::stop_token) { started = true; };
  config.callbacks.on_stopped_leading = [&] { stopped = true; };
  auto le = *LeaderElector::create(config);
  std::stop_source stop;
  std::thread t([&] { le->run(stop.get_token()); });
  ASSERT_TRUE(clock->await_waiters(1));
  EXPECT_EQ(le->get_leader(), "other");
  EXPECT_FALSE(le->is_leader());
  stop.request_stop();
  t.join();
  EXPECT_FALSE(started);
  EXPECT_TRUE(stopped);
}

// --- Health check ---

TEST(HealthzAdaptor, FailsOnlyWhenLeadingWithAStaleRenewal) {
  auto clock = std::make_shared<FakeClock>();
  auto config = base_config(lease_lock(std::make_shared<MemoryLeaseStore>(), "me"));
  config.clock = clock;
  config.name = "kube-controller-manager";
  auto adaptor = std::make_shared<HealthzAdaptor>(20s);
  EXPECT_EQ(HealthzAdaptor::name(), "leaderElection");
  EXPECT_TRUE(adaptor->check()) << "no elector attached";

  auto le = *LeaderElector::create(config);
  adaptor->set_leader_election(le);
  EXPECT_TRUE(adaptor->check()) << "not leading";

  le->set_observed_for_testing(holder("other", 15), clock->monotonic() - 1000h);
  EXPECT_TRUE(adaptor->check()) << "somebody else leads: a hot standby is healthy";

  le->set_observed_for_testing(holder("me", 15), clock->monotonic());
  EXPECT_TRUE(adaptor->check());
  clock->step(15s + 20s);
  EXPECT_TRUE(adaptor->check()) << "exactly LeaseDuration + timeout is still fine";
  clock->step(1ns);
  const auto r = adaptor->check();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "failed election to renew leadership on lease kube-controller-manager");
  EXPECT_TRUE(le->check(1h)) << "a larger tolerance passes";

  le.reset();
  EXPECT_TRUE(adaptor->check()) << "the elector is gone";
}

TEST(Identity, HostnameUnderscoreUuid) {
  const auto a = new_identity();
  const auto b = new_identity();
  ASSERT_TRUE(a);
  ASSERT_TRUE(b);
  EXPECT_NE(*a, *b);
  const auto sep = a->rfind('_');
  ASSERT_NE(sep, std::string::npos);
  const std::string uuid = a->substr(sep + 1);
  ASSERT_EQ(uuid.size(), 36u);
  EXPECT_EQ(uuid[14], '4');
  EXPECT_NE(std::string("89ab").find(uuid[19]), std::string::npos);
}

}  // namespace
}  // namespace kcm::leaderelection
