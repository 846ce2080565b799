// examples/namespace-pod-counter as users run it: a separate process with a
// kubeconfig, against kcm-local, observed and driven with the real kubectl.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "api/json.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

namespace json = boost::json;
using std::chrono::seconds;

constexpr std::string_view kCountLabel = "example.kcm.dev/pods";

std::string namespace_counter_binary() {
  return std::string(KCM_BIN_DIR) + "/namespace-pod-counter";
}

class NamespacePodCounterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster_ = new LocalCluster(); }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override {
    if (!std::filesystem::exists(namespace_counter_binary()))
      GTEST_SKIP() << namespace_counter_binary() << " is not built (KCM_BUILD_EXAMPLES=OFF)";
  }

  Process start_counter(const std::string& log_name, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv = {namespace_counter_binary(), "--kubeconfig",
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
  void create_namespace(const std::string& name) const {
    kubectl_ok({"create", "namespace", name});
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
  // The label's value; "<unset>" when absent, "<error>" when kubectl fails.
  std::string pods_label(const std::string& ns) const {
    const CommandResult r = kubectl_({"get", "namespace", ns, "-o", "json"});
    if (r.exit_code != 0) return "<error>";
    const json::value v = json::parse(r.out);
    const json::value* label = api::find_path(v, {"metadata", "labels", kCountLabel});
    return label && label->is_string() ? std::string(label->as_string()) : "<unset>";
  }
  // Polls until the label of `ns` reads `want`; the assertion names the last value.
  ::testing::AssertionResult label_becomes(const std::string& ns, const std::string& want) const {
    std::string last;
    if (eventually([&] { return (last = pods_label(ns)) == want; }, seconds(30)))
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "label of namespace " << ns << " is " << last << ", want " << want;
  }
  // The messages of the PodsCounted events about namespace `ns`.
  std::vector<std::string> pods_counted_events(const std::string& ns) const {
    // Events about cluster-scoped objects live in "default".
    const CommandResult r = kubectl_({"get", "events", "-n", "default", "-o", "json"});
    std::vector<std::string> out;
    if (r.exit_code != 0) return out;
    const json::value v = json::parse(r.out);
    const json::value* items = api::find_path(v, {"items"});
    if (!items || !items->is_array()) return out;
    for (const json::value& e : items->as_array()) {
      if (api::as_string_view(api::find_path(e, {"reason"})) == "PodsCounted" &&
          api::as_string_view(api::find_path(e, {"involvedObject", "kind"})) == "Namespace" &&
          api::as_string_view(api::find_path(e, {"involvedObject", "name"})) == ns) {
        EXPECT_EQ(api::as_string_view(api::find_path(e, {"type"})), "Normal");
        EXPECT_EQ(api::as_string_view(api::find_path(e, {"source", "component"})),
                  "namespace-pod-counter");
        out.emplace_back(api::as_string_view(api::find_path(e, {"message"})));
      }
    }
    return out;
  }
  std::string lease_holder() const {
    const CommandResult r =
        kubectl_({"get", "lease", "-n", "kube-system", "namespace-pod-counter", "-o", "json"});
    if (r.exit_code != 0) return "<none>";
    return std::string(
        api::as_string_view(api::find_path(json::parse(r.out), {"spec", "holderIdentity"})));
  }

  static LocalCluster* cluster_;
  Kubectl kubectl_{*cluster_};
  TempDir dir_{"kcm-npc-"};
};

LocalCluster* NamespacePodCounterTest::cluster_ = nullptr;

TEST_F(NamespacePodCounterTest, CountsPodsPerNamespaceAndRecordsEvents) {
  create_namespace("npc-a");
  create_namespace("npc-b");
  Process counter = start_counter("counter.log", {"--workers", "3"});

  // Every namespace gets a count, empty ones included.
  EXPECT_TRUE(label_becomes("npc-a", "0")) << counter_log("counter.log");
  EXPECT_TRUE(label_becomes("npc-b", "0"));
  EXPECT_TRUE(label_becomes("default", "0"));

  create_pods("npc-a", {"a1", "a2", "a3"});
  create_pods("npc-b", {"b1"});
  EXPECT_TRUE(label_becomes("npc-a", "3")) << counter_log("counter.log");
  EXPECT_TRUE(label_becomes("npc-b", "1"));

  // Unscheduled pods are deleted at once (no kubelet to wait for).
  kubectl_ok({"delete", "pod", "-n", "npc-a", "a1", "a2"});
  EXPECT_TRUE(label_becomes("npc-a", "1")) << counter_log("counter.log");
  EXPECT_EQ(pods_label("npc-b"), "1");

  // A namespace created while it runs.
  create_namespace("npc-c");
  create_pods("npc-c", {"c1", "c2"});
  EXPECT_TRUE(label_becomes("npc-c", "2"));

  // Somebody overwrites the label: the controller puts it back.
  kubectl_ok({"label", "namespace", "npc-b", std::string(kCountLabel) + "=42", "--overwrite"});
  EXPECT_TRUE(label_becomes("npc-b", "1"));

  // One event per change of the label; the sink writes them asynchronously,
  // so wait until every expected one is there.
  std::vector<std::string> events;
  const auto has = [&](std::string_view prefix) {
    return std::any_of(events.begin(), events.end(),
                       [&](const std::string& m) { return m.starts_with(prefix); });
  };
  const auto all_recorded = [&] {
    events = pods_counted_events("npc-a");
    return has("Set label example.kcm.dev/pods=0 (was unset)") &&
           // The creations may be seen one at a time (0 -> 1 -> 2 -> 3) or together.
           has("Set label example.kcm.dev/pods=3 (was ") &&
           // The deletions may be seen one at a time (3 -> 2 -> 1) or together (3 -> 1).
           (has("Set label example.kcm.dev/pods=1 (was 3)") ||
            has("Set label example.kcm.dev/pods=1 (was 2)"));
  };
  EXPECT_TRUE(eventually(all_recorded, seconds(30))) << ::testing::PrintToString(events);
  EXPECT_TRUE(eventually([&] {
    const auto b = pods_counted_events("npc-b");
    return std::find(b.begin(), b.end(), "Set label example.kcm.dev/pods=1 (was 42)") != b.end();
  }));

  // SIGTERM: a clean, prompt exit.
  EXPECT_EQ(counter.stop(SIGTERM), 0) << counter_log("counter.log");
  const std::string log = counter_log("counter.log");
  EXPECT_NE(log.find("Received signal, shutting down"), std::string::npos) << log;
  EXPECT_NE(log.find("Shutting down workers"), std::string::npos) << log;
  EXPECT_EQ(log.find("Error syncing namespace"), std::string::npos) << log;

  // Stopped: nothing changes the label any more.
  create_pods("npc-b", {"b2"});
  std::this_thread::sleep_for(std::chrono::seconds(1));
  EXPECT_EQ(pods_label("npc-b"), "1");
}

TEST_F(NamespacePodCounterTest, LeaderElectionHandsOverOnShutdown) {
  create_namespace("npc-le");
  Process first = start_counter("first.log", {"--leader-elect"});
  EXPECT_TRUE(label_becomes("npc-le", "0")) << counter_log("first.log");
  const std::string holder = lease_holder();
  EXPECT_NE(holder, "<none>");
  EXPECT_FALSE(holder.empty());

  // A second candidate waits while the first holds the Lease.
  Process second = start_counter("second.log", {"--leader-elect=true", "--workers=1"});
  std::this_thread::sleep_for(std::chrono::seconds(3));
  EXPECT_EQ(lease_holder(), holder);
  EXPECT_EQ(counter_log("second.log").find("Starting workers"), std::string::npos)
      << counter_log("second.log");

  // The first releases the Lease on SIGTERM; the second takes over and counts.
  EXPECT_EQ(first.stop(SIGTERM), 0) << counter_log("first.log");
  EXPECT_TRUE(eventually(
      [&] {
        const std::string now = lease_holder();
        return !now.empty() && now != holder && now != "<none>";
      },
      seconds(30)))
      << counter_log("second.log");
  create_pods("npc-le", {"p1", "p2"});
  EXPECT_TRUE(label_becomes("npc-le", "2")) << counter_log("second.log");
  EXPECT_EQ(second.stop(SIGTERM), 0) << counter_log("second.log");
}

TEST_F(NamespacePodCounterTest, BadFlagsAndConfigFail) {
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--kubeconfig", "/nonexistent/kubeconfig"},
       "stat /nonexistent/kubeconfig: no such file or directory"},
      {{"--workers", "0"}, "--workers: Value 0 not in range 1 to 64"},
      {{"--no-such-flag"}, "The following argument was not expected: --no-such-flag"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> argv = {namespace_counter_binary()};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    const CommandResult r = run_command(argv, {}, {}, seconds(20));
    EXPECT_NE(r.exit_code, 0) << describe(r);
    EXPECT_FALSE(r.timed_out);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << describe(r);
  }
}

}  // namespace
}  // namespace kcm::e2e
