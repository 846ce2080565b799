// The ReplicaSet controller end to end: kcm-local (three simulated nodes) and
// kcm as separate processes, driven by the real kubectl.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <regex>
#include <sstream>

#include "kcm_process.h"
#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

// One cluster and one kcm for the suite; every test works in its own namespace.
class ReplicaSetTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    LocalCluster::Options o;
    o.extra_args = {"--nodes=3", "--pod-ready-delay=300ms", "--pod-terminate-delay=2s"};
    cluster_ = std::make_unique<LocalCluster>(o);
    kcm_ = std::make_unique<KcmProcess>(
        *cluster_,
        std::vector<std::string>{"--leader-elect=false", "--controllers=replicaset-controller"});
  }
  static void TearDownTestSuite() {
    kcm_.reset();
    cluster_.reset();
  }

  void SetUp() override {
    ns_ = "rs-" + std::to_string(++counter_);
    ok({"create", "namespace", ns_});
  }
  void TearDown() override {
    if (HasFailure()) ADD_FAILURE() << "kcm log tail:\n" << tail(kcm_->log(), 4000);
  }

  static std::string tail(const std::string& s, std::size_t n) {
    return s.size() > n ? s.substr(s.size() - n) : s;
  }

  std::string ok(const std::vector<std::string>& args, const std::string& input = {}) {
    const CommandResult r = kubectl_(args, input);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.out;
  }
  // kubectl in the test's namespace.
  std::string kns(std::vector<std::string> args, const std::string& input = {}) {
    args.insert(args.end(), {"-n", ns_});
    return ok(args, input);
  }
  // `what` may carry more arguments, e.g. "pods -l app=web".
  std::string jsonpath(const std::string& what, const std::string& path) {
    std::vector<std::string> args = {"get"};
    std::istringstream words(what);
    for (std::string w; words >> w;)
      args.push_back(w);
    args.insert(args.end(), {"-n", ns_, "-o", "jsonpath=" + path});
    const CommandResult r = kubectl_(args);
    return r.exit_code == 0 ? r.out : "<" + r.err + ">";
  }

  static std::string rs_yaml(const std::string& name, int replicas, int min_ready_seconds = 0,
                             const std::string& pod_annotations = "") {
    std::string y = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: " + name +
                    "\nspec:\n  replicas: " + std::to_string(replicas) +
                    "\n  minReadySeconds: " + std::to_string(min_ready_seconds) +
                    "\n  selector:\n    matchLabels: {app: " + name +
                    "}\n  template:\n    metadata:\n      labels: {app: " + name + "}\n";
    if (!pod_annotations.empty()) y += "      annotations: {" + pod_annotations + "}\n";
    y += "    spec:\n      containers:\n      - name: web\n        image: nginx\n";
    return y;
  }
  static std::string pod_yaml(const std::string& name, const std::string& labels,
                              const std::string& annotations = "") {
    std::string y =
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  labels: {" + labels + "}\n";
    if (!annotations.empty()) y += "  annotations: {" + annotations + "}\n";
    y += "spec:\n  containers:\n  - name: web\n    image: nginx\n";
    return y;
  }

  // Pod names with label app=<app>, sorted; with `live` only those not being deleted.
  std::vector<std::string> pods(const std::string& app, bool live = true) {
    const std::string out =
        jsonpath("pods -l app=" + app,
                 "{range .items[*]}{.metadata.name} {.metadata.deletionTimestamp}{\"\\n\"}{end}");
    std::vector<std::string> names;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string name, deleting;
      fields >> name >> deleting;
      if (!name.empty() && (!live || deleting.empty())) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  // "replicas/fullyLabeled/ready/available/observedGeneration".
  std::string status(const std::string& rs) {
    return jsonpath("rs/" + rs,
                    "{.status.replicas}/{.status.fullyLabeledReplicas}/{.status.readyReplicas}/"
                    "{.status.availableReplicas}/{.status.observedGeneration}");
  }
  bool status_is(const std::string& rs, const std::string& want) {
    return eventually([&] { return status(rs) == want; }, std::chrono::seconds(30));
  }
  // The events' "reason message" lines for the object, oldest first.
  std::string events_of(const std::string& kind, const std::string& name) {
    return jsonpath(
        "events --field-selector involvedObject.kind=" + kind + ",involvedObject.name=" + name,
        "{range .items[*]}{.reason} {.message} ({.source.component}){\"\\n\"}{end}");
  }

  inline static std::unique_ptr<LocalCluster> cluster_;
  inline static std::unique_ptr<KcmProcess> kcm_;
  inline static int counter_ = 0;
  Kubectl kubectl_{*cluster_};
  std::string ns_;
};

TEST_F(ReplicaSetTest, ScalesUpAndDownWithStatusEventsAndGetColumns) {
  kns({"apply", "-f", "-"}, rs_yaml("web", 3));
  ASSERT_TRUE(status_is("web", "3/3/3/3/1")) << status("web");
  EXPECT_EQ(pods("web").size(), 3u);
  // Every pod is controlled by the RS.
  EXPECT_EQ(jsonpath("pods -l app=web",
                     "{range .items[*]}{.metadata.ownerReferences[0].kind}/"
                     "{.metadata.ownerReferences[0].name}/"
                     "{.metadata.ownerReferences[0].controller}/"
                     "{.metadata.ownerReferences[0].blockOwnerDeletion} {end}"),
            "ReplicaSet/web/true/true ReplicaSet/web/true/true ReplicaSet/web/true/true ");
  EXPECT_THAT(kns({"get", "rs", "web"}),
              ContainsRegex("NAME +DESIRED +CURRENT +READY +AGE\nweb +3 +3 +3 +"));

  kns({"scale", "rs", "web", "--replicas=5"});
  ASSERT_TRUE(status_is("web", "5/5/5/5/2")) << status("web");
  EXPECT_THAT(kns({"get", "rs", "web"}), ContainsRegex("web +5 +5 +5 +"));

  kns({"patch", "rs", "web", "--type=merge", "-p", R"({"spec":{"replicas":1}})"});
  ASSERT_TRUE(eventually([&] { return pods("web").size() == 1; }, std::chrono::seconds(30)));
  ASSERT_TRUE(status_is("web", "1/1/1/1/3")) << status("web");

  const std::string events = events_of("ReplicaSet", "web");
  const std::regex created(
      R"(SuccessfulCreate Created pod: web-[a-z0-9]{5} \(replicaset-controller\))");
  const std::regex deleted(
      R"(SuccessfulDelete Deleted pod: web-[a-z0-9]{5} \(replicaset-controller\))");
  EXPECT_EQ(std::distance(std::sregex_iterator(events.begin(), events.end(), created),
                          std::sregex_iterator()),
            5)
      << events;
  EXPECT_EQ(std::distance(std::sregex_iterator(events.begin(), events.end(), deleted),
                          std::sregex_iterator()),
            4)
      << events;
}

TEST_F(ReplicaSetTest, ReplacesADeletedPodWhileTheOldOneTerminates) {
  kns({"apply", "-f", "-"}, rs_yaml("web", 2));
  ASSERT_TRUE(status_is("web", "2/2/2/2/1"));
  const std::vector<std::string> before = pods("web");
  kns({"delete", "pod", before[0], "--wait=false"});
  // A replacement exists while the deleted pod is still terminating (2s).
  ASSERT_TRUE(eventually([&] {
    const auto live = pods("web");
    const auto all = pods("web", false);
    return live.size() == 2 && all.size() == 3 &&
           std::find(live.begin(), live.end(), before[0]) == live.end();
  })) << jsonpath("pods", "{.items[*].metadata.name}");
  ASSERT_TRUE(eventually([&] { return pods("web", false).size() == 2; }, std::chrono::seconds(30)));
  EXPECT_TRUE(status_is("web", "2/2/2/2/1")) << status("web");
}

TEST_F(ReplicaSetTest, AdoptsAMatchingOrphanAndReleasesAPodThatStopsMatching) {
  kns({"apply", "-f", "-"}, pod_yaml("orphan", "app: web"));
  kns({"apply", "-f", "-"}, rs_yaml("web", 2));
  ASSERT_TRUE(status_is("web", "2/2/2/2/1")) << status("web");
  // The orphan counts: only one pod was created.
  EXPECT_EQ(pods("web").size(), 2u);
  EXPECT_EQ(jsonpath("pod/orphan",
                     "{.metadata.ownerReferences[0].name}/"
                     "{.metadata.ownerReferences[0].controller}"),
            "web/true");

  // Relabelled: released (its controller reference removed) and replaced.
  kns({"label", "pod", "orphan", "app=other", "--overwrite"});
  ASSERT_TRUE(eventually([&] {
    return jsonpath("pod/orphan", "{.metadata.ownerReferences}").empty();
  })) << jsonpath("pod/orphan", "{.metadata.ownerReferences}");
  ASSERT_TRUE(eventually([&] { return pods("web").size() == 2; }));
  EXPECT_TRUE(status_is("web", "2/2/2/2/1")) << status("web");
  EXPECT_EQ(pods("other"), std::vector<std::string>{"orphan"});
}

TEST_F(ReplicaSetTest, ScaleDownDeletesInUpstreamsOrder) {
  // A never-ready orphan is adopted; a ready pod gets a low deletion cost.
  kns({"apply", "-f", "-"},
      pod_yaml("not-ready", "app: web", R"("local.kcm.dev/never-ready": "true")"));
  kns({"apply", "-f", "-"}, rs_yaml("web", 4));
  ASSERT_TRUE(status_is("web", "4/4/3/3/1")) << status("web");
  std::vector<std::string> ready;
  for (const std::string& p : pods("web"))
    if (p != "not-ready") ready.push_back(p);
  ASSERT_EQ(ready.size(), 3u);
  kns({"annotate", "pod", ready[1], "controller.kubernetes.io/pod-deletion-cost=-100"});

  // Not ready goes first, before any ready pod.
  kns({"scale", "rs", "web", "--replicas=3"});
  ASSERT_TRUE(eventually([&] { return pods("web").size() == 3; }, std::chrono::seconds(30)));
  EXPECT_EQ(pods("web"), ready);
  // Then the lowest deletion cost among equals.
  kns({"scale", "rs", "web", "--replicas=2"});
  ASSERT_TRUE(eventually([&] { return pods("web").size() == 2; }, std::chrono::seconds(30)));
  const auto left = pods("web");
  EXPECT_EQ(std::find(left.begin(), left.end(), ready[1]), left.end()) << ready[1];
}

TEST_F(ReplicaSetTest, MinReadySecondsDelaysAvailability) {
  kns({"apply", "-f", "-"}, rs_yaml("slow", 2, /*min_ready_seconds=*/3));
  // availableReplicas 0 is omitted (omitempty), so jsonpath prints nothing.
  ASSERT_TRUE(status_is("slow", "2/2/2//1")) << status("slow");
  // The controller requeues itself after minReadySeconds: no other event comes.
  ASSERT_TRUE(status_is("slow", "2/2/2/2/1")) << status("slow");
}

TEST_F(ReplicaSetTest, DescribeShowsPodsStatusAndEvents) {
  kns({"apply", "-f", "-"}, rs_yaml("web", 2));
  ASSERT_TRUE(status_is("web", "2/2/2/2/1"));
  const std::string out = kns({"describe", "rs", "web"});
  EXPECT_THAT(out, ContainsRegex("Replicas: +2 current / 2 desired"));
  EXPECT_THAT(out, ContainsRegex("Pods Status: +2 Running / 0 Waiting / 0 Succeeded / 0 Failed"));
  EXPECT_THAT(
      out,
      ContainsRegex("Normal +SuccessfulCreate +[^ ]+ +replicaset-controller +Created pod: web-"));
}

}  // namespace
}  // namespace kcm::e2e
