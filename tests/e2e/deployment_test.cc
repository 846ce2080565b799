// The Deployment controller end to end: kcm-local (three simulated nodes) and
// kcm as separate processes, driven by the real kubectl (the dispatcher, and
// bundled clients called directly). Expected texts are upstream's: kubectl
// prints its own, and the events and condition reasons and messages are those
// of upstream's deployment controller (shared/spec/deployment-replicaset.md §2, §6).
//
// During rollouts a RolloutWatch watches the namespace's Deployments,
// ReplicaSets and pods and the tests check upstream's bounds on every state they
// went through (see rolling_violations and recreate_violations).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "kcm_process.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::ContainsRegex;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::MatchesRegex;
using ::testing::Not;
using ::testing::StartsWith;

using std::chrono::milliseconds;
using std::chrono::seconds;

// What a pod-template-hash looks like (upstream's SafeEncodeString alphabet).
constexpr const char* kHashPattern = "[bcdfghjklmnpqrstvwxz2456789]{1,10}";

int to_int(const std::string& s) {
  if (s.empty()) return 0;
  try {
    return std::stoi(s);
  } catch (const std::exception&) {
    return -1;
  }
}

// The state of one kind in the test's namespace after one watch event: what a
// single list at that resourceVersion would have returned.
struct Snapshot {
  struct ReplicaSet {
    std::string name, hash;
    int spec = 0, replicas = 0, available = 0;
  };
  struct Pod {
    std::string name, hash, phase;
    bool terminating = false, ready = false;
  };
  struct Deployment {
    std::string name;
    int replicas = 0, available = 0;
  };
  std::string kind;                // "Deployment", "ReplicaSet" or "Pod": the only one filled in
  long long resource_version = 0;  // of the event (the marker's for the initial list)
  std::vector<Deployment> deployments;
  std::vector<ReplicaSet> replica_sets;
  std::vector<Pod> pods;
  std::string text;  // the event and the resulting objects, for messages
};

// What `kubectl get <kind> -w --output-watch-events -o jsonpath=...` prints per event:
// type|resourceVersion|name|fields...
struct WatchedKind {
  std::string kind, resource, fields;
};
const std::vector<WatchedKind>& watched_kinds() {
  static const std::vector<WatchedKind> kinds = {
      {"Deployment", "deployments", "{.object.status.replicas}|{.object.status.availableReplicas}"},
      {"ReplicaSet", "replicasets",
       "{.object.metadata.labels.pod-template-hash}|{.object.spec.replicas}|"
       "{.object.status.replicas}|{.object.status.availableReplicas}"},
      {"Pod", "pods",
       "{.object.metadata.labels.pod-template-hash}|{.object.metadata.deletionTimestamp}|"
       "{.object.status.phase}|{.object.status.conditions[?(@.type==\"Ready\")].status}"},
  };
  return kinds;
}

// `objects`: name -> the fields after the name.
Snapshot make_snapshot(const std::string& kind, long long resource_version,
                       const std::map<std::string, std::vector<std::string>>& objects,
                       const std::string& event) {
  Snapshot s;
  s.kind = kind;
  s.resource_version = resource_version;
  s.text = "after " + event + "\n";
  for (const auto& [name, f] : objects) {
    std::string line = "  " + kind + " " + name;
    for (const std::string& v : f)
      line += " " + (v.empty() ? std::string("-") : v);
    s.text += line + "\n";
    if (kind == "Deployment" && f.size() >= 2) {
      s.deployments.push_back({name, to_int(f[0]), to_int(f[1])});
    } else if (kind == "ReplicaSet" && f.size() >= 4) {
      s.replica_sets.push_back({name, f[0], to_int(f[1]), to_int(f[2]), to_int(f[3])});
    } else if (kind == "Pod" && f.size() >= 4) {
      s.pods.push_back({name, f[0], f[2], !f[1].empty(), f[3] == "True"});
    }
  }
  return s;
}

// Watches the namespace's Deployments, ReplicaSets and pods with one
// `kubectl get -w` each, from before a change until stop(), and returns every
// state each kind went through from the change on. A watch sees every
// intermediate state, which polling with kubectl (0.2-0.7 s a call on a loaded
// machine) would miss.
//
// kubectl prints a watch's initial list as ADDED events too; to tell those from
// the change, the constructor waits for the lists and then writes a marker (a
// namespace annotation): the watch events after the marker's resourceVersion
// (kcm-local's is global and strictly increasing) are the change's, and the
// state before the first of them is the starting point.
class RolloutWatch {
 public:
  RolloutWatch(const LocalCluster& cluster, const std::string& ns)
      : dir_(std::make_unique<TempDir>("kcm-rollout-watch-")) {
    const std::string kubectl = versioned_kubectl("1.32");  // no dispatcher round trip
    for (const WatchedKind& k : watched_kinds()) {
      const std::filesystem::path cache = dir_->path() / ("cache-" + k.resource);
      Stream s;
      s.kind = k.kind;
      s.log = dir_->path() / (k.resource + ".log");
      s.process =
          Process({kubectl, "get", k.resource, "-n", ns, "-w", "--output-watch-events", "-o",
                   "jsonpath={.type}|{.object.metadata.resourceVersion}|{.object.metadata.name}|" +
                       k.fields + "{\"\\n\"}"},
                  s.log,
                  {{"KUBECONFIG", cluster.kubeconfig().string()},
                   {"KUBECACHEDIR", cache.string()},
                   {"HOME", dir_->path().string()}});
      streams_.push_back(std::move(s));
    }
    ready_ = eventually(
        [&] {
          return std::all_of(streams_.begin(), streams_.end(),
                             [](const Stream& s) { return !read_file(s.log).empty(); });
        },
        seconds(30), milliseconds(20));
    const CommandResult mark =
        Kubectl(cluster, kubectl)({"annotate", "namespace", ns, "--overwrite",
                                   "kcm.test/watch-mark=" + std::to_string(++marks_), "-o",
                                   "jsonpath={.metadata.resourceVersion}"});
    mark_ = mark.exit_code == 0 ? std::stoll("0" + mark.out) : -1;
  }
  ~RolloutWatch() { stop(); }
  RolloutWatch(const RolloutWatch&) = delete;
  RolloutWatch& operator=(const RolloutWatch&) = delete;

  // False when the watches or the marker failed (the samples then mean nothing).
  bool ready() const { return ready_ && mark_ > 0; }

  // Stops the watches; every state from the change on, per kind, in watch order.
  std::vector<Snapshot> stop() {
    std::vector<Snapshot> out;
    for (Stream& s : streams_) {
      if (s.stopped) continue;
      s.process.stop(SIGTERM, seconds(5));
      s.stopped = true;
      std::map<std::string, std::vector<std::string>> objects;
      bool changing = false;
      for (const std::string& line : lines_of(read_file(s.log))) {
        std::vector<std::string> f = split(line, '|');
        if (f.size() < 3 || (f[0] != "ADDED" && f[0] != "MODIFIED" && f[0] != "DELETED")) continue;
        const long long rv = std::stoll("0" + f[1]);
        if (!changing && rv > mark_) {
          changing = true;
          out.push_back(make_snapshot(s.kind, mark_, objects, "the initial list"));
        }
        if (f[0] == "DELETED") {
          objects.erase(f[2]);
        } else {
          objects[f[2]] = std::vector<std::string>(f.begin() + 3, f.end());
        }
        if (changing) out.push_back(make_snapshot(s.kind, rv, objects, line));
      }
    }
    return out;
  }

 private:
  struct Stream {
    std::string kind;
    std::filesystem::path log;
    Process process;
    bool stopped = false;
  };
  std::unique_ptr<TempDir> dir_;
  std::vector<Stream> streams_;
  bool ready_ = false;
  long long mark_ = -1;
  inline static int marks_ = 0;
};

// Upstream's bounds during a rolling update of a Deployment with `replicas` and
// resolved maxSurge / maxUnavailable, checked on every watched state:
//  - the sum of the ReplicaSets' .spec.replicas <= replicas + maxSurge;
//  - the sum of the ReplicaSets' .status.availableReplicas >= replicas - maxUnavailable;
//  - the Deployment's .status.availableReplicas >= replicas - maxUnavailable
//    (upstream's e2e check). Not its .status.replicas: that sums the RSs'
//    .status.replicas, and an RS's status still counts the pods it is deleting
//    until its next sync (upstream computes it from the pods listed before the
//    deletions), so the sum may briefly exceed the bound while the new RS grows;
//  - the pods without deletionTimestamp that are Ready number >= replicas -
//    maxUnavailable;
//  - no ReplicaSet ever has more pods without deletionTimestamp than the most
//    its .spec.replicas has been up to that point of the watch (its controller
//    never creates beyond what it was asked for).
// Not that all pods without deletionTimestamp number <= replicas + maxSurge:
// upstream bounds the ReplicaSets' specs, not their pods. When the Deployment
// controller scales an old ReplicaSet down and then, in its next sync, the new
// one up, the two ReplicaSet controllers delete and create concurrently, and
// the creation may commit first; for that moment the pods exceed the bound by
// the deletions in flight, each within its ReplicaSet's earlier spec.
// The pod states are matched with the ReplicaSet states by resourceVersion
// (kcm-local's is global). Returns one message per violation (at most 8).
std::vector<std::string> rolling_violations(const std::vector<Snapshot>& samples, int replicas,
                                            int max_surge, int max_unavailable) {
  const int most = replicas + max_surge;
  const int least = replicas - max_unavailable;
  // Each ReplicaSet's largest .spec.replicas as of a resourceVersion.
  std::vector<const Snapshot*> rs_states;
  for (const Snapshot& s : samples)
    if (s.kind == "ReplicaSet") rs_states.push_back(&s);
  const auto largest_specs = [&](long long resource_version) {
    std::map<std::string, int> largest;  // by pod-template-hash
    for (const Snapshot* s : rs_states) {
      if (s->resource_version > resource_version) break;
      for (const auto& rs : s->replica_sets)
        largest[rs.hash] = std::max(largest[rs.hash], rs.spec);
    }
    return largest;
  };
  std::vector<std::string> out;
  for (const Snapshot& s : samples) {
    std::vector<std::string> bad;
    if (s.kind == "ReplicaSet") {
      int spec = 0, available = 0;
      for (const auto& rs : s.replica_sets) {
        spec += rs.spec;
        available += rs.available;
      }
      if (spec > most) bad.push_back("sum of ReplicaSet .spec.replicas " + std::to_string(spec));
      if (available < least)
        bad.push_back("sum of ReplicaSet .status.availableReplicas " + std::to_string(available));
    } else if (s.kind == "Deployment") {
      for (const auto& d : s.deployments) {
        if (d.available < least)
          bad.push_back("Deployment .status.availableReplicas " + std::to_string(d.available));
      }
    } else if (s.kind == "Pod") {
      int live_ready = 0;
      std::map<std::string, int> live;  // by pod-template-hash
      for (const auto& p : s.pods) {
        if (p.terminating) continue;
        ++live[p.hash];
        if (p.ready) ++live_ready;
      }
      const std::map<std::string, int> largest = largest_specs(s.resource_version);
      for (const auto& [hash, count] : live) {
        const auto it = largest.find(hash);
        const int spec = it == largest.end() ? 0 : it->second;
        if (count > spec) {
          bad.push_back("pods of ReplicaSet " + hash + " not terminating " + std::to_string(count) +
                        ", its .spec.replicas at most " + std::to_string(spec));
        }
      }
      if (live_ready < least)
        bad.push_back("Ready pods not terminating " + std::to_string(live_ready));
    }
    for (const std::string& b : bad) {
      if (out.size() < 8) {
        out.push_back(b + " (bounds " + std::to_string(least) + ".." + std::to_string(most) + ") " +
                      s.text);
      }
    }
  }
  return out;
}

// The checker itself, on states written out by hand (no cluster): the trace of
// a rolling update of 3 replicas with maxSurge 1, maxUnavailable 0, in which
// the new ReplicaSet's second pod was created before the old ReplicaSet's
// deletion committed (seen in CI), and the same trace with an old ReplicaSet
// that creates a pod beyond its spec.
class RollingViolationsTest : public ::testing::Test {
 protected:
  using Objects = std::map<std::string, std::vector<std::string>>;
  // Each ReplicaSet with all of its spec's pods available.
  void replica_sets(long long rv, int old_spec, int new_spec) {
    const std::string o = std::to_string(old_spec), n = std::to_string(new_spec);
    samples_.push_back(make_snapshot(
        "ReplicaSet", rv, Objects{{"web-old", {"old", o, o, o}}, {"web-new", {"new", n, n, n}}},
        "rs " + std::to_string(rv)));
  }
  // pods: name -> hash, or hash + " terminating".
  void pods(long long rv, const std::map<std::string, std::string>& pods) {
    Objects objects;
    for (const auto& [name, what] : pods) {
      const bool terminating = what.ends_with(" terminating");
      objects[name] = {what.substr(0, what.find(' ')), terminating ? "2026-12-01T20:01:23Z" : "",
                       "Running", "True"};
    }
    samples_.push_back(make_snapshot("Pod", rv, objects, "pods " + std::to_string(rv)));
  }
  std::vector<Snapshot> samples_;
};

TEST_F(RollingViolationsTest, ACreationCommittedBeforeAConcurrentDeletionIsNoViolation) {
  replica_sets(100, 3, 0);
  pods(100, {{"a", "old"}, {"b", "old"}, {"c", "old"}});
  replica_sets(101, 3, 1);
  pods(102, {{"a", "old"}, {"b", "old"}, {"c", "old"}, {"x", "new"}});
  replica_sets(103, 2, 1);
  replica_sets(104, 2, 2);
  // The new ReplicaSet's creation commits before the old one's deletion of c.
  pods(105, {{"a", "old"}, {"b", "old"}, {"c", "old"}, {"x", "new"}, {"y", "new"}});
  pods(106, {{"a", "old"}, {"b", "old"}, {"c", "old terminating"}, {"x", "new"}, {"y", "new"}});
  EXPECT_THAT(rolling_violations(samples_, 3, 1, 0), IsEmpty());
  // The ReplicaSets' specs went to 4, over a surge of 0.
  EXPECT_THAT(rolling_violations(samples_, 3, 0, 0),
              ElementsAre(HasSubstr("sum of ReplicaSet .spec.replicas 4"),
                          HasSubstr("sum of ReplicaSet .spec.replicas 4")));
}

TEST_F(RollingViolationsTest, APodBeyondEverySpecItsReplicaSetHadIsAViolation) {
  replica_sets(100, 3, 0);
  pods(100, {{"a", "old"}, {"b", "old"}, {"c", "old"}});
  replica_sets(101, 3, 1);
  pods(102, {{"a", "old"}, {"b", "old"}, {"c", "old"}, {"x", "new"}});
  // A second new pod before the new ReplicaSet was asked for 2.
  pods(103, {{"a", "old"}, {"b", "old"}, {"c", "old"}, {"x", "new"}, {"y", "new"}});
  replica_sets(104, 2, 2);
  EXPECT_THAT(rolling_violations(samples_, 3, 1, 0),
              ElementsAre(HasSubstr("pods of ReplicaSet new not terminating 2, its "
                                    ".spec.replicas at most 1 (bounds 3..4) after pods 103")));
}

// Upstream's Recreate rule (rolloutRecreate and oldPodsRunning): no pod of the
// new template exists while a pod of the old one is in a non-terminal phase,
// terminating or not; and no new ReplicaSet has replicas while the old ones
// still report pods (.status.replicas). A terminating pod already Succeeded or
// Failed no longer blocks (kcm-local's kubelet ends a deleted pod that way at once).
std::vector<std::string> recreate_violations(const std::vector<Snapshot>& samples,
                                             const std::string& old_hash) {
  std::vector<std::string> out;
  for (const Snapshot& s : samples) {
    if (out.size() >= 8) break;
    bool new_pod = false, old_running = false, new_rs_scaled = false;
    int old_status = 0;
    for (const auto& p : s.pods) {
      if (p.hash != old_hash) {
        new_pod = true;
      } else if (p.phase != "Succeeded" && p.phase != "Failed") {
        old_running = true;
      }
    }
    for (const auto& rs : s.replica_sets) {
      if (rs.hash == old_hash) {
        old_status += rs.replicas;
      } else if (rs.spec > 0) {
        new_rs_scaled = true;
      }
    }
    if (new_pod && old_running)
      out.push_back("a new pod exists beside an old pod not yet terminal " + s.text);
    if (new_rs_scaled && old_status > 0)
      out.push_back("the new ReplicaSet has replicas while old ones report pods " + s.text);
  }
  return out;
}

// A ReplicaSet as the tests read it.
struct RsInfo {
  std::string name, hash, image;
  int spec = 0, replicas = 0, available = 0;
  std::string revision, history, cause;
};

struct DeploymentYaml {
  std::string name = "web";
  int replicas = 3;
  std::string image = "nginx:1.25";
  std::string strategy = "RollingUpdate";  // or "Recreate"
  std::string max_surge = "1";
  std::string max_unavailable = "0";
  int progress_deadline = 0;    // 0: the API default (600)
  std::string annotations;      // flow-map entries on the Deployment
  std::string pod_annotations;  // flow-map entries on the pod template

  std::string str() const {
    std::string y = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
                    "\n  labels: {app: " + name + "}\n";
    if (!annotations.empty()) y += "  annotations: {" + annotations + "}\n";
    y += "spec:\n  replicas: " + std::to_string(replicas) + "\n";
    if (progress_deadline > 0)
      y += "  progressDeadlineSeconds: " + std::to_string(progress_deadline) + "\n";
    y += "  selector:\n    matchLabels: {app: " + name + "}\n  strategy:\n    type: " + strategy +
         "\n";
    if (strategy == "RollingUpdate") {
      y += "    rollingUpdate: {maxSurge: " + quoted(max_surge) +
           ", maxUnavailable: " + quoted(max_unavailable) + "}\n";
    }
    y += "  template:\n    metadata:\n      labels: {app: " + name + "}\n";
    if (!pod_annotations.empty()) y += "      annotations: {" + pod_annotations + "}\n";
    y += "    spec:\n      containers:\n      - name: web\n        image: " + image + "\n";
    return y;
  }
  // Percentages are strings, counts are integers.
  static std::string quoted(const std::string& v) {
    return v.find('%') != std::string::npos ? "\"" + v + "\"" : v;
  }
};

constexpr const char* kNeverReady = R"("local.kcm.dev/never-ready": "true")";

// One cluster and one kcm for the suite; every test works in its own namespace.
class DeploymentTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    LocalCluster::Options o;
    o.extra_args = {"--nodes=3", "--pod-ready-delay=300ms", "--pod-terminate-delay=1s"};
    cluster_ = std::make_unique<LocalCluster>(o);
    kcm_ = std::make_unique<KcmProcess>(
        *cluster_,
        std::vector<std::string>{"--leader-elect=false",
                                 "--controllers=replicaset-controller,deployment-controller"});
  }
  static void TearDownTestSuite() {
    kcm_.reset();
    cluster_.reset();
  }

  void SetUp() override {
    ns_ = "deploy-" + std::to_string(++counter_);
    const CommandResult r = kubectl_({"create", "namespace", ns_});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
  }
  void TearDown() override {
    if (HasFailure()) {
      ADD_FAILURE()
          << "kcm log tail:\n"
          << tail(kcm_->log(), 6000) << "\nstate of " << ns_ << ":\n"
          << kubectl_({"get", "deployments,replicasets,pods", "-n", ns_, "-o", "wide"}).out;
    }
  }

  static std::string tail(const std::string& s, std::size_t n) {
    return s.size() > n ? s.substr(s.size() - n) : s;
  }

  // kubectl (`k`, the dispatcher by default) in the test's namespace.
  CommandResult run(const Kubectl& k, std::vector<std::string> args,
                    const std::string& input = {}) {
    args.insert(args.end(), {"-n", ns_});
    return k(args, input, seconds(90));
  }
  CommandResult run(std::vector<std::string> args, const std::string& input = {}) {
    return run(kubectl_, std::move(args), input);
  }
  // The same, expecting success; stdout.
  std::string ok(const Kubectl& k, std::vector<std::string> args, const std::string& input = {}) {
    const CommandResult r = run(k, std::move(args), input);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.out;
  }
  std::string ok(std::vector<std::string> args, const std::string& input = {}) {
    return ok(kubectl_, std::move(args), input);
  }
  std::string apply(const DeploymentYaml& d) { return ok({"apply", "-f", "-"}, d.str()); }

  // `kubectl rollout status` to completion: exit 0 and upstream's last line.
  bool rolled_out(const Kubectl& k, const std::string& name = "web") {
    const CommandResult r = run(k, {"rollout", "status", "deployment/" + name, "--timeout=60s"});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_THAT(r.out, EndsWith("deployment \"" + name + "\" successfully rolled out\n"))
        << describe(r);
    return r.exit_code == 0;
  }
  bool rolled_out(const std::string& name = "web") { return rolled_out(kubectl_, name); }

  // `what` is split at spaces: "pods -l app=web".
  std::string jsonpath(const std::string& what, const std::string& path) {
    std::vector<std::string> args = {"get"};
    for (std::string& w : split(what, ' '))
      if (!w.empty()) args.push_back(std::move(w));
    args.insert(args.end(), {"-n", ns_, "-o", "jsonpath=" + path});
    const CommandResult r = kubectl_(args);
    return r.exit_code == 0 ? r.out : "<" + r.err + ">";
  }
  // One annotation of an object ("" when absent).
  std::string annotation(const std::string& what, const std::string& key) {
    std::string escaped;
    for (const char c : key) {
      if (c == '.') escaped += '\\';
      escaped += c;
    }
    return jsonpath(what, "{.metadata.annotations." + escaped + "}");
  }
  // "status|reason|message" of a Deployment condition.
  std::string condition(const std::string& type, const std::string& name = "web") {
    const std::string c = "{.status.conditions[?(@.type==\"" + type + "\")]";
    return jsonpath("deployment/" + name, c + ".status}|" + c + ".reason}|" + c + ".message}");
  }
  // "generation/observedGeneration/replicas/updated/ready/available" from the Deployment.
  std::string counts(const std::string& name = "web") {
    return jsonpath(
        "deployment/" + name,
        "{.metadata.generation}/{.status.observedGeneration}/{.status.replicas}/"
        "{.status.updatedReplicas}/{.status.readyReplicas}/{.status.availableReplicas}");
  }
  bool observed(const std::string& name = "web") {
    return eventually([&] {
      const auto f = split(counts(name), '/');
      return f.size() >= 2 && !f[0].empty() && f[0] == f[1];
    });
  }

  // The namespace's ReplicaSets, by revision.
  std::vector<RsInfo> replica_sets() {
    const std::string out = jsonpath(
        "replicasets",
        "{range .items[*]}{.metadata.name}|{.metadata.labels.pod-template-hash}|"
        "{.spec.template.spec.containers[0].image}|{.spec.replicas}|{.status.replicas}|"
        "{.status.availableReplicas}|{.metadata.annotations.deployment\\.kubernetes\\.io/revision}|"
        "{.metadata.annotations.deployment\\.kubernetes\\.io/revision-history}|"
        "{.metadata.annotations.kubernetes\\.io/change-cause}{\"\\n\"}{end}");
    std::vector<RsInfo> out_rs;
    for (const std::string& line : lines_of(out)) {
      const auto f = split(line, '|');
      if (f.size() < 9) continue;
      out_rs.push_back(
          {f[0], f[1], f[2], to_int(f[3]), to_int(f[4]), to_int(f[5]), f[6], f[7], f[8]});
    }
    std::sort(out_rs.begin(), out_rs.end(), [](const RsInfo& a, const RsInfo& b) {
      return to_int(a.revision) < to_int(b.revision);
    });
    return out_rs;
  }
  // The ReplicaSet whose template runs `image` (empty name when none or several).
  RsInfo rs_with_image(const std::string& image) {
    RsInfo found;
    int n = 0;
    for (const RsInfo& rs : replica_sets()) {
      if (rs.image == image) {
        found = rs;
        ++n;
      }
    }
    return n == 1 ? found : RsInfo{};
  }
  // After a rollout away from `first` (revision 1): `first` scaled to 0 and
  // one new ReplicaSet, revision 2, holding `replicas`, into `second`.
  void expect_replaced_by_revision_two(const RsInfo& first, int replicas, RsInfo* second) {
    const std::vector<RsInfo> all = replica_sets();
    ASSERT_EQ(all.size(), 2u) << rs_summary(all);
    EXPECT_EQ(all[0].name, first.name);
    EXPECT_EQ(all[0].spec, 0);
    EXPECT_EQ(all[1].revision, "2");
    EXPECT_EQ(all[1].spec, replicas);
    *second = all[1];
  }
  static std::string rs_summary(const std::vector<RsInfo>& all) {
    std::string s;
    for (const RsInfo& rs : all) {
      s += rs.name + " image=" + rs.image + " spec=" + std::to_string(rs.spec) +
           " replicas=" + std::to_string(rs.replicas) +
           " available=" + std::to_string(rs.available) + " revision=" + rs.revision +
           " history=" + rs.history + " cause=" + rs.cause + "\n";
    }
    return s;
  }

  // Names of the pods with pod-template-hash `hash`; with `live` only those not being deleted.
  std::vector<std::string> pods_of(const std::string& hash, bool live = true) {
    const std::string out =
        jsonpath("pods -l pod-template-hash=" + hash,
                 "{range .items[*]}{.metadata.name}|{.metadata.deletionTimestamp}{\"\\n\"}{end}");
    std::vector<std::string> names;
    for (const std::string& line : lines_of(out)) {
      const auto f = split(line, '|');
      if (!f.empty() && (!live || f.size() < 2 || f[1].empty())) names.push_back(f[0]);
    }
    return names;
  }

  // The events' "type reason message (component)" lines, oldest first (event names
  // carry their creation time in nanoseconds, so the server's order is chronological).
  std::string events_of(const std::string& kind, const std::string& name) {
    return jsonpath(
        "events --field-selector involvedObject.kind=" + kind + ",involvedObject.name=" + name,
        "{range .items[*]}{.type} {.reason} {.message} ({.source.component})"
        "{\"\\n\"}{end}");
  }
  bool has_event(const std::string& line, const std::string& name = "web") {
    return eventually(
        [&] {
          return events_of("Deployment", name).find(line + " (deployment-controller)\n") !=
                 std::string::npos;
        },
        seconds(3));
  }

  // Creates web (nginx:1.25, 3 replicas) with `k`, rolls to nginx:1.26 and back with
  // `rollout undo`, watching each rollout; checks history and the reuse of the old RS.
  void rolling_update_history_and_undo(const Kubectl& k);

  inline static std::unique_ptr<LocalCluster> cluster_;
  inline static std::unique_ptr<KcmProcess> kcm_;
  inline static int counter_ = 0;
  Kubectl kubectl_{*cluster_};
  std::string ns_;
};

TEST_F(DeploymentTest, CreateDeploymentRollsOutAsRevisionOne) {
  EXPECT_EQ(ok({"create", "deployment", "web", "--image=nginx:1.25", "--replicas=3"}),
            "deployment.apps/web created\n");
  ASSERT_TRUE(rolled_out());

  const std::vector<RsInfo> all = replica_sets();
  ASSERT_EQ(all.size(), 1u) << rs_summary(all);
  const RsInfo& rs = all[0];
  EXPECT_THAT(rs.hash, MatchesRegex(kHashPattern));
  EXPECT_EQ(rs.name, "web-" + rs.hash);
  EXPECT_EQ(rs.image, "nginx:1.25");
  EXPECT_EQ(rs.spec, 3);
  EXPECT_EQ(rs.revision, "1");
  EXPECT_EQ(rs.history, "");
  // desired-replicas = spec.replicas, max-replicas = replicas + maxSurge (25% of 3, rounded up).
  EXPECT_EQ(annotation("rs/" + rs.name, "deployment.kubernetes.io/desired-replicas"), "3");
  EXPECT_EQ(annotation("rs/" + rs.name, "deployment.kubernetes.io/max-replicas"), "4");
  EXPECT_EQ(
      jsonpath("rs/" + rs.name,
               "{.metadata.ownerReferences[0].apiVersion}/{.metadata.ownerReferences[0].kind}/"
               "{.metadata.ownerReferences[0].name}/{.metadata.ownerReferences[0].controller}/"
               "{.metadata.ownerReferences[0].blockOwnerDeletion}"),
      "apps/v1/Deployment/web/true/true");
  // The hash is on the RS's labels, its selector and its template.
  EXPECT_EQ(jsonpath("rs/" + rs.name,
                     "{.metadata.labels.app}/{.metadata.labels.pod-template-hash}/"
                     "{.spec.selector.matchLabels.pod-template-hash}/"
                     "{.spec.template.metadata.labels.pod-template-hash}"),
            "web/" + rs.hash + "/" + rs.hash + "/" + rs.hash);
  EXPECT_EQ(pods_of(rs.hash).size(), 3u);

  EXPECT_EQ(annotation("deployment/web", "deployment.kubernetes.io/revision"), "1");
  EXPECT_EQ(counts(), "1/1/3/3/3/3");
  EXPECT_EQ(condition("Available"),
            "True|MinimumReplicasAvailable|Deployment has minimum availability.");
  EXPECT_EQ(condition("Progressing"), "True|NewReplicaSetAvailable|ReplicaSet \"" + rs.name +
                                          "\" has successfully progressed.");
  EXPECT_THAT(ok({"get", "deployment", "web"}),
              ContainsRegex("NAME +READY +UP-TO-DATE +AVAILABLE +AGE\nweb +3/3 +3 +3 +"));
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled up replica set " + rs.name + " from 0 to 3"))
      << events_of("Deployment", "web");
  EXPECT_EQ(events_of("Deployment", "web"), "Normal ScalingReplicaSet Scaled up replica set " +
                                                rs.name + " from 0 to 3 (deployment-controller)\n");
}

TEST_F(DeploymentTest, ApplyCreatesConfiguresAndCopiesAnnotationsToTheNewReplicaSet) {
  DeploymentYaml d;
  d.max_surge = "1";
  d.max_unavailable = "1";
  d.annotations = R"("kubernetes.io/change-cause": "apply v1", "example.com/team": "web")";
  EXPECT_EQ(apply(d), "deployment.apps/web created\n");
  ASSERT_TRUE(rolled_out());
  const RsInfo first = rs_with_image("nginx:1.25");
  ASSERT_FALSE(first.name.empty()) << rs_summary(replica_sets());
  EXPECT_EQ(first.cause, "apply v1");
  EXPECT_EQ(annotation("rs/" + first.name, "example.com/team"), "web");
  // The skip set: kubectl's last-applied-configuration stays on the Deployment.
  EXPECT_THAT(annotation("deployment/web", "kubectl.kubernetes.io/last-applied-configuration"),
              HasSubstr("nginx:1.25"));
  EXPECT_EQ(annotation("rs/" + first.name, "kubectl.kubernetes.io/last-applied-configuration"), "");
  EXPECT_EQ(annotation("rs/" + first.name, "deployment.kubernetes.io/max-replicas"), "4");

  d.image = "nginx:1.26";
  d.annotations = R"("kubernetes.io/change-cause": "apply v2", "example.com/team": "web")";
  RolloutWatch watch(*cluster_, ns_);
  ASSERT_TRUE(watch.ready());
  EXPECT_EQ(apply(d), "deployment.apps/web configured\n");
  ASSERT_TRUE(rolled_out());
  const std::vector<Snapshot> samples = watch.stop();
  EXPECT_GE(samples.size(), 3u);
  EXPECT_THAT(rolling_violations(samples, 3, 1, 1), IsEmpty());

  const RsInfo second = rs_with_image("nginx:1.26");
  ASSERT_FALSE(second.name.empty()) << rs_summary(replica_sets());
  EXPECT_EQ(second.revision, "2");
  EXPECT_EQ(second.cause, "apply v2");
  EXPECT_EQ(second.spec, 3);
  EXPECT_EQ(rs_with_image("nginx:1.25").cause, "apply v1");
  EXPECT_EQ(rs_with_image("nginx:1.25").spec, 0);
  EXPECT_THAT(ok({"rollout", "history", "deployment/web"}),
              ContainsRegex("REVISION +CHANGE-CAUSE\n1 +apply v1\n2 +apply v2\n"));

  // The same manifest again changes nothing: no third ReplicaSet.
  EXPECT_EQ(apply(d), "deployment.apps/web unchanged\n");
  ASSERT_TRUE(observed());
  EXPECT_EQ(replica_sets().size(), 2u) << rs_summary(replica_sets());
}

void DeploymentTest::rolling_update_history_and_undo(const Kubectl& k) {
  EXPECT_EQ(ok(k, {"create", "deployment", "web", "--image=nginx:1.25", "--replicas=3"}),
            "deployment.apps/web created\n");
  ASSERT_TRUE(rolled_out(k));
  // kubectl 1.27 prints "annotate", later clients "annotated".
  EXPECT_THAT(
      ok(k, {"annotate", "deployment", "web", "kubernetes.io/change-cause=create nginx:1.25"}),
      StartsWith("deployment.apps/web annotate"));
  // The cause is copied to the current (new) ReplicaSet.
  ASSERT_TRUE(eventually([&] { return rs_with_image("nginx:1.25").cause == "create nginx:1.25"; }))
      << rs_summary(replica_sets());
  const RsInfo first = rs_with_image("nginx:1.25");

  // 3 replicas with the default 25%/25%: maxSurge 1, maxUnavailable 0.
  {
    RolloutWatch watch(*cluster_, ns_);
    ASSERT_TRUE(watch.ready());
    EXPECT_EQ(ok(k, {"set", "image", "deployment/web", "nginx=nginx:1.26"}),
              "deployment.apps/web image updated\n");
    ASSERT_TRUE(rolled_out(k));
    const std::vector<Snapshot> samples = watch.stop();
    EXPECT_GE(samples.size(), 3u);
    EXPECT_THAT(rolling_violations(samples, 3, 1, 0), IsEmpty());
    // Not vacuous: the watch saw the surge (4 replicas), which a bound of 3 rejects.
    EXPECT_THAT(rolling_violations(samples, 3, 0, 0), Not(IsEmpty()));
  }
  EXPECT_THAT(ok(k, {"annotate", "deployment", "web", "--overwrite",
                     "kubernetes.io/change-cause=image nginx:1.26"}),
              StartsWith("deployment.apps/web annotate"));
  ASSERT_TRUE(eventually([&] { return rs_with_image("nginx:1.26").cause == "image nginx:1.26"; }))
      << rs_summary(replica_sets());
  const RsInfo second = rs_with_image("nginx:1.26");
  EXPECT_EQ(second.revision, "2");
  EXPECT_EQ(second.spec, 3);
  EXPECT_EQ(rs_with_image("nginx:1.25").spec, 0);
  EXPECT_EQ(rs_with_image("nginx:1.25").cause, "create nginx:1.25");
  EXPECT_EQ(pods_of(second.hash).size(), 3u);
  EXPECT_THAT(pods_of(first.hash), IsEmpty());

  EXPECT_THAT(
      ok(k, {"rollout", "history", "deployment/web"}),
      ContainsRegex("^deployment\\.apps/web ?\nREVISION +CHANGE-CAUSE\n1 +create nginx:1\\.25\n"
                    "2 +image nginx:1\\.26\n"));
  const std::string rev1 = ok(k, {"rollout", "history", "deployment/web", "--revision=1"});
  EXPECT_THAT(rev1, HasSubstr("deployment.apps/web with revision #1\n"));
  EXPECT_THAT(rev1, ContainsRegex("Image:\\s+nginx:1\\.25\n"));
  EXPECT_THAT(rev1, ContainsRegex("pod-template-hash=" + first.hash));
  EXPECT_THAT(rev1, ContainsRegex("kubernetes.io/change-cause: create nginx:1\\.25"));

  {
    RolloutWatch watch(*cluster_, ns_);
    ASSERT_TRUE(watch.ready());
    EXPECT_EQ(ok(k, {"rollout", "undo", "deployment/web"}), "deployment.apps/web rolled back\n");
    ASSERT_TRUE(rolled_out(k));
    const std::vector<Snapshot> samples = watch.stop();
    EXPECT_GE(samples.size(), 3u);
    EXPECT_THAT(rolling_violations(samples, 3, 1, 0), IsEmpty());
  }
  // The first ReplicaSet is reused: revision 1 becomes 3 and goes to its history; no
  // third ReplicaSet.
  ASSERT_TRUE(eventually([&] {
    return rs_with_image("nginx:1.25").revision == "3" &&
           annotation("deployment/web", "deployment.kubernetes.io/revision") == "3";
  })) << rs_summary(replica_sets());
  const std::vector<RsInfo> all = replica_sets();
  ASSERT_EQ(all.size(), 2u) << rs_summary(all);
  EXPECT_EQ(all[0].name, second.name);
  EXPECT_EQ(all[0].revision, "2");
  EXPECT_EQ(all[0].history, "");
  EXPECT_EQ(all[0].spec, 0);
  EXPECT_EQ(all[1].name, first.name);
  EXPECT_EQ(all[1].revision, "3");
  EXPECT_EQ(all[1].history, "1");
  EXPECT_EQ(all[1].spec, 3);
  EXPECT_EQ(pods_of(first.hash).size(), 3u);
  EXPECT_THAT(pods_of(second.hash), IsEmpty());
  // kubectl gave the Deployment the old template (without the hash) and the old RS's cause.
  EXPECT_EQ(jsonpath("deployment/web",
                     "{.spec.template.spec.containers[0].image} "
                     "{.spec.template.metadata.labels}"),
            "nginx:1.25 {\"app\":\"web\"}");
  EXPECT_EQ(annotation("deployment/web", "kubernetes.io/change-cause"), "create nginx:1.25");
  EXPECT_THAT(
      ok(k, {"rollout", "history", "deployment/web"}),
      ContainsRegex("REVISION +CHANGE-CAUSE\n2 +image nginx:1\\.26\n3 +create nginx:1\\.25\n"));
  EXPECT_THAT(ok(k, {"rollout", "history", "deployment/web", "--revision=2"}),
              ContainsRegex("Image:\\s+nginx:1\\.26\n"));
}

TEST_F(DeploymentTest, RollingUpdateHistoryAndUndoWithTheDispatcher) {
  rolling_update_history_and_undo(kubectl_);
}

TEST_F(DeploymentTest, RollingUpdateHistoryAndUndoWithKubectl1_27) {
  rolling_update_history_and_undo(Kubectl(*cluster_, versioned_kubectl("1.27")));
}

TEST_F(DeploymentTest, RollingUpdateHistoryAndUndoWithKubectl1_33) {
  rolling_update_history_and_undo(Kubectl(*cluster_, versioned_kubectl("1.33")));
}

TEST_F(DeploymentTest, UndoToRevisionReusesTheOldReplicaSetAndExtendsItsHistory) {
  ok({"create", "deployment", "web", "--image=nginx:1.25", "--replicas=2"});
  ASSERT_TRUE(rolled_out());
  ok({"set", "image", "deployment/web", "nginx=nginx:1.26"});
  ASSERT_TRUE(rolled_out());
  ok({"set", "image", "deployment/web", "nginx=nginx:1.27"});
  ASSERT_TRUE(rolled_out());
  ASSERT_EQ(replica_sets().size(), 3u) << rs_summary(replica_sets());
  const RsInfo v1 = rs_with_image("nginx:1.25");
  const RsInfo v2 = rs_with_image("nginx:1.26");
  const RsInfo v3 = rs_with_image("nginx:1.27");
  EXPECT_EQ(v1.revision + v2.revision + v3.revision, "123");

  const auto revisions = [&] {
    return rs_with_image("nginx:1.25").revision + "(" + rs_with_image("nginx:1.25").history + ") " +
           rs_with_image("nginx:1.26").revision + "(" + rs_with_image("nginx:1.26").history + ") " +
           rs_with_image("nginx:1.27").revision + "(" + rs_with_image("nginx:1.27").history + ") " +
           annotation("deployment/web", "deployment.kubernetes.io/revision");
  };

  // Past the previous revision, straight to the first.
  EXPECT_EQ(ok({"rollout", "undo", "deployment/web", "--to-revision=1"}),
            "deployment.apps/web rolled back\n");
  ASSERT_TRUE(rolled_out());
  ASSERT_TRUE(eventually([&] { return revisions() == "4(1) 2() 3() 4"; })) << revisions();
  EXPECT_EQ(rs_with_image("nginx:1.25").name, v1.name);
  EXPECT_EQ(rs_with_image("nginx:1.25").spec, 2);
  EXPECT_EQ(replica_sets().size(), 3u) << rs_summary(replica_sets());

  // Revision 1 is gone from the history; revision 4 is the current template.
  const CommandResult gone = run({"rollout", "undo", "deployment/web", "--to-revision=1"});
  EXPECT_EQ(gone.exit_code, 1) << describe(gone);
  EXPECT_EQ(gone.err, "error: unable to find specified revision 1 in history\n");
  EXPECT_EQ(ok({"rollout", "undo", "deployment/web", "--to-revision=4"}),
            "deployment.apps/web skipped rollback (current template already matches revision 4)\n");

  // Plain undo goes to the second-highest revision (3), then back to 4: the reused RS's
  // history grows "1" -> "1,4".
  ok({"rollout", "undo", "deployment/web"});
  ASSERT_TRUE(rolled_out());
  ASSERT_TRUE(eventually([&] { return revisions() == "4(1) 2() 5(3) 5"; })) << revisions();
  ok({"rollout", "undo", "deployment/web"});
  ASSERT_TRUE(rolled_out());
  ASSERT_TRUE(eventually([&] { return revisions() == "6(1,4) 2() 5(3) 6"; })) << revisions();
  EXPECT_EQ(replica_sets().size(), 3u) << rs_summary(replica_sets());
  EXPECT_THAT(ok({"rollout", "history", "deployment/web"}),
              ContainsRegex("REVISION +CHANGE-CAUSE\n2 +<none>\n5 +<none>\n6 +<none>\n"));
  EXPECT_EQ(pods_of(v1.hash).size(), 2u);
}

TEST_F(DeploymentTest, PauseHoldsTemplateChangesAndResumeRollsThem) {
  ok({"create", "deployment", "web", "--image=nginx:1.25", "--replicas=2"});
  ASSERT_TRUE(rolled_out());
  const RsInfo first = rs_with_image("nginx:1.25");

  EXPECT_EQ(ok({"rollout", "pause", "deployment/web"}), "deployment.apps/web paused\n");
  ASSERT_TRUE(eventually([&] {
    return condition("Progressing") == "Unknown|DeploymentPaused|Deployment is paused";
  })) << condition("Progressing");
  const CommandResult again = run({"rollout", "pause", "deployment/web"});
  EXPECT_EQ(again.exit_code, 1) << describe(again);
  EXPECT_THAT(again.err, HasSubstr("error: deployments.apps \"web\" is already paused"));

  // A template change while paused: observed, but no new ReplicaSet.
  EXPECT_EQ(ok({"set", "image", "deployment/web", "nginx=nginx:1.26"}),
            "deployment.apps/web image updated\n");
  ASSERT_TRUE(observed()) << counts();
  EXPECT_EQ(replica_sets().size(), 1u) << rs_summary(replica_sets());
  EXPECT_EQ(condition("Progressing"), "Unknown|DeploymentPaused|Deployment is paused");
  // No RS matches the template: no updated replicas.
  const CommandResult once = run({"rollout", "status", "deployment/web", "--watch=false"});
  EXPECT_EQ(once.exit_code, 0) << describe(once);
  EXPECT_EQ(once.out,
            "Waiting for deployment \"web\" rollout to finish: 0 out of 2 new replicas have been "
            "updated...\n");

  // Scaling still works while paused: the only active RS takes the new size.
  EXPECT_EQ(ok({"scale", "deployment/web", "--replicas=3"}), "deployment.apps/web scaled\n");
  ASSERT_TRUE(eventually([&] { return pods_of(first.hash).size() == 3; }))
      << rs_summary(replica_sets());
  EXPECT_EQ(rs_with_image("nginx:1.25").spec, 3);
  EXPECT_EQ(replica_sets().size(), 1u) << rs_summary(replica_sets());
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled up replica set " + first.name + " from 2 to 3"))
      << events_of("Deployment", "web");

  const CommandResult restart = run({"rollout", "restart", "deployment/web"});
  EXPECT_EQ(restart.exit_code, 1) << describe(restart);
  EXPECT_THAT(restart.err, HasSubstr("error: deployments.apps \"web\" can't restart paused "
                                     "deployment (run rollout resume first)"));

  EXPECT_EQ(ok({"rollout", "resume", "deployment/web"}), "deployment.apps/web resumed\n");
  ASSERT_TRUE(rolled_out());
  const RsInfo second = rs_with_image("nginx:1.26");
  ASSERT_FALSE(second.name.empty()) << rs_summary(replica_sets());
  EXPECT_EQ(second.revision, "2");
  EXPECT_EQ(second.spec, 3);
  EXPECT_EQ(rs_with_image("nginx:1.25").spec, 0);
  EXPECT_EQ(replica_sets().size(), 2u);
  EXPECT_EQ(condition("Progressing"), "True|NewReplicaSetAvailable|ReplicaSet \"" + second.name +
                                          "\" has successfully progressed.");
}

TEST_F(DeploymentTest, RestartRollsANewReplicaSetWithRestartedAt) {
  ok({"create", "deployment", "web", "--image=nginx:1.25", "--replicas=2"});
  ASSERT_TRUE(rolled_out());
  const RsInfo first = rs_with_image("nginx:1.25");

  RolloutWatch watch(*cluster_, ns_);
  ASSERT_TRUE(watch.ready());
  EXPECT_EQ(ok({"rollout", "restart", "deployment/web"}), "deployment.apps/web restarted\n");
  ASSERT_TRUE(rolled_out());
  const std::vector<Snapshot> samples = watch.stop();
  // 2 replicas, 25%/25%: maxSurge 1, maxUnavailable 0.
  EXPECT_THAT(rolling_violations(samples, 2, 1, 0), IsEmpty());

  const std::string restarted_at =
      jsonpath("deployment/web",
               "{.spec.template.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}");
  EXPECT_THAT(
      restarted_at,
      MatchesRegex(
          "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})"));
  RsInfo second;
  ASSERT_NO_FATAL_FAILURE(expect_replaced_by_revision_two(first, 2, &second));
  EXPECT_NE(second.hash, first.hash);
  EXPECT_EQ(jsonpath("rs/" + second.name,
                     "{.spec.template.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}"),
            restarted_at);
  const auto pods = pods_of(second.hash);
  ASSERT_EQ(pods.size(), 2u);
  EXPECT_EQ(
      jsonpath("pod/" + pods[0], "{.metadata.annotations.kubectl\\.kubernetes\\.io/restartedAt}"),
      restarted_at);
  EXPECT_THAT(pods_of(first.hash), IsEmpty());
}

// Templates compare as their Go structs (Semantic.DeepEqual): a pointer set
// to false is not the nil it was, so the change rolls out a new ReplicaSet.
TEST_F(DeploymentTest, APointerFieldSetToFalseRollsOut) {
  ok({"create", "deployment", "web", "--image=nginx:1.25", "--replicas=2"});
  ASSERT_TRUE(rolled_out());
  const RsInfo first = rs_with_image("nginx:1.25");

  ok({"patch", "deployment/web", "--type=json", "-p",
      R"([{"op":"add","path":"/spec/template/spec/automountServiceAccountToken","value":false}])"});
  ASSERT_TRUE(rolled_out());
  RsInfo second;
  ASSERT_NO_FATAL_FAILURE(expect_replaced_by_revision_two(first, 2, &second));
  EXPECT_EQ(jsonpath("rs/" + second.name, "{.spec.template.spec.automountServiceAccountToken}"),
            "false");
}

TEST_F(DeploymentTest, ScaleMidRolloutSplitsReplicasProportionally) {
  // 4 replicas, maxSurge 2, maxUnavailable 1; the new template's pods never become ready.
  DeploymentYaml d;
  d.replicas = 4;
  d.max_surge = "2";
  d.max_unavailable = "1";
  apply(d);
  ASSERT_TRUE(rolled_out());
  const RsInfo old_rs = rs_with_image("nginx:1.25");
  // creationTimestamp has whole seconds; on equal times upstream orders equal-sized
  // ReplicaSets by name instead of age, which would make the split below depend on hashes.
  std::this_thread::sleep_for(seconds(1));
  d.image = "nginx:1.26";
  d.pod_annotations = kNeverReady;
  apply(d);
  // The rollout stalls (§2.7): new 2, old 4 -> 3, new 3; then 6 - 3 - 3 = 0 may go.
  ASSERT_TRUE(eventually([&] {
    const RsInfo n = rs_with_image("nginx:1.26"), o = rs_with_image("nginx:1.25");
    return n.spec == 3 && n.replicas == 3 && o.spec == 3 && o.available == 3;
  })) << rs_summary(replica_sets());
  const RsInfo new_rs = rs_with_image("nginx:1.26");
  ASSERT_TRUE(observed());
  ASSERT_LT(jsonpath("rs/" + old_rs.name, "{.metadata.creationTimestamp}"),
            jsonpath("rs/" + new_rs.name, "{.metadata.creationTimestamp}"));
  EXPECT_EQ(annotation("rs/" + old_rs.name, "deployment.kubernetes.io/max-replicas"), "6");
  EXPECT_EQ(annotation("rs/" + new_rs.name, "deployment.kubernetes.io/max-replicas"), "6");

  // 4 -> 7: allowed 9, 3 to add. Equal sizes: the newer RS first. Each RS's share is
  // round(3 * 9 / 6) - 3 = 2 (4.5 rounds away from zero); the old one gets what is left (1).
  EXPECT_EQ(ok({"scale", "deployment/web", "--replicas=7"}), "deployment.apps/web scaled\n");
  ASSERT_TRUE(eventually([&] {
    return rs_with_image("nginx:1.26").spec == 5 && rs_with_image("nginx:1.25").spec == 4;
  })) << rs_summary(replica_sets());
  ASSERT_TRUE(observed());
  ASSERT_TRUE(eventually([&] {
    return pods_of(new_rs.hash).size() == 5 && pods_of(old_rs.hash).size() == 4 &&
           rs_with_image("nginx:1.25").available == 4;
  })) << rs_summary(replica_sets());
  EXPECT_EQ(rs_with_image("nginx:1.26").spec, 5) << rs_summary(replica_sets());
  EXPECT_EQ(rs_with_image("nginx:1.25").spec, 4) << rs_summary(replica_sets());
  for (const std::string& rs : {old_rs.name, new_rs.name}) {
    EXPECT_EQ(annotation("rs/" + rs, "deployment.kubernetes.io/desired-replicas"), "7") << rs;
    EXPECT_EQ(annotation("rs/" + rs, "deployment.kubernetes.io/max-replicas"), "9") << rs;
  }
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled up replica set " + new_rs.name + " from 3 to 5"))
      << events_of("Deployment", "web");
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled up replica set " + old_rs.name + " from 3 to 4"))
      << events_of("Deployment", "web");
  // 4 available < 7 - 1.
  EXPECT_TRUE(eventually([&] {
    return condition("Available") ==
           "False|MinimumReplicasUnavailable|Deployment does not have minimum availability.";
  })) << condition("Available");

  // 7 -> 3: allowed 5, 4 to remove; larger first: new round(5 * 5 / 9) - 5 = -2,
  // old round(4 * 5 / 9) - 4 = -2.
  EXPECT_EQ(ok({"scale", "deployment/web", "--replicas=3"}), "deployment.apps/web scaled\n");
  ASSERT_TRUE(eventually([&] {
    return rs_with_image("nginx:1.26").spec == 3 && rs_with_image("nginx:1.25").spec == 2;
  })) << rs_summary(replica_sets());
  ASSERT_TRUE(observed());
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled down replica set " + new_rs.name + " from 5 to 3"))
      << events_of("Deployment", "web");
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled down replica set " + old_rs.name + " from 4 to 2"))
      << events_of("Deployment", "web");
  // 2 available >= 3 - 1.
  EXPECT_TRUE(eventually([&] {
    return condition("Available") ==
           "True|MinimumReplicasAvailable|Deployment has minimum availability.";
  })) << condition("Available");
  EXPECT_TRUE(eventually(
      [&] { return pods_of(new_rs.hash).size() == 3 && pods_of(old_rs.hash).size() == 2; }));
  EXPECT_EQ(rs_with_image("nginx:1.26").spec, 3) << rs_summary(replica_sets());
  EXPECT_EQ(rs_with_image("nginx:1.25").spec, 2) << rs_summary(replica_sets());
}

TEST_F(DeploymentTest, WaitForTheAvailableCondition) {
  ok({"create", "deployment", "web", "--image=nginx:1.25", "--replicas=2"});
  const CommandResult met =
      run({"wait", "--for=condition=Available", "deployment/web", "--timeout=60s"});
  EXPECT_EQ(met.exit_code, 0) << describe(met);
  EXPECT_EQ(met.out, "deployment.apps/web condition met\n");
  EXPECT_EQ(condition("Available"),
            "True|MinimumReplicasAvailable|Deployment has minimum availability.");

  // One replica that never becomes ready: 25% of 1 rounds down to 0 unavailable allowed.
  DeploymentYaml stuck;
  stuck.name = "stuck";
  stuck.replicas = 1;
  stuck.max_surge = "25%";
  stuck.max_unavailable = "25%";
  stuck.pod_annotations = kNeverReady;
  EXPECT_EQ(apply(stuck), "deployment.apps/stuck created\n");
  const CommandResult unavailable =
      run({"wait", "--for=condition=Available=False", "deployment/stuck", "--timeout=60s"});
  EXPECT_EQ(unavailable.exit_code, 0) << describe(unavailable);
  EXPECT_EQ(unavailable.out, "deployment.apps/stuck condition met\n");
  EXPECT_EQ(condition("Available", "stuck"),
            "False|MinimumReplicasUnavailable|Deployment does not have minimum availability.");
  const CommandResult timeout =
      run({"wait", "--for=condition=Available", "deployment/stuck", "--timeout=2s"});
  EXPECT_EQ(timeout.exit_code, 1) << describe(timeout);
  EXPECT_EQ(timeout.err, "error: timed out waiting for the condition on deployments/stuck\n");
}

TEST_F(DeploymentTest, DescribeShowsConditionsReplicaSetsAndScalingEvents) {
  ok({"create", "deployment", "web", "--image=nginx:1.25", "--replicas=3"});
  ASSERT_TRUE(rolled_out());
  const RsInfo first = rs_with_image("nginx:1.25");
  ok({"set", "image", "deployment/web", "nginx=nginx:1.26"});
  ASSERT_TRUE(rolled_out());
  const RsInfo second = rs_with_image("nginx:1.26");
  ASSERT_FALSE(second.name.empty()) << rs_summary(replica_sets());

  // maxSurge 1, maxUnavailable 0: one up, one down, in turn.
  const std::string a = first.name, b = second.name;
  const std::string expected_events = "Normal ScalingReplicaSet Scaled up replica set " + a +
                                      " from 0 to 3 (deployment-controller)\n"
                                      "Normal ScalingReplicaSet Scaled up replica set " +
                                      b +
                                      " from 0 to 1 (deployment-controller)\n"
                                      "Normal ScalingReplicaSet Scaled down replica set " +
                                      a +
                                      " from 3 to 2 (deployment-controller)\n"
                                      "Normal ScalingReplicaSet Scaled up replica set " +
                                      b +
                                      " from 1 to 2 (deployment-controller)\n"
                                      "Normal ScalingReplicaSet Scaled down replica set " +
                                      a +
                                      " from 2 to 1 (deployment-controller)\n"
                                      "Normal ScalingReplicaSet Scaled up replica set " +
                                      b +
                                      " from 2 to 3 (deployment-controller)\n"
                                      "Normal ScalingReplicaSet Scaled down replica set " +
                                      a + " from 1 to 0 (deployment-controller)\n";
  EXPECT_TRUE(
      eventually([&] { return events_of("Deployment", "web") == expected_events; }, seconds(5)))
      << events_of("Deployment", "web");

  const std::string out = ok({"describe", "deployment", "web"});
  EXPECT_THAT(
      out,
      ContainsRegex(
          "Replicas: +3 desired \\| 3 updated \\| 3 total \\| 3 available \\| 0 unavailable\n"));
  EXPECT_THAT(out, ContainsRegex("StrategyType:\\s+RollingUpdate\n"));
  EXPECT_THAT(out, ContainsRegex("RollingUpdateStrategy:\\s+25% max unavailable, 25% max surge\n"));
  EXPECT_THAT(out, ContainsRegex("Image:\\s+nginx:1\\.26\n"));
  EXPECT_THAT(out, ContainsRegex("Conditions:\n +Type +Status +Reason\n +---- +------ +------\n"
                                 " +Available +True +MinimumReplicasAvailable\n"
                                 " +Progressing +True +NewReplicaSetAvailable\n"));
  // kubectl 1.32 lists every old ReplicaSet, scaled to 0 or not.
  EXPECT_THAT(out, ContainsRegex("OldReplicaSets:\\s+" + a + " \\(0/0 replicas created\\)\n"));
  EXPECT_THAT(out, ContainsRegex("NewReplicaSet:\\s+" + b + " \\(3/3 replicas created\\)\n"));
  EXPECT_THAT(out,
              ContainsRegex("Normal +ScalingReplicaSet +\\S+ +deployment-controller +Scaled up "
                            "replica set " +
                            a + " from 0 to 3\n"));
  EXPECT_THAT(out,
              ContainsRegex("Normal +ScalingReplicaSet +\\S+ +deployment-controller +Scaled down "
                            "replica set " +
                            a + " from 1 to 0\n"));
}

TEST_F(DeploymentTest, RolloutStatusFailsWhenTheProgressDeadlineIsExceeded) {
  DeploymentYaml d;
  d.replicas = 2;
  d.progress_deadline = 3;
  apply(d);
  ASSERT_TRUE(rolled_out());
  const RsInfo old_rs = rs_with_image("nginx:1.25");
  d.image = "nginx:1.26";
  d.pod_annotations = kNeverReady;
  apply(d);

  const CommandResult r = run({"rollout", "status", "deployment/web", "--timeout=60s"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_EQ(r.err, "error: deployment \"web\" exceeded its progress deadline\n");
  EXPECT_THAT(r.out, HasSubstr("Waiting for deployment \"web\" rollout to finish: 1 out of 2 new "
                               "replicas have been updated...\n"));

  const RsInfo new_rs = rs_with_image("nginx:1.26");
  ASSERT_FALSE(new_rs.name.empty()) << rs_summary(replica_sets());
  EXPECT_EQ(condition("Progressing"), "False|ProgressDeadlineExceeded|ReplicaSet \"" + new_rs.name +
                                          "\" has timed out progressing.");
  // maxUnavailable 0: the old pods stay, so the Deployment stays Available.
  EXPECT_EQ(condition("Available"),
            "True|MinimumReplicasAvailable|Deployment has minimum availability.");
  EXPECT_EQ(new_rs.spec, 1);
  EXPECT_EQ(rs_with_image("nginx:1.25").spec, 2);
  EXPECT_EQ(rs_with_image("nginx:1.25").available, 2);

  // The condition stays: a second rollout status fails at once.
  const CommandResult again = run({"rollout", "status", "deployment/web", "--timeout=30s"});
  EXPECT_EQ(again.exit_code, 1) << describe(again);
  EXPECT_EQ(again.err, "error: deployment \"web\" exceeded its progress deadline\n");
}

TEST_F(DeploymentTest, RecreateRemovesOldPodsBeforeCreatingNewOnes) {
  DeploymentYaml d;
  d.strategy = "Recreate";
  d.replicas = 3;
  apply(d);
  ASSERT_TRUE(rolled_out());
  const RsInfo old_rs = rs_with_image("nginx:1.25");
  ASSERT_FALSE(old_rs.name.empty());

  RolloutWatch watch(*cluster_, ns_);
  ASSERT_TRUE(watch.ready());
  EXPECT_EQ(ok({"set", "image", "deployment/web", "web=nginx:1.26"}),
            "deployment.apps/web image updated\n");
  ASSERT_TRUE(rolled_out());
  const std::vector<Snapshot> samples = watch.stop();
  EXPECT_THAT(recreate_violations(samples, old_rs.hash), IsEmpty());
  // The watch saw the old pods terminating (the kubelet removes them after 1s).
  EXPECT_TRUE(std::any_of(samples.begin(), samples.end(), [&](const Snapshot& s) {
    return std::any_of(s.pods.begin(), s.pods.end(), [&](const Snapshot::Pod& p) {
      return p.hash == old_rs.hash && p.terminating;
    });
  }));

  const RsInfo new_rs = rs_with_image("nginx:1.26");
  ASSERT_FALSE(new_rs.name.empty()) << rs_summary(replica_sets());
  EXPECT_EQ(new_rs.spec, 3);
  EXPECT_EQ(rs_with_image("nginx:1.25").spec, 0);
  // Recreate has no surge: max-replicas = replicas.
  EXPECT_EQ(annotation("rs/" + new_rs.name, "deployment.kubernetes.io/max-replicas"), "3");
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled down replica set " + old_rs.name + " from 3 to 0"))
      << events_of("Deployment", "web");
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled up replica set " + new_rs.name + " from 0 to 3"))
      << events_of("Deployment", "web");
}

}  // namespace
}  // namespace kcm::e2e
