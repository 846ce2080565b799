// examples/pod-counter as users run it: a separate process with a kubeconfig,
// against kcm-local with three simulated nodes (kcm-local-node-1 is the
// control plane), observed and driven with the real kubectl.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "api/json.h"
#include "integration_env.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

namespace json = boost::json;
using integration::eventually_ok;
using std::chrono::seconds;

constexpr std::string_view kLabel = "kcm.dev/pod-count";
constexpr std::string_view kControlPlaneLabel = "node-role.kubernetes.io/control-plane";
const std::string kControlPlane = "kcm-local-node-1";

std::string pod_counter_binary() {
  return std::string(KCM_BIN_DIR) + "/pod-counter";
}

// What the test reads of one PodCounted event.
struct CountedEvent {
  std::string message;
  std::int64_t count = 0;
};

class PodCounterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new LocalCluster(LocalCluster::Options{.extra_args = {"--nodes=3"}});
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override {
    if (!std::filesystem::exists(pod_counter_binary()))
      GTEST_SKIP() << pod_counter_binary() << " is not built (KCM_BUILD_EXAMPLES=OFF)";
  }

  Process start_counter(const std::string& log_name, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {pod_counter_binary(), "--kubeconfig",
                                     cluster_->kubeconfig().string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return Process(argv, dir_.path() / log_name);
  }
  std::string counter_log(const std::string& log_name) const {
    return read_file(dir_.path() / log_name);
  }

  void kubectl_ok(const std::vector<std::string>& args, const std::string& input = {}) const {
    const CommandResult r = kubectl_(args, input);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
  }
  void create_pods(const std::string& ns, const std::vector<std::string>& names) const {
    std::string manifest;
    for (const auto& name : names) {
      manifest += "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
                  "\n  namespace: " + ns +
                  "\nspec:\n  containers:\n  - name: app\n    image: registry.k8s.io/pause:3.9\n";
    }
    kubectl_ok({"create", "-f", "-"}, manifest);
  }
  // Every pod in the cluster, as the API server has them now.
  int pods_in_cluster() const {
    const CommandResult r = kubectl_({"get", "pods", "-A", "-o", "json"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    if (r.exit_code != 0) return -1;
    return static_cast<int>(json::parse(r.out).at("items").as_array().size());
  }
  // The node's count label; "<unset>" when absent, "<error>" when kubectl fails.
  std::string count_label(const std::string& node) const {
    const CommandResult r = kubectl_({"get", "node", node, "-o", "json"});
    if (r.exit_code != 0) return "<error>";
    const json::value v = json::parse(r.out);
    const json::value* label = api::find_path(v, {"metadata", "labels", kLabel});
    return label && label->is_string() ? std::string(label->as_string()) : "<unset>";
  }
  ::testing::AssertionResult label_becomes(const std::string& node, const std::string& want) const {
    std::string last;
    if (eventually_ok([&] { return (last = count_label(node)) == want; }))
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "label of node " << node << " is " << last << ", want " << want;
  }
  // The PodCounted events of each pod of `ns`, by pod name.
  std::map<std::string, std::vector<CountedEvent>> pod_counted_events(const std::string& ns) const {
    std::map<std::string, std::vector<CountedEvent>> out;
    const CommandResult r = kubectl_({"get", "events", "-n", ns, "-o", "json"});
    if (r.exit_code != 0) return out;
    const json::value list = json::parse(r.out);
    for (const json::value& e : list.at("items").as_array()) {
      if (api::as_string_view(api::find_path(e, {"reason"})) != "PodCounted") continue;
      EXPECT_EQ(api::as_string_view(api::find_path(e, {"involvedObject", "kind"})), "Pod");
      EXPECT_EQ(api::as_string_view(api::find_path(e, {"type"})), "Normal");
      EXPECT_EQ(api::as_string_view(api::find_path(e, {"source", "component"})), "pod-counter");
      const json::value* count = api::find_path(e, {"count"});
      out[std::string(api::as_string_view(api::find_path(e, {"involvedObject", "name"})))]
          .push_back({std::string(api::as_string_view(api::find_path(e, {"message"}))),
                      count && count->is_int64() ? count->as_int64() : 0});
    }
    return out;
  }
  // Polls until every pod of `names` has a PodCounted event; then checks that
  // each has exactly one (written once: count 1) with the expected message.
  void expect_one_event_each(const std::string& ns, const std::vector<std::string>& names) const {
    std::map<std::string, std::vector<CountedEvent>> events;
    EXPECT_TRUE(eventually_ok([&] {
      events = pod_counted_events(ns);
      for (const auto& name : names)
        if (!events.contains(name)) return false;
      return true;
    })) << "pods of "
        << ns << " with events: " << events.size();
    const std::regex message(R"(Pod counted \((1 pod|[0-9]+ pods) in the cluster\))");
    for (const auto& name : names) {
      const auto& e = events[name];
      ASSERT_EQ(e.size(), 1u) << ns << "/" << name;
      EXPECT_TRUE(std::regex_match(e[0].message, message)) << e[0].message;
      EXPECT_EQ(e[0].count, 1) << ns << "/" << name << ": " << e[0].message;
    }
  }
  std::string lease_holder() const {
    const CommandResult r =
        kubectl_({"get", "lease", "-n", "kube-system", "pod-counter", "-o", "json"});
    if (r.exit_code != 0) return "<none>";
    return std::string(
        api::as_string_view(api::find_path(json::parse(r.out), {"spec", "holderIdentity"})));
  }

  static LocalCluster* cluster_;
  Kubectl kubectl_{*cluster_};
  TempDir dir_{"kcm-pc-"};
};

LocalCluster* PodCounterTest::cluster_ = nullptr;

TEST_F(PodCounterTest, CountsPodsOnControlPlaneNodesAndAnnouncesEachPodOnce) {
  kubectl_ok({"create", "namespace", "pc-a"});
  const int base = pods_in_cluster();
  ASSERT_GE(base, 0);
  const auto count = [&](int n) { return std::to_string(base + n); };
  Process counter = start_counter("counter.log", {"--v=2"});

  // Only the control-plane node carries the count.
  EXPECT_TRUE(label_becomes(kControlPlane, count(0))) << counter_log("counter.log");
  EXPECT_EQ(count_label("kcm-local-node-2"), "<unset>");
  EXPECT_EQ(count_label("kcm-local-node-3"), "<unset>");

  // Counted as they are created and deleted (kubectl delete waits until the
  // pods are gone).
  create_pods("pc-a", {"a1", "a2", "a3"});
  EXPECT_TRUE(label_becomes(kControlPlane, count(3))) << counter_log("counter.log");
  kubectl_ok({"delete", "pod", "-n", "pc-a", "a1", "a2"});
  EXPECT_TRUE(label_becomes(kControlPlane, count(1))) << counter_log("counter.log");
  create_pods("pc-a", {"a4"});
  EXPECT_TRUE(label_becomes(kControlPlane, count(2)));

  // Hand edits are undone.
  kubectl_ok({"label", "node", kControlPlane, std::string(kLabel) + "=42", "--overwrite"});
  EXPECT_TRUE(label_becomes(kControlPlane, count(2)));
  kubectl_ok({"label", "node", kControlPlane, std::string(kLabel) + "-"});
  EXPECT_TRUE(label_becomes(kControlPlane, count(2)));
  kubectl_ok({"label", "node", "kcm-local-node-3", std::string(kLabel) + "=7"});
  EXPECT_TRUE(label_becomes("kcm-local-node-3", "<unset>"));

  // A node that gains the role gets the count; one that loses it, loses it.
  kubectl_ok({"label", "node", "kcm-local-node-2", std::string(kControlPlaneLabel) + "="});
  EXPECT_TRUE(label_becomes("kcm-local-node-2", count(2))) << counter_log("counter.log");
  kubectl_ok({"label", "node", "kcm-local-node-2", std::string(kControlPlaneLabel) + "-"});
  EXPECT_TRUE(label_becomes("kcm-local-node-2", "<unset>")) << counter_log("counter.log");
  EXPECT_EQ(count_label(kControlPlane), count(2));

  // One event per pod, deleted ones included, despite the syncs since.
  expect_one_event_each("pc-a", {"a1", "a2", "a3", "a4"});

  // SIGTERM: a clean, prompt exit.
  EXPECT_EQ(counter.stop(SIGTERM), 0) << counter_log("counter.log");
  std::string log = counter_log("counter.log");
  EXPECT_NE(log.find("Received signal, shutting down"), std::string::npos) << log;
  EXPECT_NE(log.find("Shutting down controller"), std::string::npos) << log;
  EXPECT_EQ(log.find("Error syncing"), std::string::npos) << log;

  // Stopped: nothing changes the label any more.
  create_pods("pc-a", {"a5"});
  std::this_thread::sleep_for(seconds(1));
  EXPECT_EQ(count_label(kControlPlane), count(2));

  // A restart counts a5, and reads the events of the earlier run so that a3
  // and a4 (still there) are not announced again.
  Process again = start_counter("again.log", {"--v=2"});
  EXPECT_TRUE(label_becomes(kControlPlane, count(3))) << counter_log("again.log");
  expect_one_event_each("pc-a", {"a1", "a2", "a3", "a4", "a5"});
  // The events are written asynchronously: give a wrong one time to appear.
  std::this_thread::sleep_for(seconds(2));
  expect_one_event_each("pc-a", {"a1", "a2", "a3", "a4", "a5"});
  EXPECT_EQ(again.stop(SIGTERM), 0) << counter_log("again.log");
  log = counter_log("again.log");
  EXPECT_NE(log.find("Pods announced by earlier runs"), std::string::npos) << log;
  EXPECT_EQ(log.find("Cannot list PodCounted events"), std::string::npos) << log;
}

TEST_F(PodCounterTest, LeaderElectionHoldsTheLeaseAndHandsItOver) {
  kubectl_ok({"create", "namespace", "pc-le"});
  Process first = start_counter("first.log", {"--leader-elect"});
  EXPECT_TRUE(eventually_ok([&] {
    const std::string h = lease_holder();
    return !h.empty() && h != "<none>";
  })) << counter_log("first.log");
  const std::string holder = lease_holder();
  create_pods("pc-le", {"p1"});
  EXPECT_TRUE(label_becomes(kControlPlane, std::to_string(pods_in_cluster())))
      << counter_log("first.log");
  // Written before the hand-over, so the next leader finds it.
  expect_one_event_each("pc-le", {"p1"});

  // A second candidate waits while the first holds the Lease.
  Process second = start_counter("second.log", {"--leader-elect=true"});
  std::this_thread::sleep_for(seconds(3));
  EXPECT_EQ(lease_holder(), holder);
  EXPECT_EQ(counter_log("second.log").find("Starting controller"), std::string::npos)
      << counter_log("second.log");

  // The first releases the Lease on SIGTERM; the second takes over and counts.
  EXPECT_EQ(first.stop(SIGTERM), 0) << counter_log("first.log");
  EXPECT_TRUE(eventually_ok([&] {
    const std::string now = lease_holder();
    return !now.empty() && now != holder && now != "<none>";
  })) << counter_log("second.log");
  create_pods("pc-le", {"p2"});
  EXPECT_TRUE(label_becomes(kControlPlane, std::to_string(pods_in_cluster())))
      << counter_log("second.log");
  // The new leader did not announce p1 again.
  expect_one_event_each("pc-le", {"p1", "p2"});
  EXPECT_EQ(second.stop(SIGTERM), 0) << counter_log("second.log");
}

TEST_F(PodCounterTest, BadFlagsAndConfigFail) {
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--kubeconfig", "/nonexistent/kubeconfig"},
       "stat /nonexistent/kubeconfig: no such file or directory"},
      {{"-v", "abc"}, "Could not convert: --v = abc"},
      {{"--workers=2"}, "The following argument was not expected: --workers=2"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> argv = {pod_counter_binary()};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const CommandResult r = run_command(argv, {}, {}, seconds(20));
    EXPECT_NE(r.exit_code, 0) << describe(r);
    EXPECT_FALSE(r.timed_out);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << describe(r);
  }
}

}  // namespace
}  // namespace kcm::e2e
