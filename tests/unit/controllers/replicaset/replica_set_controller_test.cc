// The ReplicaSet controller's loop (upstream replica_set_test.go): syncs run
// against real informers fed from in-memory resources, with a recording
// PodControl and ReplicaSet client, so handlers, listers, expectations and
// claiming run as in production.
#include "controllers/replicaset/replica_set_controller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <thread>

#include "api/time.h"
#include "controller/cached_pod.h"
#include "eventually.h"
#include "fakes.h"

namespace kcm::controllers::replicaset {
namespace {

using namespace std::chrono_literals;
using test_support::eventually;
using testing::FakePodControl;
using testing::FakeReplicaSetClient;
using testing::FakeResource;
using Labels = std::map<std::string, std::string>;

const api::GroupVersionResource kRsGvr{"apps", "v1", "replicasets"};
const api::GroupVersionResource kPodGvr{"", "v1", "pods"};
constexpr const char* kNow = "2024-06-15T12:00:00Z";

json::object labels_json(const Labels& labels) {
  json::object o;
  for (const auto& [k, v] : labels)
    o[k] = v;
  return o;
}

struct RsSpec {
  std::string name = "web";
  int replicas = 1;
  Labels labels = {{"app", "web"}};
  int min_ready_seconds = 0;
  std::int64_t generation = 1;
  std::string owner_uid;  // a Deployment's, when set
  bool deleting = false;
  json::value selector = nullptr;  // default: matchLabels = labels
  json::object status;
};

json::value make_rs(const RsSpec& s) {
  json::object meta{{"name", s.name}, {"namespace", "default"}, {"generation", s.generation}};
  if (!s.owner_uid.empty()) {
    meta["ownerReferences"] = json::array{json::object{{"apiVersion", "apps/v1"},
                                                       {"kind", "Deployment"},
                                                       {"name", "deploy"},
                                                       {"uid", s.owner_uid},
                                                       {"controller", true}}};
  }
  if (s.deleting) meta["deletionTimestamp"] = "2024-06-15T11:00:00Z";
  json::object spec;
  spec["replicas"] = s.replicas;
  if (s.min_ready_seconds != 0) spec["minReadySeconds"] = s.min_ready_seconds;
  spec["selector"] = s.selector.is_null()
                         ? json::value(json::object{{"matchLabels", labels_json(s.labels)}})
                         : s.selector;
  spec["template"] = json::object{
      {"metadata", json::object{{"labels", labels_json(s.labels)}}},
      {"spec", json::object{{"containers",
                             json::array{json::object{{"name", "app"}, {"image", "nginx"}}}}}}};
  json::object rs{{"apiVersion", "apps/v1"},
                  {"kind", "ReplicaSet"},
                  {"metadata", std::move(meta)},
                  {"spec", std::move(spec)}};
  if (!s.status.empty()) rs["status"] = s.status;
  return rs;
}

struct PodSpec {
  std::string name;
  Labels labels = {{"app", "web"}};
  std::string owner;  // an RS name: controller ref to "uid-<owner>"
  std::string owner_uid;
  std::string node = "node-1";
  std::string phase = "Running";
  bool ready = true;
  std::string ready_since = "2024-06-15T10:00:00Z";
  bool deleting = false;
  std::string created = "2024-06-15T09:00:00Z";
  std::string deletion_cost;  // controller.kubernetes.io/pod-deletion-cost
};

json::value make_pod(const PodSpec& s) {
  json::object meta{{"name", s.name},
                    {"namespace", "default"},
                    {"labels", labels_json(s.labels)},
                    {"creationTimestamp", s.created}};
  if (!s.owner.empty() || !s.owner_uid.empty()) {
    meta["ownerReferences"] =
        json::array{json::object{{"apiVersion", "apps/v1"},
                                 {"kind", "ReplicaSet"},
                                 {"name", s.owner.empty() ? "other" : s.owner},
                                 {"uid", s.owner_uid.empty() ? "uid-" + s.owner : s.owner_uid},
                                 {"controller", true},
                                 {"blockOwnerDeletion", true}}};
  }
  if (s.deleting) meta["deletionTimestamp"] = "2024-06-15T11:59:00Z";
  if (!s.deletion_cost.empty()) {
    meta["annotations"] =
        json::object{{"controller.kubernetes.io/pod-deletion-cost", s.deletion_cost}};
  }
  json::object spec{{"containers", json::array{json::object{{"name", "app"}}}}};
  if (!s.node.empty()) spec["nodeName"] = s.node;
  json::object status{{"phase", s.phase}};
  status["conditions"] = json::array{json::object{{"type", "Ready"},
                                                  {"status", s.ready ? "True" : "False"},
                                                  {"lastTransitionTime", s.ready_since}}};
  return json::object{{"apiVersion", "v1"},
                      {"kind", "Pod"},
                      {"metadata", std::move(meta)},
                      {"spec", std::move(spec)},
                      {"status", std::move(status)}};
}

class ReplicaSetControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cache::SharedInformerFactoryOptions o;
    o.informer.reflector.backoff.initial = 1ms;
    o.informer.reflector.backoff.cap = 5ms;
    informers_ = std::make_unique<cache::SharedInformerFactory>(
        [this](const api::GroupVersionResource& gvr, const std::string&) {
          return std::shared_ptr<cache::ListerWatcher>(gvr.resource == "pods" ? pods_ : rss_);
        },
        o);
    pod_control_ = std::make_shared<FakePodControl>();
    rs_client_ = std::make_shared<FakeReplicaSetClient>(rss_);
  }
  void TearDown() override {
    controller_.reset();
    stop_.request_stop();
    informers_->shutdown();
  }

  // Builds the controller (after the objects of a test exist) and waits for the caches.
  void start(int burst = kBurstReplicas, bool terminating = false) {
    ReplicaSetControllerOptions o;
    o.replica_sets = rs_client_;
    o.now = [] { return *api::Time::parse(kNow); };
    o.terminating_replicas = terminating;
    o.rank = rank_;
    o.max_parallel_pod_calls = 4;
    controller_ = std::make_unique<ReplicaSetController>(nullptr, *informers_, nullptr,
                                                         pod_control_, burst, o);
    informers_->start(stop_.get_token());
    for (const auto& [resource, synced] : informers_->wait_for_cache_sync(stop_.get_token()))
      ASSERT_TRUE(synced);
    // Handlers have seen the initial lists once both registrations synced.
    ASSERT_TRUE(eventually([&] { return controller_->queue().len() > 0 || rss_count_ == 0; }));
  }

  json::value add_rs(const RsSpec& s) {
    ++rss_count_;
    return rss_->create(make_rs(s));
  }
  json::value add_pod(const PodSpec& s) { return pods_->create(make_pod(s)); }

  // Waits until the cache holds `obj` at its resourceVersion (or no longer holds it).
  bool cached(const api::GroupVersionResource& gvr, const json::value& obj) {
    const std::string key =
        "default/" + std::string(api::as_string_view(api::find_path(obj, {"metadata", "name"})));
    const std::string rv(api::as_string_view(api::find_path(obj, {"metadata", "resourceVersion"})));
    return eventually([&] {
      auto got = informers_->lister_for(gvr).get(key);
      return got.ok() && (*got)->resource_version() == rv;
    });
  }
  bool gone(const api::GroupVersionResource& gvr, const std::string& key) {
    return eventually([&] { return !informers_->lister_for(gvr).get(key).ok(); });
  }

  void drain_queue() {
    while (controller_->queue().len() > 0) {
      auto k = controller_->queue().get();
      controller_->queue().done(*k);
    }
  }

  // An RS of 1 with two pods: an old one of deletion cost -5, and a newer one
  // without a cost. The pods one sync deletes.
  std::vector<std::string> deleted_of_an_old_cheap_pod_and_a_new_one() {
    add_rs({.replicas = 1});
    add_pod({.name = "old-cheap",
             .owner = "web",
             .created = "2024-06-10T09:00:00Z",
             .deletion_cost = "-5"});
    add_pod({.name = "new", .owner = "web", .created = "2024-06-15T11:50:00Z"});
    start();
    EXPECT_TRUE(controller_->sync("default/web").ok());
    return pod_control_->deleted();
  }

  json::object last_status() {
    const auto updates = rs_client_->status_updates();
    EXPECT_FALSE(updates.empty());
    if (updates.empty()) return {};
    return updates.back().as_object().at("status").as_object();
  }

  std::shared_ptr<FakeResource> rss_ = std::make_shared<FakeResource>();
  std::shared_ptr<FakeResource> pods_ = std::make_shared<FakeResource>();
  std::unique_ptr<cache::SharedInformerFactory> informers_;
  std::shared_ptr<FakePodControl> pod_control_;
  std::shared_ptr<FakeReplicaSetClient> rs_client_;
  std::unique_ptr<ReplicaSetController> controller_;
  std::stop_source stop_;
  int rss_count_ = 0;
  controller::RankOptions rank_;  // the PodDeletionCost and LogarithmicScaleDown gates
};

// --- manageReplicas ----------------------------------------------------------

TEST_F(ReplicaSetControllerTest, CreatesMissingPodsFromTheTemplateWithAControllerRef) {
  add_rs({.replicas = 2});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  const auto created = pod_control_->created();
  ASSERT_EQ(created.size(), 2u);
  for (const json::object& pod : created) {
    const json::object& meta = pod.at("metadata").as_object();
    EXPECT_EQ(meta.at("generateName"), "web-");
    EXPECT_EQ(meta.at("labels"), json::value(json::object{{"app", "web"}}));
    EXPECT_EQ(json::serialize(meta.at("ownerReferences")),
              R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"uid-web",)"
              R"("controller":true,"blockOwnerDeletion":true}])");
    EXPECT_EQ(pod.at("spec").at("containers").as_array().size(), 1u);
  }
  // Two creations are expected and not yet observed: the next sync waits.
  const auto exp = controller_->expectations().expectations().get_expectations("default/web");
  ASSERT_TRUE(exp);
  EXPECT_EQ(exp->add, 2);
  EXPECT_FALSE(controller_->expectations().satisfied_expectations("default/web"));
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_EQ(pod_control_->created().size(), 2u);
  // The status reports what was seen (no pods yet) and the generation.
  const json::object status = last_status();
  EXPECT_EQ(status.at("replicas"), 0);
  EXPECT_EQ(status.at("observedGeneration"), 1);
}

TEST_F(ReplicaSetControllerTest, ThePodCacheKeepsEachPodsFactsForTheSyncs) {
  add_rs({.replicas = 1});
  add_pod({.name = "a", .owner = "web", .node = "node-7"});
  start();
  auto cached = informers_->lister_for(kPodGvr).get("default/a");
  ASSERT_TRUE(cached.ok());
  const auto* facts = dynamic_cast<const controller::PodFacts*>((*cached)->summary().get());
  ASSERT_NE(facts, nullptr);
  EXPECT_EQ(facts->node_name, "node-7");
  EXPECT_TRUE(facts->ready);
}

TEST_F(ReplicaSetControllerTest, DoesNothingWhenTheReplicasMatch) {
  add_rs({.replicas = 2});
  add_pod({.name = "a", .owner = "web"});
  add_pod({.name = "b", .owner = "web", .node = "node-2"});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_TRUE(pod_control_->created().empty());
  EXPECT_TRUE(pod_control_->deleted().empty());
  EXPECT_TRUE(pod_control_->patches().empty());
  const json::object status = last_status();
  EXPECT_EQ(json::serialize(status),
            R"({"replicas":2,"fullyLabeledReplicas":2,"readyReplicas":2,"availableReplicas":2,)"
            R"("observedGeneration":1})");
}

TEST_F(ReplicaSetControllerTest, SkipsTheStatusWriteWhenNothingChanged) {
  add_rs({.replicas = 1,
          .status = {{"replicas", 1},
                     {"fullyLabeledReplicas", 1},
                     {"readyReplicas", 1},
                     {"availableReplicas", 1},
                     {"observedGeneration", 1}}});
  add_pod({.name = "a", .owner = "web"});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_TRUE(rs_client_->status_updates().empty());
}

TEST_F(ReplicaSetControllerTest, ScaleDownDeletesUnscheduledThenNotReadyPodsFirst) {
  add_rs({.replicas = 1});
  add_pod({.name = "running", .owner = "web"});
  add_pod({.name = "unscheduled", .owner = "web", .node = "", .phase = "Pending", .ready = false});
  add_pod({.name = "not-ready", .owner = "web", .node = "node-2", .ready = false});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  auto deleted = pod_control_->deleted();
  std::sort(deleted.begin(), deleted.end());
  EXPECT_EQ(deleted, (std::vector<std::string>{"not-ready", "unscheduled"}));
  EXPECT_EQ(controller_->expectations().get_uids("default/web"),
            (std::set<std::string, std::less<>>{"default/not-ready", "default/unscheduled"}));
  EXPECT_FALSE(controller_->expectations().satisfied_expectations("default/web"));
}

TEST_F(ReplicaSetControllerTest, ScaleDownPrefersPodsOnNodesCrowdedWithRelatedPods) {
  // Two ReplicaSets of one Deployment: node-1 holds three of their pods.
  add_rs({.name = "web",
          .replicas = 1,
          .labels = {{"app", "web"}, {"v", "1"}},
          .owner_uid = "deploy-uid"});
  add_rs({.name = "web2",
          .replicas = 2,
          .labels = {{"app", "web"}, {"v", "2"}},
          .owner_uid = "deploy-uid"});
  add_pod(
      {.name = "lonely", .labels = {{"app", "web"}, {"v", "1"}}, .owner = "web", .node = "node-2"});
  add_pod({.name = "crowded", .labels = {{"app", "web"}, {"v", "1"}}, .owner = "web"});
  add_pod({.name = "n1", .labels = {{"app", "web"}, {"v", "2"}}, .owner = "web2"});
  add_pod({.name = "n2", .labels = {{"app", "web"}, {"v", "2"}}, .owner = "web2"});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_EQ(pod_control_->deleted(), (std::vector<std::string>{"crowded"}));
}

// The PodDeletionCost gate reaches the ranking: with it, the pod of lower
// cost goes first although it is older; without it, the newer pod does.
TEST_F(ReplicaSetControllerTest, ScaleDownDeletesTheCheaperPodFirstWithPodDeletionCost) {
  EXPECT_EQ(deleted_of_an_old_cheap_pod_and_a_new_one(), (std::vector<std::string>{"old-cheap"}));
}

TEST_F(ReplicaSetControllerTest, ScaleDownIgnoresDeletionCostsWithoutPodDeletionCost) {
  rank_.pod_deletion_cost = false;
  EXPECT_EQ(deleted_of_an_old_cheap_pod_and_a_new_one(), (std::vector<std::string>{"new"}));
}

TEST_F(ReplicaSetControllerTest, BurstReplicasBoundsOneSync) {
  add_rs({.replicas = 5});
  start(/*burst=*/3);
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_EQ(pod_control_->created().size(), 3u);
  EXPECT_EQ(controller_->expectations().expectations().get_expectations("default/web")->add, 3);
}

TEST_F(ReplicaSetControllerTest, CreateFailureStopsTheSlowStartAndSetsReplicaFailure) {
  add_rs({.replicas = 3});
  pod_control_->create_error = api::forbidden({"", "pods"}, "", "exceeded quota: q");
  start();
  auto r = controller_->sync("default/web");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), pod_control_->create_error->message);
  EXPECT_EQ(pod_control_->create_calls(), 1);  // the first batch of one failed
  // None of the three will be observed.
  EXPECT_TRUE(controller_->expectations().satisfied_expectations("default/web"));
  const json::object status = last_status();
  ASSERT_TRUE(status.contains("conditions"));
  const json::object& cond = status.at("conditions").as_array().at(0).as_object();
  EXPECT_EQ(cond.at("type"), "ReplicaFailure");
  EXPECT_EQ(cond.at("status"), "True");
  EXPECT_EQ(cond.at("reason"), "FailedCreate");
  EXPECT_EQ(cond.at("message").as_string(), pod_control_->create_error->message);
  EXPECT_EQ(cond.at("lastTransitionTime"), kNow);
}

TEST_F(ReplicaSetControllerTest, SlowStartMakesSevenCallsWhenFiveSucceed) {
  // upstream TestSyncReplicaSetCreateFailures' batching: 1 + 2 + 4 calls.
  add_rs({.replicas = 10});
  pod_control_->create_limit = 5;
  start();
  auto r = controller_->sync("default/web");
  ASSERT_FALSE(r.ok());
  // Calls 6 and 7 fail in the same concurrent batch: either error may come first.
  EXPECT_THAT(r.error(), ::testing::MatchesRegex("Internal error occurred: not creating pod, "
                                                 "limit 5 already reached \\(create call [67]\\)"));
  EXPECT_EQ(pod_control_->create_calls(), 7);
  // Five succeeded and stay expected; the five skipped are observed now.
  EXPECT_EQ(controller_->expectations().expectations().get_expectations("default/web")->add, 5);
}

TEST_F(ReplicaSetControllerTest, CreationsInATerminatingNamespaceAreNoFailure) {
  add_rs({.replicas = 2});
  api::Status terminating = api::forbidden({"", "pods"}, "",
                                           "unable to create new content in namespace default "
                                           "because it is being terminated");
  terminating.details->causes.push_back(
      {"NamespaceTerminating", "namespace default is being terminated", "metadata.namespace"});
  pod_control_->create_error = terminating;
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_EQ(pod_control_->create_calls(), 2);  // 1 + 1: every batch "succeeded"
  EXPECT_FALSE(last_status().contains("conditions"));
}

TEST_F(ReplicaSetControllerTest, DeleteNotFoundIsObservedAndNoError) {
  add_rs({.replicas = 0});
  add_pod({.name = "a", .owner = "web"});
  pod_control_->delete_error = api::not_found({"", "pods"}, "a");
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_EQ(pod_control_->deleted(), (std::vector<std::string>{"a"}));
  EXPECT_TRUE(controller_->expectations().satisfied_expectations("default/web"));
}

TEST_F(ReplicaSetControllerTest, DeleteFailureIsReturnedAndSetsReplicaFailure) {
  add_rs({.replicas = 0});
  add_pod({.name = "a", .owner = "web"});
  pod_control_->delete_error = api::internal_error("etcd is sad");
  start();
  auto r = controller_->sync("default/web");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), pod_control_->delete_error->message);
  EXPECT_TRUE(controller_->expectations().satisfied_expectations("default/web"));
  const json::object status = last_status();
  ASSERT_TRUE(status.contains("conditions"));
  EXPECT_EQ(status.at("conditions").as_array().at(0).at("reason"), "FailedDelete");
}

TEST_F(ReplicaSetControllerTest, ReplicaFailureIsRemovedOnceManagingSucceeds) {
  add_rs({.replicas = 1,
          .status = {{"replicas", 1},
                     {"conditions", json::array{json::object{{"type", "ReplicaFailure"},
                                                             {"status", "True"},
                                                             {"reason", "FailedCreate"},
                                                             {"message", "old"}}}}}});
  add_pod({.name = "a", .owner = "web"});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_FALSE(last_status().contains("conditions"));
}

TEST_F(ReplicaSetControllerTest, AReplicaSetBeingDeletedIsNotManagedButReportsStatus) {
  add_rs({.replicas = 2, .generation = 3, .deleting = true});
  add_pod({.name = "orphan"});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_TRUE(pod_control_->created().empty());
  EXPECT_TRUE(pod_control_->patches().empty());  // no adoption either
  EXPECT_EQ(last_status().at("observedGeneration"), 3);
}

TEST_F(ReplicaSetControllerTest, ADeletedReplicaSetForgetsItsExpectations) {
  start();
  controller_->expectations().expect_creations("default/gone", 3);
  ASSERT_TRUE(controller_->sync("default/gone").ok());
  EXPECT_FALSE(controller_->expectations().expectations().get_expectations("default/gone"));
  EXPECT_TRUE(rs_client_->status_updates().empty());
}

TEST_F(ReplicaSetControllerTest, AnInvalidSelectorIsNotRetried) {
  json::value selector =
      json::parse(R"({"matchExpressions":[{"key":"app","operator":"Foo","values":["web"]}]})");
  add_rs({.replicas = 2, .selector = selector});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_TRUE(pod_control_->created().empty());
  EXPECT_TRUE(rs_client_->status_updates().empty());
}

TEST_F(ReplicaSetControllerTest, AMalformedKeyIsAnError) {
  start();
  auto r = controller_->sync("a/b/c");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "unexpected key format: \"a/b/c\"");
}

// --- claiming -----------------------------------------------------------------

TEST_F(ReplicaSetControllerTest, AdoptsAMatchingOrphanAfterAnUncachedGet) {
  add_rs({.replicas = 1});
  add_pod({.name = "orphan"});
  add_pod({.name = "other-labels", .labels = {{"app", "db"}}});
  add_pod({.name = "orphan-deleting", .deleting = true});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_EQ(pod_control_->patches(),
            (std::vector<std::string>{
                R"(orphan {"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":)"
                R"("ReplicaSet","name":"web","uid":"uid-web","controller":true,)"
                R"("blockOwnerDeletion":true}],"uid":"uid-orphan"}})"}));
  EXPECT_EQ(rs_client_->gets(), 1);
  EXPECT_TRUE(pod_control_->created().empty());  // the adopted pod counts
  EXPECT_EQ(last_status().at("replicas"), 1);
}

TEST_F(ReplicaSetControllerTest, RefusesToAdoptWhenTheFreshReplicaSetIsBeingDeleted) {
  const json::value rs = add_rs({.replicas = 1});
  add_pod({.name = "orphan"});
  json::value fresh = rs;
  fresh.as_object()["metadata"].as_object()["deletionTimestamp"] = "2024-06-15T11:30:00Z";
  rs_client_->get_override = fresh;
  start();
  auto r = controller_->sync("default/web");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "can't adopt Pod default/orphan (uid-orphan): default/web has just been deleted at "
            "2024-06-15 11:30:00 +0000 UTC");
  EXPECT_TRUE(pod_control_->patches().empty());
  EXPECT_TRUE(pod_control_->created().empty());  // the sync stopped before managing
}

TEST_F(ReplicaSetControllerTest, RefusesToAdoptWhenTheReplicaSetWasRecreated) {
  const json::value rs = add_rs({.replicas = 1});
  add_pod({.name = "orphan"});
  json::value fresh = rs;
  fresh.as_object()["metadata"].as_object()["uid"] = "new-uid";
  rs_client_->get_override = fresh;
  start();
  auto r = controller_->sync("default/web");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "can't adopt Pod default/orphan (uid-orphan): can't recheck DeletionTimestamp: "
            "original ReplicaSet default/web is gone: got uid new-uid, wanted uid-web");
}

TEST_F(ReplicaSetControllerTest, ReleasesAPodThatStoppedMatchingAndReplacesIt) {
  add_rs({.replicas = 1});
  add_pod({.name = "relabeled", .labels = {{"app", "debug"}}, .owner = "web"});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_EQ(
      pod_control_->patches(),
      (std::vector<std::string>{R"(relabeled {"metadata":{"uid":"uid-relabeled","ownerReferences":)"
                                R"([{"$patch":"delete","uid":"uid-web"}]}})"}));
  EXPECT_EQ(pod_control_->created().size(), 1u);
}

TEST_F(ReplicaSetControllerTest, LeavesPodsOfOtherControllersAlone) {
  // upstream TestDoNotPatchPodWithOtherControlRef.
  add_rs({.replicas = 1});
  add_pod({.name = "theirs", .owner_uid = "someone-else"});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_TRUE(pod_control_->patches().empty());
  EXPECT_EQ(pod_control_->created().size(), 1u);
}

TEST_F(ReplicaSetControllerTest, AFailedAdoptionFailsTheSync) {
  add_rs({.replicas = 1});
  add_pod({.name = "orphan"});
  pod_control_->patch_error = api::internal_error("no patching today");
  start();
  auto r = controller_->sync("default/web");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), pod_control_->patch_error->message);
  EXPECT_TRUE(pod_control_->created().empty());
}

// --- status -------------------------------------------------------------------

TEST_F(ReplicaSetControllerTest, StatusWriteRetriesOnceOnAFreshCopy) {
  add_rs({.replicas = 1});
  add_pod({.name = "a", .owner = "web"});
  rs_client_->update_errors.push_back(
      api::conflict({"apps", "replicasets"}, "web", api::kObjectModified));
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_EQ(rs_client_->status_updates().size(), 2u);
  EXPECT_EQ(rs_client_->gets(), 1);
  EXPECT_EQ(last_status().at("replicas"), 1);
}

TEST_F(ReplicaSetControllerTest, StatusWriteGivesUpAfterOneRetry) {
  add_rs({.replicas = 1});
  add_pod({.name = "a", .owner = "web"});
  for (int i = 0; i < 2; ++i) {
    rs_client_->update_errors.push_back(
        api::conflict({"apps", "replicasets"}, "web", api::kObjectModified));
  }
  start();
  auto r = controller_->sync("default/web");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "Operation cannot be fulfilled on replicasets.apps \"web\": the object has been "
            "modified; please apply your changes to the latest version and try again");
  EXPECT_EQ(rs_client_->status_updates().size(), 2u);
}

TEST_F(ReplicaSetControllerTest, AFailedReReadWinsOverTheWriteError) {
  add_rs({.replicas = 1});
  add_pod({.name = "a", .owner = "web"});
  rs_client_->update_errors.push_back(api::internal_error("write failed"));
  rs_client_->get_error = api::not_found({"apps", "replicasets"}, "web");
  start();
  auto r = controller_->sync("default/web");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "replicasets.apps \"web\" not found");
}

TEST_F(ReplicaSetControllerTest, RequeuesWhenReadyPodsBecomeAvailableLater) {
  // Ready 5s before "now" with minReadySeconds 10: available in 5s.
  add_rs({.replicas = 1, .min_ready_seconds = 10});
  add_pod({.name = "a", .owner = "web", .ready_since = "2024-06-15T11:59:55Z"});
  start();
  drain_queue();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  const json::object status = last_status();
  EXPECT_EQ(status.at("readyReplicas"), 1);
  EXPECT_FALSE(status.contains("availableReplicas"));
  EXPECT_EQ(controller_->queue().waiting_len(), 1u);
}

// Upstream returns manageReplicas' error before planning the availability
// look: the rate-limited retry is the only requeue.
TEST_F(ReplicaSetControllerTest, AFailedManageSkipsTheAvailabilityRequeue) {
  add_rs({.replicas = 2, .min_ready_seconds = 10});
  add_pod({.name = "a", .owner = "web", .ready_since = "2024-06-15T11:59:55Z"});
  pod_control_->create_error = api::forbidden({"", "pods"}, "", "exceeded quota: q");
  start();
  drain_queue();
  ASSERT_FALSE(controller_->sync("default/web").ok());
  EXPECT_EQ(last_status().at("readyReplicas"), 1);
  EXPECT_EQ(controller_->queue().waiting_len(), 0u);
}

TEST_F(ReplicaSetControllerTest, TerminatingReplicasAreCountedOnlyWhenEnabled) {
  add_rs({.replicas = 1});
  add_pod({.name = "a", .owner = "web"});
  add_pod({.name = "leaving", .owner = "web", .deleting = true});
  start(kBurstReplicas, /*terminating=*/true);
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_EQ(last_status().at("terminatingReplicas"), 1);
  EXPECT_EQ(last_status().at("replicas"), 1);
}

TEST_F(ReplicaSetControllerTest, TerminatingReplicasAreLeftOutByDefault) {
  add_rs({.replicas = 1});
  add_pod({.name = "a", .owner = "web"});
  add_pod({.name = "leaving", .owner = "web", .deleting = true});
  start();
  ASSERT_TRUE(controller_->sync("default/web").ok());
  EXPECT_FALSE(last_status().contains("terminatingReplicas"));
  EXPECT_TRUE(pod_control_->created().empty());  // the terminating pod is not active
}

// --- event handlers -------------------------------------------------------------

TEST_F(ReplicaSetControllerTest, APodAddObservesTheCreationOfItsOwner) {
  add_rs({.replicas = 1});
  start();
  drain_queue();
  controller_->expectations().expect_creations("default/web", 1);
  add_pod({.name = "a", .owner = "web"});
  EXPECT_TRUE(eventually(
      [&] { return controller_->expectations().satisfied_expectations("default/web"); }));
  EXPECT_TRUE(eventually([&] { return controller_->queue().len() == 1; }));
  EXPECT_EQ(*controller_->queue().get(), "default/web");
}

TEST_F(ReplicaSetControllerTest, AnOrphanPodWakesEveryMatchingReplicaSet) {
  add_rs({.name = "web", .labels = {{"app", "web"}}});
  add_rs({.name = "all-web",
          .labels = {{"app", "web"}},
          .selector = json::parse(R"({"matchExpressions":[{"key":"app","operator":"Exists"}]})")});
  add_rs({.name = "db", .labels = {{"app", "db"}}});
  start();
  drain_queue();
  controller_->expectations().expect_creations("default/web", 1);
  add_pod({.name = "orphan"});
  ASSERT_TRUE(eventually([&] { return controller_->queue().len() == 2; }));
  std::set<std::string> keys;
  for (int i = 0; i < 2; ++i) {
    auto k = controller_->queue().get();
    keys.insert(*k);
    controller_->queue().done(*k);
  }
  EXPECT_EQ(keys, (std::set<std::string>{"default/all-web", "default/web"}));
  // No controller waits for an orphan.
  EXPECT_FALSE(controller_->expectations().satisfied_expectations("default/web"));
}

TEST_F(ReplicaSetControllerTest, DeletionsCountOncePerExpectedPod) {
  add_rs({.replicas = 1});
  add_pod({.name = "a", .owner = "web"});
  add_pod({.name = "b", .owner = "web"});
  const json::value c = add_pod({.name = "c", .owner = "web"});
  start();
  controller_->expectations().expect_deletions("default/web", {"default/a", "default/b"});
  // An unexpected pod's deletion does not count.
  pods_->remove("default/c");
  ASSERT_TRUE(gone(kPodGvr, "default/c"));
  // A graceful delete (deletionTimestamp) and the final delete of one pod count once.
  const json::value a_deleting = add_pod({.name = "a", .owner = "web", .deleting = true});
  ASSERT_TRUE(cached(kPodGvr, a_deleting));
  pods_->remove("default/a");
  ASSERT_TRUE(gone(kPodGvr, "default/a"));
  ASSERT_TRUE(eventually([&] {
    return controller_->expectations().get_uids("default/web") ==
           std::set<std::string, std::less<>>{"default/b"};
  }));
  EXPECT_FALSE(controller_->expectations().satisfied_expectations("default/web"));
  pods_->remove("default/b");
  EXPECT_TRUE(eventually(
      [&] { return controller_->expectations().satisfied_expectations("default/web"); }));
}

TEST_F(ReplicaSetControllerTest, DeletingAReplicaSetDropsItsExpectations) {
  add_rs({.replicas = 1});
  start();
  controller_->expectations().expect_creations("default/web", 4);
  rss_->remove("default/web");
  EXPECT_TRUE(eventually(
      [&] { return !controller_->expectations().expectations().get_expectations("default/web"); }));
}

TEST_F(ReplicaSetControllerTest, ARecreatedReplicaSetStartsWithoutOldExpectations) {
  // upstream TestExpectationsOnRecreate: the same name, a new uid, seen as an update.
  add_rs({.replicas = 1});
  start();
  controller_->expectations().expect_creations("default/web", 4);
  json::value recreated = make_rs({.replicas = 1});
  recreated.as_object()["metadata"].as_object()["uid"] = "uid-web-2";
  rss_->update(recreated);
  EXPECT_TRUE(eventually(
      [&] { return !controller_->expectations().expectations().get_expectations("default/web"); }));
}

TEST_F(ReplicaSetControllerTest, APodBecomingReadyRequeuesAfterMinReadySeconds) {
  add_rs({.replicas = 1, .min_ready_seconds = 30});
  add_pod({.name = "a", .owner = "web", .ready = false});
  start();
  drain_queue();
  add_pod({.name = "a", .owner = "web", .ready = true});
  EXPECT_TRUE(eventually([&] { return controller_->queue().waiting_len() == 1; }));
  EXPECT_TRUE(eventually([&] { return controller_->queue().len() == 1; }));  // and now
}

TEST_F(ReplicaSetControllerTest, AnOrphanWhoseLabelsChangeWakesTheReplicaSetsNowMatching) {
  add_rs({.name = "db", .labels = {{"app", "db"}}});
  add_pod({.name = "p", .labels = {{"app", "web"}}});
  start();
  drain_queue();
  add_pod({.name = "p", .labels = {{"app", "db"}}});
  ASSERT_TRUE(eventually([&] { return controller_->queue().len() == 1; }));
  EXPECT_EQ(*controller_->queue().get(), "default/db");
}

TEST_F(ReplicaSetControllerTest, AReleasedPodWakesItsOldOwner) {
  add_rs({.name = "web"});
  add_pod({.name = "p", .owner = "web"});
  start();
  drain_queue();
  add_pod({.name = "p", .labels = {{"app", "other"}}});  // ref removed, labels changed
  ASSERT_TRUE(eventually([&] { return controller_->queue().len() == 1; }));
  EXPECT_EQ(*controller_->queue().get(), "default/web");
}

TEST_F(ReplicaSetControllerTest, RunSyncsUntilStopped) {
  add_rs({.replicas = 2});
  pod_control_->pods = pods_;  // creations reach the cache, and are observed
  start();
  std::stop_source run_stop;
  std::jthread runner([&] { controller_->run(2, run_stop.get_token()); });
  ASSERT_TRUE(eventually([&] {
    const auto updates = rs_client_->status_updates();
    return !updates.empty() &&
           updates.back().at("status").as_object().at("replicas").as_int64() == 2;
  }));
  EXPECT_EQ(pod_control_->created().size(), 2u);
  run_stop.request_stop();
  runner.join();
}

}  // namespace
}  // namespace kcm::controllers::replicaset
