// Leader election with real LeaseLocks over the REST client against a
// running kcm-local: two candidates, one Lease, short durations.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

#include "integration_env.h"
#include "leaderelection/leader_elector.h"
#include "leaderelection/lease_lock.h"
#include "leaderelection/lease_store_client.h"
#include "record/event_broadcaster.h"
#include "record/event_sink_client.h"

namespace kcm::leaderelection {
namespace {

namespace json = boost::json;
using integration::kSlowdown;
using integration::string_at;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

constexpr milliseconds kLeaseDuration{2000 * kSlowdown};
constexpr milliseconds kRenewDeadline{1500 * kSlowdown};
constexpr milliseconds kRetryPeriod{300 * kSlowdown};

// Which candidates' on_started_leading callbacks are running, and the most
// that ever ran at once.
class LeadershipLog {
 public:
  void started(const std::string& id) {
    std::lock_guard lock(mu_);
    leading_.push_back(id);
    max_concurrent_ = std::max(max_concurrent_, leading_.size());
    history_.push_back("+" + id);
  }
  void stopped(const std::string& id) {
    std::lock_guard lock(mu_);
    std::erase(leading_, id);
    history_.push_back("-" + id);
  }
  void new_leader(const std::string& observer, const std::string& leader) {
    std::lock_guard lock(mu_);
    observed_[observer].push_back(leader);
  }
  std::vector<std::string> leading() const {
    std::lock_guard lock(mu_);
    return leading_;
  }
  std::size_t max_concurrent() const {
    std::lock_guard lock(mu_);
    return max_concurrent_;
  }
  std::string history() const {
    std::lock_guard lock(mu_);
    std::string out;
    for (const auto& h : history_)
      out += h + " ";
    return out;
  }
  std::vector<std::string> observed(const std::string& observer) const {
    std::lock_guard lock(mu_);
    auto it = observed_.find(observer);
    return it == observed_.end() ? std::vector<std::string>() : it->second;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> leading_;
  std::size_t max_concurrent_ = 0;
  std::vector<std::string> history_;
  std::map<std::string, std::vector<std::string>> observed_;
};

// One candidate: its own connections, lock and elector on its own thread.
class Candidate {
 public:
  Candidate(const e2e::LocalCluster& cluster, const std::string& ns, const std::string& lease,
            std::string id, bool release_on_cancel, LeadershipLog& log,
            std::shared_ptr<record::EventRecorder> recorder = nullptr)
      : id_(std::move(id)) {
    auto cs = integration::clientset_for(cluster);
    LeaseLockConfig lock_config;
    lock_config.namespace_ = ns;
    lock_config.name = lease;
    lock_config.identity = id_;
    lock_config.event_recorder = std::move(recorder);
    auto lock = std::make_shared<LeaseLock>(std::make_shared<ClientLeaseStore>(cs->rest()),
                                            std::move(lock_config));
    LeaderElectionConfig config;
    config.lock = lock;
    config.lease_duration = kLeaseDuration;
    config.renew_deadline = kRenewDeadline;
    config.retry_period = kRetryPeriod;
    config.release_on_cancel = release_on_cancel;
    config.name = lease;
    config.logger = record::null_logger();
    const std::string id_copy = id_;
    config.callbacks.on_started_leading = [&log, id_copy](std::stop_token leading) {
      log.started(id_copy);
      std::mutex mu;
      std::condition_variable_any cv;
      std::unique_lock l(mu);
      cv.wait(l, leading, [] { return false; });
      log.stopped(id_copy);
    };
    config.callbacks.on_stopped_leading = [this] { run_returned_ = true; };
    config.callbacks.on_new_leader = [&log, id_copy](const std::string& leader) {
      log.new_leader(id_copy, leader);
    };
    auto elector = LeaderElector::create(std::move(config));
    EXPECT_TRUE(elector.ok()) << elector.error();
    elector_ = *elector;
    thread_ = std::jthread([e = elector_](std::stop_token stop) { e->run(stop); });
  }
  ~Candidate() { stop(); }

  // Stops the elector and waits until run() returned.
  void stop() {
    if (thread_.joinable()) {
      thread_.request_stop();
      thread_.join();
    }
  }
  const std::string& id() const { return id_; }
  bool is_leader() const { return elector_->is_leader(); }
  bool run_returned() const { return run_returned_; }

 private:
  std::string id_;
  std::shared_ptr<LeaderElector> elector_;
  std::atomic<bool> run_returned_{false};
  std::jthread thread_;
};

class LeaderElectionIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    e2e::LocalCluster::Options options;
    options.extra_args = {"--nodes", "0"};
    cluster_ = new e2e::LocalCluster(options);
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override {
    cs_ = integration::clientset_for(*cluster_);
    ASSERT_NE(cs_, nullptr);
  }

  std::optional<json::value> lease(const std::string& ns, const std::string& name) {
    auto got = cs_->leases(ns).get(name);
    if (!got.ok()) return std::nullopt;
    return *got;
  }
  std::string holder(const std::string& ns, const std::string& name) {
    auto l = lease(ns, name);
    return l ? string_at(*l, {"spec", "holderIdentity"}) : "<no lease>";
  }
  // Waits until exactly one candidate's callback leads, that candidate's
  // elector says so and the Lease on the server names it; returns it.
  std::string wait_for_single_leader(const LeadershipLog& log, const std::string& ns,
                                     const std::string& name,
                                     std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    std::string leader;
    const bool one = integration::eventually_ok(
        [&] {
          auto leading = log.leading();
          if (leading.size() != 1) return false;
          leader = leading.front();
          return holder(ns, name) == leader;
        },
        timeout);
    EXPECT_TRUE(one) << "leading: " << log.history() << " holder: " << holder(ns, name);
    return one ? leader : "";
  }

  static e2e::LocalCluster* cluster_;
  std::shared_ptr<client::Clientset> cs_;
};

e2e::LocalCluster* LeaderElectionIntegrationTest::cluster_ = nullptr;

// Lease timestamps are metav1.MicroTime: RFC 3339 with six fractional digits.
bool is_micro_time(const json::value* v) {
  static const std::regex micro(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)");
  return v != nullptr && v->is_string() && std::regex_match(std::string(v->get_string()), micro);
}

TEST_F(LeaderElectionIntegrationTest, OneLeaderAndTakeoverAfterExpiry) {
  integration::ensure_namespace(*cs_, "le-expiry");
  LeadershipLog log;
  // The locks record their transitions as Events on the Lease.
  record::EventBroadcaster broadcaster;
  broadcaster.start_recording_to_sink(std::make_shared<record::ClientEventSink>(cs_->rest()));
  auto recorder = broadcaster.new_recorder({"kcm-integration", "test-host"});
  auto a = std::make_unique<Candidate>(*cluster_, "le-expiry", "lock", "candidate-a", false, log,
                                       recorder);
  auto b = std::make_unique<Candidate>(*cluster_, "le-expiry", "lock", "candidate-b", false, log,
                                       recorder);
  const std::string first = wait_for_single_leader(log, "le-expiry", "lock");
  ASSERT_FALSE(first.empty());
  auto& leader = first == a->id() ? a : b;
  auto& follower = first == a->id() ? b : a;

  // The Lease has upstream's shape.
  auto created = lease("le-expiry", "lock");
  ASSERT_TRUE(created);
  EXPECT_EQ(string_at(*created, {"apiVersion"}), "coordination.k8s.io/v1");
  EXPECT_EQ(string_at(*created, {"kind"}), "Lease");
  const json::value& spec = created->at("spec");
  EXPECT_EQ(spec.at("holderIdentity"), json::value(first));
  EXPECT_EQ(spec.at("leaseDurationSeconds"),
            json::value(std::chrono::duration_cast<std::chrono::seconds>(kLeaseDuration).count()));
  EXPECT_TRUE(is_micro_time(spec.as_object().if_contains("acquireTime"))) << spec;
  EXPECT_TRUE(is_micro_time(spec.as_object().if_contains("renewTime"))) << spec;
  EXPECT_EQ(spec.at("leaseTransitions"), json::value(0));

  // The leader renews: renewTime moves on, acquireTime stays; the follower
  // keeps following all along.
  const std::string first_renew = string_at(*created, {"spec", "renewTime"});
  ASSERT_TRUE(integration::eventually_ok([&] {
    auto l = lease("le-expiry", "lock");
    return l && string_at(*l, {"spec", "renewTime"}) > first_renew;
  }));
  auto renewed = lease("le-expiry", "lock");
  ASSERT_TRUE(renewed);
  EXPECT_EQ(string_at(*renewed, {"spec", "acquireTime"}),
            string_at(*created, {"spec", "acquireTime"}));
  EXPECT_EQ(string_at(*renewed, {"spec", "holderIdentity"}), first);
  EXPECT_FALSE(follower->is_leader());
  EXPECT_EQ(log.leading(), std::vector<std::string>{first});

  // Stopping the leader without release: the follower takes over once the
  // lease is seen unchanged for its duration.
  const auto stopped_at = steady_clock::now();
  leader->stop();
  EXPECT_TRUE(leader->run_returned());
  EXPECT_EQ(holder("le-expiry", "lock"), first) << "without release_on_cancel the lease stays";
  const std::string second = wait_for_single_leader(log, "le-expiry", "lock");
  const auto takeover = steady_clock::now() - stopped_at;
  EXPECT_EQ(second, follower->id());
  // Not before the lease ran out (less the one retry period it may have been
  // renewed before the stop), and not much after.
  EXPECT_GE(takeover, kLeaseDuration - kRetryPeriod - milliseconds(200));
  EXPECT_LT(takeover, 3 * kLeaseDuration + std::chrono::seconds(2)) << "takeover was slow";

  auto taken = lease("le-expiry", "lock");
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->at("spec").at("leaseTransitions"), json::value(1));
  EXPECT_NE(string_at(*taken, {"spec", "acquireTime"}),
            string_at(*created, {"spec", "acquireTime"}));
  EXPECT_LE(log.max_concurrent(), 1u) << log.history();
  EXPECT_EQ(log.observed(follower->id()), (std::vector<std::string>{first, second}));
  follower->stop();
  EXPECT_LE(log.max_concurrent(), 1u) << log.history();

  // "<identity> became leader" / "stopped leading", Normal LeaderElection
  // events about the Lease.
  const std::set<std::string> want = {first + " became leader", first + " stopped leading",
                                      second + " became leader", second + " stopped leading"};
  std::set<std::string> got;
  const bool recorded = integration::eventually_ok([&] {
    got.clear();
    auto events = cs_->events("le-expiry").list({});
    if (!events.ok()) return false;
    for (const auto& e : events->items) {
      if (string_at(e, {"reason"}) != "LeaderElection") continue;
      EXPECT_EQ(string_at(e, {"type"}), "Normal");
      EXPECT_EQ(string_at(e, {"involvedObject", "kind"}), "Lease");
      EXPECT_EQ(string_at(e, {"involvedObject", "apiVersion"}), "coordination.k8s.io/v1");
      EXPECT_EQ(string_at(e, {"involvedObject", "name"}), "lock");
      EXPECT_EQ(string_at(e, {"involvedObject", "uid"}), string_at(*created, {"metadata", "uid"}));
      got.insert(string_at(e, {"message"}));
    }
    return got == want;
  });
  EXPECT_TRUE(recorded) << ::testing::PrintToString(got);
}

TEST_F(LeaderElectionIntegrationTest, ReleaseOnCancelHandsOverFast) {
  integration::ensure_namespace(*cs_, "le-release");
  LeadershipLog log;
  auto a = std::make_unique<Candidate>(*cluster_, "le-release", "lock", "a", true, log);
  ASSERT_EQ(wait_for_single_leader(log, "le-release", "lock"), "a");
  auto b = std::make_unique<Candidate>(*cluster_, "le-release", "lock", "b", true, log);
  // b has read the Lease held by a and follows.
  ASSERT_TRUE(integration::eventually_ok(
      [&] { return log.observed("b") == std::vector<std::string>{"a"}; }));

  const auto stopped_at = steady_clock::now();
  a->stop();
  ASSERT_EQ(wait_for_single_leader(log, "le-release", "lock"), "b");
  const auto takeover = steady_clock::now() - stopped_at;
  // b notices the released lease on its next try (every retry period, jittered
  // by up to 1.2 more), well before a held lease would have expired.
  EXPECT_LT(takeover, kLeaseDuration) << "takeover after release took as long as an expiry";
  auto l = lease("le-release", "lock");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->at("spec").at("leaseTransitions"), json::value(1));

  // The last one out leaves a released Lease: no holder, one second duration.
  b->stop();
  auto released = lease("le-release", "lock");
  ASSERT_TRUE(released);
  const json::value& spec = released->at("spec");
  EXPECT_EQ(spec.at("holderIdentity"), json::value(""));
  EXPECT_EQ(spec.at("leaseDurationSeconds"), json::value(1));
  EXPECT_EQ(spec.at("leaseTransitions"), json::value(1));
  EXPECT_TRUE(is_micro_time(spec.as_object().if_contains("acquireTime"))) << spec;
  EXPECT_TRUE(is_micro_time(spec.as_object().if_contains("renewTime"))) << spec;
  EXPECT_LE(log.max_concurrent(), 1u) << log.history();

  // A new candidate takes the released lease at its first try.
  auto c = std::make_unique<Candidate>(*cluster_, "le-release", "lock", "c", false, log);
  ASSERT_EQ(wait_for_single_leader(log, "le-release", "lock", kLeaseDuration), "c");
  EXPECT_EQ(lease("le-release", "lock")->at("spec").at("leaseTransitions"), json::value(2));
}

// The API server goes away under a leader: it cannot renew, so it stops
// leading once the renew deadline passes (before anyone could take over);
// after the server is back a candidate leads again.
TEST_F(LeaderElectionIntegrationTest, LeaderStepsDownWhenServerIsGone) {
  integration::ensure_namespace(*cs_, "le-outage");
  LeadershipLog log;
  auto a = std::make_unique<Candidate>(*cluster_, "le-outage", "lock", "a", false, log);
  ASSERT_EQ(wait_for_single_leader(log, "le-outage", "lock"), "a");
  auto b = std::make_unique<Candidate>(*cluster_, "le-outage", "lock", "b", false, log);
  ASSERT_TRUE(integration::eventually_ok(
      [&] { return log.observed("b") == std::vector<std::string>{"a"}; }));

  const auto killed_at = steady_clock::now();
  cluster_->kill();
  ASSERT_TRUE(integration::eventually_ok([&] { return log.leading().empty(); })) << log.history();
  const auto stepped_down = steady_clock::now() - killed_at;
  EXPECT_LT(stepped_down, kRenewDeadline + kRetryPeriod + std::chrono::seconds(3 * kSlowdown))
      << "the leader kept leading without renewing";
  // A leader whose renewal failed ends run(), as upstream (the caller exits).
  ASSERT_TRUE(integration::eventually_ok([&] { return a->run_returned(); }));

  cluster_->start();
  // b was still trying to acquire; a's lease runs out and b takes it.
  EXPECT_EQ(wait_for_single_leader(log, "le-outage", "lock"), "b");
  EXPECT_EQ(lease("le-outage", "lock")->at("spec").at("leaseTransitions"), json::value(1));
  EXPECT_LE(log.max_concurrent(), 1u) << log.history();
}

// Several candidates racing for a Lease that does not exist yet: one
// creates it, the others get AlreadyExists/Conflict and follow.
TEST_F(LeaderElectionIntegrationTest, RaceForANewLease) {
  integration::ensure_namespace(*cs_, "le-race");
  LeadershipLog log;
  std::vector<std::unique_ptr<Candidate>> candidates;
  for (int i = 0; i < 3; ++i) {
    candidates.push_back(std::make_unique<Candidate>(*cluster_, "le-race", "lock",
                                                     "racer-" + std::to_string(i), true, log));
  }
  const std::string leader = wait_for_single_leader(log, "le-race", "lock");
  ASSERT_FALSE(leader.empty());
  // Stay stable for a few renewals.
  const auto until = steady_clock::now() + 3 * kRetryPeriod * 2;
  while (steady_clock::now() < until) {
    EXPECT_EQ(log.leading(), std::vector<std::string>{leader});
    std::this_thread::sleep_for(milliseconds(50));
  }
  int leaders = 0;
  for (auto& c : candidates)
    leaders += c->is_leader() ? 1 : 0;
  EXPECT_EQ(leaders, 1);
  EXPECT_EQ(lease("le-race", "lock")->at("spec").at("leaseTransitions"), json::value(0));
  candidates.clear();
  EXPECT_LE(log.max_concurrent(), 1u) << log.history();
}

}  // namespace
}  // namespace kcm::leaderelection
