// The simulated cluster end to end on an in-memory store: nodes register,
// pods are bound through pods/binding, run, turn Ready, crash, terminate.
#include "local/cluster/cluster.h"

#include <gtest/gtest.h>

#include <functional>
#include <mutex>
#include <thread>

#include "eventually.h"
#include "local/apiserver/rest_store.h"
#include "local/cluster/api_access.h"
#include "local/cluster/loop.h"

namespace kcm::local::cluster {
namespace {

namespace json = boost::json;
using apiserver::WriteResult;
using namespace std::chrono_literals;
using test_support::eventually;

class ClusterTest : public ::testing::Test {
 protected:
  ClusterTest() : table_(registry::builtin_resources()), rest_(store_, table_) {
    for (const char* ns : {"default", "kube-node-lease"}) {
      EXPECT_TRUE(create("namespaces", "",
                         json::object{{"apiVersion", "v1"},
                                      {"kind", "Namespace"},
                                      {"metadata", json::object{{"name", ns}}}}));
    }
  }
  ~ClusterTest() override {
    if (cluster_) cluster_->stop();
  }

  void start(int nodes, std::chrono::nanoseconds pod_ready_delay = 200ms) {
    ClusterOptions options;
    options.nodes = nodes;
    options.pod_ready_delay = pod_ready_delay;
    options.pod_terminate_delay = 100ms;
    auto c = Cluster::start(rest_, table_, options);
    ASSERT_TRUE(c) << c.error();
    cluster_ = std::move(*c);
  }

  const registry::ResourceInfo& info(std::string_view group, std::string_view plural) {
    return *table_.find(group, "v1", plural);
  }

  Result<WriteResult, api::Status> create(std::string_view plural, std::string_view ns,
                                          json::object obj) {
    Result<WriteResult, api::Status> out = fail(api::internal_error("no callback"));
    rest_.create(info("", plural), ns, std::move(obj), {}, [&](auto r) { out = std::move(r); });
    return out;
  }

  std::optional<json::object> get(std::string_view group, std::string_view plural,
                                  std::string_view ns, std::string_view name) {
    auto r = rest_.get(info(group, plural), ns, name);
    if (!r || !*r) return std::nullopt;
    return json::parse((*r)->json).as_object();
  }

  std::vector<json::object> list(std::string_view group, std::string_view plural) {
    std::vector<json::object> out;
    auto r = rest_.list(info(group, plural), {});
    if (!r) return out;
    for (const auto& item : r->items)
      out.push_back(json::parse(item->json).as_object());
    return out;
  }

  static std::string condition(const json::object& pod, std::string_view type,
                               std::string_view field = "status") {
    const json::object* status = api::find_object(pod, "status");
    const json::array* cs = status ? api::find_array(*status, "conditions") : nullptr;
    if (cs == nullptr) return "";
    for (const auto& c : *cs) {
      if (c.as_object().at("type") == json::value(type)) {
        return std::string(api::find_string(c.as_object(), field).value_or(""));
      }
    }
    return "";
  }

  // A string field of the pod (e.g. "spec", "nodeName"); "" when it or the pod is missing.
  std::string pod_string(const std::string& name, std::string_view part, std::string_view field) {
    const auto p = get("", "pods", "default", name);
    const json::object* o = p ? api::find_object(*p, part) : nullptr;
    return o != nullptr ? std::string(api::find_string(*o, field).value_or("")) : "";
  }

  // Deletes the pod (gracefully, as a user would).
  Result<WriteResult, api::Status> remove_pod(std::string_view name) {
    Result<WriteResult, api::Status> out = fail(api::internal_error("no callback"));
    rest_.remove(info("", "pods"), "default", name, {}, [&](auto r) { out = std::move(r); });
    return out;
  }

  static json::object pod(std::string name, std::string extra_spec = "",
                          std::string annotations = "{}") {
    return json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
                       R"(","annotations":)" + annotations +
                       R"(},"spec":{"containers":[{"name":"web","image":"nginx"}])" + extra_spec +
                       "}}")
        .as_object();
  }

  storage::Store store_;
  registry::ResourceTable table_;
  apiserver::RestStore rest_;
  std::unique_ptr<Cluster> cluster_;
};

TEST_F(ClusterTest, RegistersReadyNodesWithLeases) {
  start(3);
  const auto nodes = list("", "nodes");
  ASSERT_EQ(nodes.size(), 3u);
  for (const auto& n : nodes) {
    EXPECT_EQ(condition(n, "Ready"), "True");
    const std::string name(n.at("metadata").at("name").as_string());
    auto lease = get("coordination.k8s.io", "leases", "kube-node-lease", name);
    ASSERT_TRUE(lease) << name;
    EXPECT_EQ(lease->at("metadata").at("ownerReferences").as_array()[0].at("uid"),
              n.at("metadata").at("uid"));
  }
}

TEST_F(ClusterTest, RestartKeepsExistingNodes) {
  start(2);
  const std::string uid(
      get("", "nodes", "", "kcm-local-node-1")->at("metadata").at("uid").as_string());
  cluster_->stop();
  cluster_.reset();
  start(2);
  EXPECT_EQ(get("", "nodes", "", "kcm-local-node-1")->at("metadata").at("uid"), uid.c_str());
}

TEST_F(ClusterTest, PodIsBoundRunsAndTurnsReady) {
  start(2);
  ASSERT_TRUE(create("pods", "default", pod("web-1")));
  ASSERT_TRUE(eventually([&] {
    auto p = get("", "pods", "default", "web-1");
    return p && condition(*p, "Ready") == "True";
  }));
  const json::object p = *get("", "pods", "default", "web-1");
  const std::string node(p.at("spec").at("nodeName").as_string());
  EXPECT_TRUE(node.starts_with("kcm-local-node-"));
  EXPECT_EQ(p.at("status").at("phase"), "Running");
  EXPECT_EQ(condition(p, "PodScheduled"), "True");
  EXPECT_TRUE(p.at("status").at("podIP").as_string().starts_with("10.244."));
  // The scheduler's event (written as events.k8s.io/v1; listed here in core/v1 form).
  ASSERT_TRUE(eventually([&] {
    for (const auto& e : list("", "events")) {
      if (e.at("reason") == "Scheduled" &&
          e.at("message") == json::value("Successfully assigned default/web-1 to " + node)) {
        return e.at("reportingComponent") == "default-scheduler";
      }
    }
    return false;
  })) <<
      [&] {
        std::string all;
        for (const auto& e : list("", "events"))
          all += api::to_json_string(e) + "\n";
        return all;
      }();
}

// Every state a pod is stored in, in order, as (phase, Ready condition).
class PodStates : public storage::WatchSink {
 public:
  void deliver(const storage::Event& event) override {
    const json::object pod = json::parse(event.object->json).as_object();
    const json::object* status = api::find_object(pod, "status");
    std::string ready;
    if (const json::array* cs = status ? api::find_array(*status, "conditions") : nullptr) {
      for (const auto& c : *cs) {
        if (c.as_object().at("type") == "Ready") {
          ready = std::string(c.as_object().at("status").as_string());
        }
      }
    }
    const std::lock_guard lock(mu_);
    states_.emplace_back(status ? std::string(api::find_string(*status, "phase").value_or("")) : "",
                         ready);
  }
  std::vector<std::pair<std::string, std::string>> states() const {
    const std::lock_guard lock(mu_);
    return states_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> states_;
};

TEST_F(ClusterTest, WithNoReadyDelayTheFirstRunningStatusIsReady) {
  start(1, 0ms);
  auto states = std::make_shared<PodStates>();
  storage::Store::WatchOptions watch;
  watch.resource = rest_.resource_id(info("", "pods"));
  auto handle = store_.watch(watch, states);
  ASSERT_TRUE(handle);
  ASSERT_TRUE(create("pods", "default", pod("web-1")));
  ASSERT_TRUE(eventually([&] {
    auto p = get("", "pods", "default", "web-1");
    return p && condition(*p, "Ready") == "True";
  }));
  std::this_thread::sleep_for(100ms);  // a second status write, if any, lands meanwhile
  // Created (no status), bound (Pending), then one status write: Running and Ready.
  using State = std::pair<std::string, std::string>;
  EXPECT_EQ(states->states(),
            (std::vector<State>{{"Pending", ""}, {"Pending", ""}, {"Running", "True"}}));
}

TEST_F(ClusterTest, UnschedulablePodGetsTheConditionAndEvent) {
  start(3);
  ASSERT_TRUE(create("pods", "default", pod("nowhere", R"(,"nodeSelector":{"disk":"none"})")));
  const std::string want =
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: "
      "0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
  ASSERT_TRUE(eventually([&] {
    auto p = get("", "pods", "default", "nowhere");
    return p && condition(*p, "PodScheduled", "message") == want;
  }));
  const json::object p = *get("", "pods", "default", "nowhere");
  EXPECT_EQ(condition(p, "PodScheduled"), "False");
  EXPECT_EQ(condition(p, "PodScheduled", "reason"), "Unschedulable");
  EXPECT_FALSE(p.at("spec").as_object().contains("nodeName"));
  ASSERT_TRUE(eventually([&] {
    for (const auto& e : list("", "events")) {
      if (e.at("reason") == "FailedScheduling" && e.at("message") == json::value(want)) return true;
    }
    return false;
  }));
  // A node that matches turns up: the pod is scheduled there.
  ASSERT_TRUE(create("nodes", "",
                     json::parse(R"({"apiVersion":"v1","kind":"Node",
      "metadata":{"name":"extra","labels":{"disk":"none"}},
      "status":{"conditions":[{"type":"Ready","status":"True"}],
                "allocatable":{"cpu":"1","memory":"1Gi","pods":"10"}}})")
                         .as_object()));
  ASSERT_TRUE(eventually([&] {
    auto p = get("", "pods", "default", "nowhere");
    return p && p->at("spec").as_object().contains("nodeName");
  }));
  EXPECT_EQ(get("", "pods", "default", "nowhere")->at("spec").at("nodeName"), "extra");
}

// The scheduler counts what the pods on a node request (a node has 4 cpus): a
// pod that does not fit waits, and is placed once a pod on the node is gone.
TEST_F(ClusterTest, APodThatDoesNotFitIsScheduledWhenAnotherLeavesTheNode) {
  start(1);
  const auto requesting_three_cpus = [](const std::string& name) {
    return json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
                       R"("},"spec":{"containers":[{"name":"web","image":"nginx",
                           "resources":{"requests":{"cpu":"3"}}}]}})")
        .as_object();
  };
  const auto node_of = [&](const std::string& name) {
    return pod_string(name, "spec", "nodeName");
  };
  ASSERT_TRUE(create("pods", "default", requesting_three_cpus("first")));
  ASSERT_TRUE(eventually([&] { return !node_of("first").empty(); }));
  const std::string node = node_of("first");
  ASSERT_TRUE(create("pods", "default", requesting_three_cpus("second")));
  ASSERT_TRUE(eventually([&] {
    auto p = get("", "pods", "default", "second");
    return p && condition(*p, "PodScheduled", "reason") == "Unschedulable";
  }));
  EXPECT_THAT(condition(*get("", "pods", "default", "second"), "PodScheduled", "message"),
              ::testing::HasSubstr("1 Insufficient cpu"));
  EXPECT_EQ(node_of("second"), "");

  ASSERT_TRUE(remove_pod("first"));
  ASSERT_TRUE(eventually([&] { return node_of("second") == node; }));
}

// The scheduler sees a change to a node it knows: a label that a waiting pod
// selects lets it be placed there.
TEST_F(ClusterTest, APodWaitingForALabelIsScheduledWhenTheNodeGetsIt) {
  start(1);
  ASSERT_TRUE(create("pods", "default", pod("picky", R"(,"nodeSelector":{"disk":"ssd"})")));
  ASSERT_TRUE(eventually([&] {
    auto p = get("", "pods", "default", "picky");
    return p && condition(*p, "PodScheduled", "reason") == "Unschedulable";
  }));
  const std::vector<json::object> nodes = list("", "nodes");
  ASSERT_EQ(nodes.size(), 1u);
  json::object node = nodes[0];
  const std::string name(node.at("metadata").at("name").as_string());
  api::ensure_object(api::ensure_object(node, "metadata"), "labels")["disk"] = "ssd";
  Result<WriteResult, api::Status> updated = fail(api::internal_error("no callback"));
  rest_.update(info("", "nodes"), "", name, apiserver::Subresource::kNone, std::move(node), {},
               [&](auto r) { updated = std::move(r); });
  ASSERT_TRUE(updated) << updated.error().message;
  ASSERT_TRUE(eventually([&] { return pod_string("picky", "spec", "nodeName") == name; }));
}

// Pod IPs come from the node's /24 as host-local IPAM hands them out: the next
// free address after the last one given, so a freed address is not reused at once.
TEST_F(ClusterTest, PodIpsAreHandedOutInTurn) {
  start(1);
  const auto ip_of = [&](const std::string& name) { return pod_string(name, "status", "podIP"); };
  ASSERT_TRUE(create("pods", "default", pod("a")));
  ASSERT_TRUE(eventually([&] { return !ip_of("a").empty(); }));
  const std::string first = ip_of("a");
  ASSERT_TRUE(first.ends_with(".2")) << first;
  ASSERT_TRUE(remove_pod("a"));
  ASSERT_TRUE(eventually([&] { return !get("", "pods", "default", "a"); }));
  ASSERT_TRUE(create("pods", "default", pod("b")));
  ASSERT_TRUE(eventually([&] { return !ip_of("b").empty(); }));
  EXPECT_EQ(ip_of("b"), first.substr(0, first.size() - 1) + "3");
}

TEST_F(ClusterTest, NeverReadyAndCrashingPods) {
  start(1);
  ASSERT_TRUE(
      create("pods", "default", pod("never", "", R"({"local.kcm.dev/never-ready":"true"})")));
  ASSERT_TRUE(create(
      "pods", "default",
      pod("crash", "", R"({"local.kcm.dev/crash":"true","local.kcm.dev/crash-backoff":"50ms"})")));
  ASSERT_TRUE(eventually([&] {
    auto p = get("", "pods", "default", "crash");
    if (!p) return false;
    const json::object* status = api::find_object(*p, "status");
    const json::array* cs = status ? api::find_array(*status, "containerStatuses") : nullptr;
    if (cs == nullptr || cs->empty()) return false;
    const json::value c = (*cs)[0];
    const json::value* restarts = api::find_path(c, {"restartCount"});
    const json::value* exit_code = api::find_path(c, {"lastState", "terminated", "exitCode"});
    return restarts && exit_code && restarts->as_int64() >= 3 && *exit_code == 1;
  }));
  const json::object never = *get("", "pods", "default", "never");
  EXPECT_EQ(never.at("status").at("phase"), "Running");
  EXPECT_EQ(condition(never, "Ready"), "False");
  EXPECT_EQ(condition(never, "Ready", "reason"), "ContainersNotReady");
}

TEST_F(ClusterTest, DeletedPodTerminatesAndIsRemoved) {
  start(1);
  ASSERT_TRUE(create("pods", "default", pod("gone")));
  ASSERT_TRUE(eventually([&] {
    auto p = get("", "pods", "default", "gone");
    return p && condition(*p, "Ready") == "True";
  }));
  const Result<WriteResult, api::Status> removed = remove_pod("gone");
  ASSERT_TRUE(removed);
  EXPECT_EQ(removed->code, 202);  // graceful: the kubelet finishes it
  ASSERT_TRUE(eventually([&] { return !get("", "pods", "default", "gone"); }));
}

// kubelet runs a container's preStop sleep hook before it stops the
// container: the deleted pod stays Running (terminating) that long.
TEST_F(ClusterTest, APreStopSleepHookKeepsADeletedPodRunning) {
  start(1);
  ASSERT_TRUE(create("pods", "default",
                     json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"slow"},
                         "spec":{"containers":[{"name":"web","image":"nginx",
                           "lifecycle":{"preStop":{"sleep":{"seconds":2}}}}]}})")
                         .as_object()));
  ASSERT_TRUE(eventually([&] {
    auto p = get("", "pods", "default", "slow");
    return p && condition(*p, "Ready") == "True";
  }));
  ASSERT_TRUE(remove_pod("slow"));
  const auto deleted_at = std::chrono::steady_clock::now();
  EXPECT_EQ(pod_string("slow", "status", "phase"), "Running");
  ASSERT_TRUE(eventually([&] { return pod_string("slow", "status", "phase") != "Running"; }));
  // Not before the hook's two seconds.
  EXPECT_GE(std::chrono::steady_clock::now() - deleted_at, 1900ms);
  ASSERT_TRUE(eventually([&] { return !get("", "pods", "default", "slow"); }));
}

// The simulated components' watch copies leave managedFields out (none of
// them reads it); the stored object keeps it.
TEST_F(ClusterTest, WatchedCopiesLeaveManagedFieldsOut) {
  auto loop = std::make_shared<Loop>();
  loop->start();
  ApiAccess api(rest_, table_, loop);
  std::mutex mu;
  std::vector<json::object> seen;
  auto watch = api.watch(Kind::kPods, [&](ApiAccess::EventType, json::object pod) {
    const std::lock_guard lock(mu);
    seen.push_back(std::move(pod));
  });
  ASSERT_TRUE(watch) << watch.error();
  api.create(Kind::kPods, "default", pod("web-1"), [](ApiAccess::Outcome) {});
  ASSERT_TRUE(eventually([&] {
    const std::lock_guard lock(mu);
    return !seen.empty();
  }));
  const auto stored = get("", "pods", "default", "web-1");
  ASSERT_TRUE(stored);
  ASSERT_TRUE(api::find_array(stored->at("metadata").as_object(), "managedFields"));
  const std::lock_guard lock(mu);
  const json::object& metadata = seen.front().at("metadata").as_object();
  EXPECT_FALSE(metadata.contains("managedFields"));
  EXPECT_EQ(metadata.at("name"), "web-1");
  EXPECT_EQ(metadata.at("uid"), stored->at("metadata").at("uid"));
  loop->stop();
}

}  // namespace
}  // namespace kcm::local::cluster
