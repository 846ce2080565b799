// The garbage collector end to end: kcm-local (two simulated nodes) and kcm
// (garbage collector, deployment and replicaset controllers) as separate
// processes, driven by the real kubectl: the dispatcher and the bundled 1.27
// client called directly. Each `kubectl delete` cascade (background,
// foreground, orphan) of a Deployment, and a deletion made while kcm is down.
//
// Besides polling the API as a user would, each test watches the namespace's
// Deployments, ReplicaSets and pods; kcm-local's resourceVersions are global
// and strictly increasing, so the watch events order the deletions exactly
// (upstream: background deletes the owner first, foreground deletes it last).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "kcm_process.h"
#include "kubectl_clients.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

using std::chrono::milliseconds;
using std::chrono::seconds;

long long to_rv(const std::string& s) {
  try {
    return std::stoll(s);
  } catch (const std::exception&) {
    return -1;
  }
}

// One event of a `kubectl get -w --output-watch-events` stream.
struct WatchEvent {
  std::string type;  // ADDED, MODIFIED, DELETED
  long long rv = -1;
  std::string name, deletion_timestamp, finalizers, owner_uids;
};

// A watch of one resource in a namespace, for the order of the changes.
class KindWatch {
 public:
  KindWatch(const LocalCluster& cluster, const std::string& ns, const std::string& resource,
            const std::string& selector)
      : watch_(cluster, versioned_kubectl("1.32"),
               {"get", resource, "-n", ns, "-l", selector, "-w", "--output-watch-events", "-o",
                "jsonpath={.type}|{.object.metadata.resourceVersion}|{.object.metadata.name}|"
                "{.object.metadata.deletionTimestamp}|{.object.metadata.finalizers}|"
                "{.object.metadata.ownerReferences[*].uid}{\"\\n\"}"}) {}

  // Waits until the initial list shows `name`.
  bool wait_for(const std::string& name) { return watch_.wait_for("|" + name + "|", seconds(30)); }

  std::vector<WatchEvent> events() const {
    std::vector<WatchEvent> out;
    for (const std::string& line : lines_of(watch_.output())) {
      const std::vector<std::string> f = split(line, '|');
      if (f.size() < 6 || (f[0] != "ADDED" && f[0] != "MODIFIED" && f[0] != "DELETED")) continue;
      out.push_back({f[0], to_rv(f[1]), f[2], f[3], f[4], f[5]});
    }
    return out;
  }
  // The resourceVersion of `name`'s DELETED event; -1 when none.
  long long deleted_rv(const std::string& name) const {
    for (const WatchEvent& e : events())
      if (e.name == name && e.type == "DELETED") return e.rv;
    return -1;
  }
  // The first event showing `name` being deleted (deletionTimestamp set, or gone); -1 when none.
  long long deleting_rv(const std::string& name) const {
    for (const WatchEvent& e : events())
      if (e.name == name && (e.type == "DELETED" || !e.deletion_timestamp.empty())) return e.rv;
    return -1;
  }
  // The first event of `name` with deletionTimestamp set and `finalizer` among its finalizers.
  std::optional<WatchEvent> deleting_with(const std::string& name,
                                          const std::string& finalizer) const {
    for (const WatchEvent& e : events()) {
      if (e.name == name && e.type != "DELETED" && !e.deletion_timestamp.empty() &&
          e.finalizers.find("\"" + finalizer + "\"") != std::string::npos) {
        return e;
      }
    }
    return std::nullopt;
  }
  std::set<std::string> names() const {
    std::set<std::string> out;
    for (const WatchEvent& e : events())
      out.insert(e.name);
    return out;
  }
  std::string output() const { return watch_.output(); }

 private:
  BackgroundKubectl watch_;
};

// The clients under test: the dispatcher and one bundled client called directly.
struct Client {
  std::string name;
  std::string binary;
};

void PrintTo(const Client& c, std::ostream* os) {
  *os << c.binary;
}

std::vector<Client> clients() {
  return {{"dispatcher", "kubectl"}, {"kubectl_1_27", versioned_kubectl("1.27")}};
}

// A pod as the tests read it.
struct PodInfo {
  std::string name, uid, deletion_timestamp, ready, owner;
};

const std::vector<std::string> kKcmArgs = {
    "--leader-elect=false",
    "--controllers=garbage-collector-controller,deployment-controller,replicaset-controller"};

// One cluster and one kcm for the suite; every test works in its own namespace.
class GarbageCollectorTest : public ::testing::TestWithParam<Client> {
 protected:
  static void SetUpTestSuite() {
    LocalCluster::Options o;
    // Pods take 2 s to stop once deleted, so a foreground deletion lasts long
    // enough to be seen in progress.
    o.extra_args = {"--nodes=2", "--pod-ready-delay=300ms", "--pod-terminate-delay=2s"};
    cluster_ = std::make_unique<LocalCluster>(o);
    kcm_ = std::make_unique<KcmProcess>(*cluster_, kKcmArgs);
  }
  static void TearDownTestSuite() {
    kcm_.reset();
    cluster_.reset();
  }

  void SetUp() override {
    // A test that failed while kcm was stopped leaves it stopped.
    if (!kcm_->running()) kcm_ = std::make_unique<KcmProcess>(*cluster_, kKcmArgs);
    ns_ = "gc-" + std::to_string(++counter_);
    const CommandResult r = kubectl_({"create", "namespace", ns_});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
  }
  void TearDown() override {
    if (HasFailure()) {
      const std::string log = kcm_->log();
      ADD_FAILURE() << "kcm log tail:\n"
                    << (log.size() > 6000 ? log.substr(log.size() - 6000) : log) << "\nstate of "
                    << ns_ << ":\n"
                    << kubectl_({"get", "deployments,replicasets,pods", "-n", ns_, "-o", "wide",
                                 "--show-labels"})
                           .out;
    }
  }

  // The client under test, in the test's namespace.
  CommandResult run(std::vector<std::string> args) {
    args.insert(args.end(), {"-n", ns_});
    return client_(args, {}, seconds(90));
  }
  std::string ok(std::vector<std::string> args) {
    const CommandResult r = run(args);
    std::string command = "kubectl";
    for (const auto& a : args)
      command += " " + a;
    EXPECT_EQ(r.exit_code, 0) << command << "\n" << describe(r);
    return r.out;
  }
  // `kubectl get <what...> -o jsonpath=<path>`; "<error>" when it failed.
  std::string jsonpath(std::vector<std::string> what, const std::string& path) {
    what.insert(what.begin(), "get");
    what.insert(what.end(), {"-o", "jsonpath=" + path});
    const CommandResult r = run(what);
    return r.exit_code == 0 ? r.out : "<" + r.err + ">";
  }
  // `kubectl get rs,pods -l app=<app> -o name`.
  std::vector<std::string> rs_and_pods(const std::string& app) {
    const CommandResult r = run({"get", "rs,pods", "-l", "app=" + app, "-o", "name"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    if (r.exit_code != 0) return {"<error>"};
    return lines_of(r.out);
  }
  bool all_gone(const std::string& app, seconds timeout = seconds(60)) {
    return eventually([&] { return rs_and_pods(app).empty(); }, timeout, milliseconds(250));
  }

  // Creates Deployment `name` (label app=<name>) with the client and waits until
  // its pods are Ready.
  void create_ready(const std::string& name, int replicas = 3) {
    EXPECT_EQ(ok({"create", "deployment", name, "--image=nginx:1.25",
                  "--replicas=" + std::to_string(replicas)}),
              "deployment.apps/" + name + " created\n");
    const std::string want = std::to_string(replicas);
    EXPECT_TRUE(eventually(
        [&] {
          return jsonpath({"deployment", name}, "{.status.readyReplicas}") == want &&
                 pods(name).size() == static_cast<std::size_t>(replicas);
        },
        seconds(60), milliseconds(250)))
        << jsonpath({"deployment", name}, "{.status}");
  }

  // The ReplicaSets of `app`: "name|uid|ownerReferences|deletionTimestamp" each.
  std::vector<std::string> replica_sets(const std::string& app) {
    return lines_of(jsonpath({"rs", "-l", "app=" + app},
                             "{range .items[*]}{.metadata.name}|{.metadata.uid}|"
                             "{.metadata.ownerReferences}|{.metadata.deletionTimestamp}"
                             "{\"\\n\"}{end}"));
  }
  std::vector<PodInfo> pods(const std::string& app) {
    std::vector<PodInfo> out;
    for (const std::string& line :
         lines_of(jsonpath({"pods", "-l", "app=" + app},
                           "{range .items[*]}{.metadata.name}|{.metadata.uid}|"
                           "{.metadata.deletionTimestamp}|"
                           "{.status.conditions[?(@.type==\"Ready\")].status}|"
                           "{.metadata.ownerReferences[*].name}{\"\\n\"}{end}"))) {
      const std::vector<std::string> f = split(line, '|');
      if (f.size() >= 5) out.push_back({f[0], f[1], f[2], f[3], f[4]});
    }
    return out;
  }
  static std::string uids(const std::vector<PodInfo>& ps) {
    std::vector<std::string> u;
    for (const PodInfo& p : ps)
      u.push_back(p.name + "=" + p.uid);
    std::sort(u.begin(), u.end());
    std::string s;
    for (const std::string& x : u)
      s += x + " ";
    return s;
  }
  static std::string not_found(const std::string& name) {
    return "Error from server (NotFound): deployments.apps \"" + name + "\" not found\n";
  }

  inline static std::unique_ptr<LocalCluster> cluster_;
  inline static std::unique_ptr<KcmProcess> kcm_;
  inline static int counter_ = 0;
  Kubectl kubectl_{*cluster_};                    // the dispatcher, for setup and diagnostics
  Kubectl client_{*cluster_, GetParam().binary};  // the client under test
  std::string ns_;
};

TEST_P(GarbageCollectorTest, BackgroundCascadeDeletesTheReplicaSetAndPodsAfterTheDeployment) {
  create_ready("web");
  const std::vector<std::string> rs = replica_sets("web");
  ASSERT_EQ(rs.size(), 1u);
  const std::string rs_name = split(rs[0], '|')[0];
  const std::vector<PodInfo> before = pods("web");
  ASSERT_EQ(before.size(), 3u);

  KindWatch deployments(*cluster_, ns_, "deployments", "app=web");
  KindWatch replicasets(*cluster_, ns_, "replicasets", "app=web");
  KindWatch pod_watch(*cluster_, ns_, "pods", "app=web");
  ASSERT_TRUE(deployments.wait_for("web") && replicasets.wait_for(rs_name) &&
              pod_watch.wait_for(before[0].name));

  EXPECT_EQ(ok({"delete", "deployment", "web"}), "deployment.apps \"web\" deleted\n");
  // Gone at once: no finalizer holds a background deletion.
  const CommandResult gone = run({"get", "deployment", "web"});
  EXPECT_NE(gone.exit_code, 0);
  EXPECT_EQ(gone.err, not_found("web"));

  EXPECT_TRUE(all_gone("web")) << testing::PrintToString(rs_and_pods("web"));
  EXPECT_TRUE(eventually([&] { return pod_watch.deleted_rv(before[2].name) > 0; }, seconds(10)));

  // The owner first, then the ReplicaSet (orphaned), then its pods.
  const long long d_deleted = deployments.deleted_rv("web");
  const long long rs_deleted = replicasets.deleted_rv(rs_name);
  ASSERT_GT(d_deleted, 0) << deployments.output();
  ASSERT_GT(rs_deleted, 0) << replicasets.output();
  EXPECT_GT(rs_deleted, d_deleted) << replicasets.output() << deployments.output();
  // The Deployment was never marked for a foreground or orphan deletion.
  EXPECT_EQ(deployments.deleting_rv("web"), d_deleted) << deployments.output();
  for (const PodInfo& p : before) {
    const long long deleting = pod_watch.deleting_rv(p.name);
    EXPECT_GT(deleting, rs_deleted) << p.name << "\n" << pod_watch.output();
    EXPECT_GT(pod_watch.deleted_rv(p.name), 0) << p.name << "\n" << pod_watch.output();
  }
  // No replacement pod was made while the ReplicaSet still existed.
  std::set<std::string> names;
  for (const PodInfo& p : before)
    names.insert(p.name);
  EXPECT_EQ(pod_watch.names(), names) << pod_watch.output();
}

TEST_P(GarbageCollectorTest, DebugGraphShowsTheDeploymentsOwnershipChain) {
  create_ready("graph", 2);
  const std::string d_uid = jsonpath({"deployment", "graph"}, "{.metadata.uid}");
  const std::vector<std::string> rs = replica_sets("graph");
  ASSERT_EQ(rs.size(), 1u);
  const std::string rs_uid = split(rs[0], '|')[1];
  const std::vector<PodInfo> ps = pods("graph");
  ASSERT_EQ(ps.size(), 2u);

  // upstream's debugging endpoint: the part of the graph connected to the
  // Deployment, dependents pointing at their owners.
  const std::string path = "/debug/controllers/garbage-collector-controller/graph?uid=" + d_uid;
  std::string dot;
  EXPECT_TRUE(eventually(
      [&] {
        const auto r = kcm_->get(path);
        dot = r.body;
        return r.status == 200 && dot.find("\"" + ps[1].uid + "\" -> ") != std::string::npos;
      },
      seconds(20)))
      << dot;
  EXPECT_TRUE(dot.starts_with("strict digraph full {\n  // Node definitions.\n")) << dot;
  EXPECT_NE(dot.find("  \"" + rs_uid + "\" -> \"" + d_uid + "\";\n"), std::string::npos) << dot;
  for (const PodInfo& p : ps)
    EXPECT_NE(dot.find("  \"" + p.uid + "\" -> \"" + rs_uid + "\";\n"), std::string::npos) << dot;
  EXPECT_NE(dot.find("    label=\"uid=" + d_uid + "\\nnamespace=" + ns_ +
                     "\\nDeployment.v1.apps/graph\\n\"\n"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("    label=\"uid=" + ps[0].uid + "\\nnamespace=" + ns_ + "\\nPod.v1/" +
                     ps[0].name + "\\n\"\n"),
            std::string::npos)
      << dot;
  // Three objects' worth of nodes: the Deployment, its ReplicaSet, two pods.
  std::size_t vertices = 0;
  for (std::size_t at = dot.find(" [\n"); at != std::string::npos; at = dot.find(" [\n", at + 1))
    ++vertices;
  EXPECT_EQ(vertices, 4u) << dot;
  EXPECT_TRUE(dot.ends_with("}\n")) << dot;

  // Only /graph is served below the controller's prefix.
  const auto bare = kcm_->get("/debug/controllers/garbage-collector-controller");
  EXPECT_EQ(bare.status, 404);
  EXPECT_EQ(bare.body, "\n");
  EXPECT_EQ(kcm_->get("/debug/controllers/deployment-controller/graph").status, 404);
}

TEST_P(GarbageCollectorTest, ForegroundCascadeDeletesTheDeploymentLast) {
  create_ready("web");
  const std::vector<std::string> rs = replica_sets("web");
  ASSERT_EQ(rs.size(), 1u);
  const std::string rs_name = split(rs[0], '|')[0];
  const std::vector<PodInfo> before = pods("web");
  ASSERT_EQ(before.size(), 3u);

  KindWatch deployments(*cluster_, ns_, "deployments", "app=web");
  KindWatch replicasets(*cluster_, ns_, "replicasets", "app=web");
  KindWatch pod_watch(*cluster_, ns_, "pods", "app=web");
  ASSERT_TRUE(deployments.wait_for("web") && replicasets.wait_for(rs_name) &&
              pod_watch.wait_for(before[0].name));

  EXPECT_EQ(ok({"delete", "deployment", "web", "--cascade=foreground", "--wait=false"}),
            "deployment.apps \"web\" deleted\n");
  // Still there, held by the foregroundDeletion finalizer while its dependents go
  // (the pods take 2 s to stop).
  const std::vector<std::string> state = split(
      jsonpath({"deployment", "web"}, "{.metadata.deletionTimestamp}|{.metadata.finalizers}"), '|');
  ASSERT_EQ(state.size(), 2u) << testing::PrintToString(state);
  EXPECT_THAT(state[0], Not(IsEmpty()));
  EXPECT_EQ(state[1], "[\"foregroundDeletion\"]");
  EXPECT_THAT(rs_and_pods("web"), Not(IsEmpty()));
  // The ReplicaSet is deleted in the foreground too (it has dependents) and its
  // pods are terminating, while the Deployment still exists.
  EXPECT_TRUE(eventually(
      [&] {
        const std::vector<std::string> now = replica_sets("web");
        return now.size() == 1 && !split(now[0], '|')[3].empty() &&
               jsonpath({"deployment", "web"}, "{.metadata.name}") == "web";
      },
      seconds(30), milliseconds(100)))
      << testing::PrintToString(replica_sets("web"));

  const CommandResult waited = run({"wait", "--for=delete", "deployment/web", "--timeout=60s"});
  EXPECT_EQ(waited.exit_code, 0) << describe(waited);
  // Once the Deployment is gone, nothing of it is left.
  EXPECT_THAT(rs_and_pods("web"), IsEmpty());
  const CommandResult gone = run({"get", "deployment", "web"});
  EXPECT_EQ(gone.err, not_found("web"));

  ASSERT_TRUE(eventually([&] { return deployments.deleted_rv("web") > 0; }, seconds(10)))
      << deployments.output();
  const long long d_deleted = deployments.deleted_rv("web");
  const long long rs_deleted = replicasets.deleted_rv(rs_name);
  const std::optional<WatchEvent> d_marked = deployments.deleting_with("web", "foregroundDeletion");
  const std::optional<WatchEvent> rs_marked =
      replicasets.deleting_with(rs_name, "foregroundDeletion");
  ASSERT_TRUE(d_marked.has_value()) << deployments.output();
  ASSERT_TRUE(rs_marked.has_value()) << replicasets.output();
  ASSERT_GT(rs_deleted, 0) << replicasets.output();
  // Marked: the Deployment, then its ReplicaSet, then the pods; gone: the pods,
  // then the ReplicaSet, the Deployment last.
  EXPECT_LT(d_marked->rv, rs_marked->rv);
  EXPECT_LT(rs_deleted, d_deleted);
  for (const PodInfo& p : before) {
    EXPECT_GT(pod_watch.deleting_rv(p.name), rs_marked->rv) << p.name << "\n" << pod_watch.output();
    const long long p_deleted = pod_watch.deleted_rv(p.name);
    EXPECT_GT(p_deleted, 0) << p.name << "\n" << pod_watch.output();
    EXPECT_LT(p_deleted, rs_deleted) << p.name << "\n"
                                     << pod_watch.output() << replicasets.output();
  }
}

TEST_P(GarbageCollectorTest, OrphanCascadeKeepsTheReplicaSetAndItsPodsRunning) {
  create_ready("web");
  const std::vector<std::string> rs = replica_sets("web");
  ASSERT_EQ(rs.size(), 1u);
  const std::vector<std::string> rs_fields = split(rs[0], '|');
  const std::string rs_name = rs_fields[0];
  EXPECT_THAT(rs_fields[2], HasSubstr("\"kind\":\"Deployment\""));
  const std::vector<PodInfo> before = pods("web");
  ASSERT_EQ(before.size(), 3u);

  KindWatch deployments(*cluster_, ns_, "deployments", "app=web");
  KindWatch replicasets(*cluster_, ns_, "replicasets", "app=web");
  ASSERT_TRUE(deployments.wait_for("web") && replicasets.wait_for(rs_name));

  // kubectl waits for the deletion, which the orphan finalizer holds until the
  // garbage collector has released the ReplicaSet.
  EXPECT_EQ(ok({"delete", "deployment", "web", "--cascade=orphan"}),
            "deployment.apps \"web\" deleted\n");
  const CommandResult gone = run({"get", "deployment", "web"});
  EXPECT_NE(gone.exit_code, 0);
  EXPECT_EQ(gone.err, not_found("web"));

  // The same ReplicaSet, without owner, not being deleted.
  EXPECT_EQ(jsonpath({"rs", "-l", "app=web"}, "{.items[*].metadata.ownerReferences}"), "");
  EXPECT_EQ(replica_sets("web"), std::vector<std::string>{rs_name + "|" + rs_fields[1] + "||"});

  // The ReplicaSet lost its owner before the Deployment went.
  ASSERT_TRUE(eventually([&] { return deployments.deleted_rv("web") > 0; }, seconds(10)))
      << deployments.output();
  const std::optional<WatchEvent> marked = deployments.deleting_with("web", "orphan");
  ASSERT_TRUE(marked.has_value()) << deployments.output();
  long long released = -1;
  for (const WatchEvent& e : replicasets.events()) {
    if (e.name == rs_name && e.owner_uids.empty()) {
      released = e.rv;
      break;
    }
  }
  ASSERT_GT(released, 0) << replicasets.output();
  EXPECT_GT(released, marked->rv);
  EXPECT_LT(released, deployments.deleted_rv("web"));
  EXPECT_EQ(replicasets.deleting_rv(rs_name), -1) << replicasets.output();

  // Its pods keep running: the same ones, Ready, owned by the ReplicaSet.
  std::this_thread::sleep_for(seconds(4));
  const std::vector<PodInfo> after = pods("web");
  EXPECT_EQ(uids(after), uids(before));
  for (const PodInfo& p : after) {
    EXPECT_EQ(p.deletion_timestamp, "") << p.name;
    EXPECT_EQ(p.ready, "True") << p.name;
    EXPECT_EQ(p.owner, rs_name) << p.name;
  }
  EXPECT_EQ(jsonpath({"rs", rs_name}, "{.spec.replicas}/{.status.readyReplicas}"), "3/3");
  EXPECT_EQ(replica_sets("web"), std::vector<std::string>{rs_name + "|" + rs_fields[1] + "||"});
}

TEST_P(GarbageCollectorTest, DeletionWhileKcmIsDownIsCollectedAfterRestart) {
  create_ready("web");
  create_ready("live");
  const std::vector<std::string> web_rs = replica_sets("web");
  const std::vector<std::string> live_rs = replica_sets("live");
  ASSERT_EQ(web_rs.size(), 1u);
  ASSERT_EQ(live_rs.size(), 1u);
  const std::vector<PodInfo> web_pods = pods("web");
  const std::vector<PodInfo> live_pods = pods("live");
  ASSERT_EQ(web_pods.size(), 3u);
  ASSERT_EQ(live_pods.size(), 3u);

  // Nothing of `live` may be deleted at any point.
  KindWatch live_replicasets(*cluster_, ns_, "replicasets", "app=live");
  KindWatch live_pod_watch(*cluster_, ns_, "pods", "app=live");
  ASSERT_TRUE(live_replicasets.wait_for(split(live_rs[0], '|')[0]) &&
              live_pod_watch.wait_for(live_pods[0].name));

  EXPECT_EQ(kcm_->stop(), 0) << kcm_->log();
  EXPECT_EQ(ok({"delete", "deployment", "web"}), "deployment.apps \"web\" deleted\n");
  EXPECT_EQ(run({"get", "deployment", "web"}).err, not_found("web"));
  // No garbage collector runs: the ReplicaSet and pods stay, untouched.
  std::this_thread::sleep_for(seconds(4));
  EXPECT_EQ(replica_sets("web"), web_rs);
  EXPECT_EQ(uids(pods("web")), uids(web_pods));
  for (const PodInfo& p : pods("web"))
    EXPECT_EQ(p.deletion_timestamp, "") << p.name;

  kcm_ = std::make_unique<KcmProcess>(*cluster_, kKcmArgs);
  EXPECT_TRUE(all_gone("web", seconds(90))) << testing::PrintToString(rs_and_pods("web"));

  // Give a wrong collection of `live` time to show, then check it is intact.
  std::this_thread::sleep_for(seconds(3));
  EXPECT_EQ(replica_sets("live"), live_rs);
  const std::vector<PodInfo> live_after = pods("live");
  EXPECT_EQ(uids(live_after), uids(live_pods));
  for (const PodInfo& p : live_after) {
    EXPECT_EQ(p.deletion_timestamp, "") << p.name;
    EXPECT_EQ(p.ready, "True") << p.name;
  }
  EXPECT_EQ(jsonpath({"deployment", "live"}, "{.status.readyReplicas}"), "3");
  for (const KindWatch* w : {&live_replicasets, &live_pod_watch}) {
    for (const WatchEvent& e : w->events()) {
      EXPECT_NE(e.type, "DELETED") << w->output();
      EXPECT_EQ(e.deletion_timestamp, "") << w->output();
    }
  }
  EXPECT_TRUE(kcm_->running());
}

INSTANTIATE_TEST_SUITE_P(GarbageCollector, GarbageCollectorTest, ::testing::ValuesIn(clients()),
                         [](const ::testing::TestParamInfo<Client>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace kcm::e2e
