// The ReplicaSet controller in-process against a running kcm-local with
// simulated nodes: pods are created from the template with controller
// references, scheduled and made ready by kcm-local, counted in the status,
// scaled up and down (unscheduled pods first), replaced when deleted, adopted
// when orphaned and released when they stop matching; SuccessfulCreate and
// SuccessfulDelete events land on the ReplicaSet.
#include "controllers/replicaset/replica_set_controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <thread>

#include "cache/informer_factory.h"
#include "integration_env.h"
#include "record/event_broadcaster.h"
#include "record/event_sink_client.h"

namespace kcm::controllers::replicaset {
namespace {

namespace json = boost::json;
using integration::eventually_ok;
using integration::string_at;

json::value replica_set(const std::string& ns, const std::string& name, int replicas) {
  return json::parse(R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":")" + name +
                     R"(","namespace":")" + ns + R"("},"spec":{"replicas":)" +
                     std::to_string(replicas) + R"(,"selector":{"matchLabels":{"app":")" + name +
                     R"("}},"template":{"metadata":{"labels":{"app":")" + name +
                     R"("}},"spec":{"containers":[{"name":"app","image":"registry.k8s.io/)"
                     R"(pause:3.9"}]}}}})");
}

json::value pod(const std::string& ns, const std::string& name, const std::string& app,
                bool schedulable = true) {
  json::value p = json::parse(
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
      R"(","labels":{"app":")" + app +
      R"("}},"spec":{"containers":[{"name":"app","image":"registry.k8s.io/pause:3.9"}]}})");
  if (!schedulable) {
    p.as_object()["spec"].as_object()["nodeSelector"] = json::object{{"kcm.dev/nowhere", "x"}};
  }
  return p;
}

// The uid of the pod's controller ownerReference ("" for none).
std::string controller_uid(const json::value& pod) {
  const json::value* refs = api::find_path(pod, {"metadata", "ownerReferences"});
  if (refs == nullptr || !refs->is_array()) return "";
  for (const json::value& r : refs->as_array()) {
    if (api::find_bool(r.as_object(), "controller").value_or(false))
      return std::string(api::as_string_view(api::find(r.as_object(), "uid")));
  }
  return "";
}

class ReplicaSetControllerIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    e2e::LocalCluster::Options options;
    options.extra_args = {"--nodes=3", "--pod-ready-delay=0s", "--pod-terminate-delay=0s"};
    cluster_ = new e2e::LocalCluster(options);
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  void SetUp() override {
    cs_ = integration::clientset_for(*cluster_);
    ASSERT_NE(cs_, nullptr);
    broadcaster_ = std::make_unique<record::EventBroadcaster>();
    broadcaster_->start_recording_to_sink(std::make_shared<record::ClientEventSink>(cs_->rest()));
    cache::SharedInformerFactoryOptions informer_options;
    informer_options.transform = cache::drop_managed_fields;
    informers_ = std::make_unique<cache::SharedInformerFactory>(
        [cs = cs_](const api::GroupVersionResource& gvr, const std::string& ns) {
          return std::make_shared<client::ResourceClient>(cs->resource(gvr, ns));
        },
        informer_options);
    controller_ = std::make_unique<ReplicaSetController>(
        cs_, *informers_, broadcaster_->new_recorder({.component = std::string(kControllerName)}));
    informers_->start(stop_.get_token());
    runner_ = std::jthread([this] { controller_->run(2, stop_.get_token()); });
  }
  void TearDown() override {
    stop_.request_stop();
    if (runner_.joinable()) runner_.join();
    controller_.reset();
    if (informers_) informers_->shutdown();
    if (broadcaster_) broadcaster_->shutdown();
  }

  json::value create_rs(const std::string& ns, const std::string& name, int replicas) {
    integration::ensure_namespace(*cs_, ns);
    auto created = cs_->replicasets(ns).create(replica_set(ns, name, replicas));
    EXPECT_TRUE(created.ok()) << created.error().message;
    return created.ok() ? *created : json::value();
  }
  void scale(const std::string& ns, const std::string& name, int replicas) {
    auto patched =
        cs_->replicasets(ns).patch(name, client::PatchType::kMerge,
                                   R"({"spec":{"replicas":)" + std::to_string(replicas) + "}}");
    ASSERT_TRUE(patched.ok()) << patched.error().message;
  }

  // Pods controlled by `uid` that are not being deleted, by name.
  std::map<std::string, json::value> active_pods(const std::string& ns, const std::string& uid) {
    std::map<std::string, json::value> out;
    auto list = cs_->pods(ns).list({});
    if (!list.ok()) return out;
    for (json::value& p : list->items) {
      if (controller_uid(p) != uid) continue;
      if (api::find_path(p, {"metadata", "deletionTimestamp"}) != nullptr) continue;
      out.emplace(string_at(p, {"metadata", "name"}), std::move(p));
    }
    return out;
  }
  std::size_t pod_count(const std::string& ns) {
    auto list = cs_->pods(ns).list({});
    return list.ok() ? list->items.size() : 0;
  }

  // "replicas/fullyLabeled/ready/available/observedGeneration" of the status.
  std::string status_of(const std::string& ns, const std::string& name) {
    auto rs = cs_->replicasets(ns).get(name);
    if (!rs.ok()) return "<" + rs.error().message + ">";
    const auto num = [&](std::string_view field) {
      const json::value* v = api::find_path(*rs, {"status", field});
      return v != nullptr && v->is_int64() ? std::to_string(v->as_int64()) : std::string("0");
    };
    return num("replicas") + "/" + num("fullyLabeledReplicas") + "/" + num("readyReplicas") + "/" +
           num("availableReplicas") + "/" + num("observedGeneration");
  }
  ::testing::AssertionResult status_becomes(const std::string& ns, const std::string& name,
                                            const std::string& want) {
    std::string last;
    if (eventually_ok([&] { return (last = status_of(ns, name)) == want; }))
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "status of " << ns << "/" << name << " is " << last << ", want " << want;
  }

  // Messages of the controller's events with `reason` about ReplicaSet `name`.
  std::multiset<std::string> event_messages(const std::string& ns, const std::string& name,
                                            const std::string& reason) {
    std::multiset<std::string> out;
    auto list = cs_->events(ns).list({});
    if (!list.ok()) return out;
    for (const json::value& e : list->items) {
      if (string_at(e, {"involvedObject", "kind"}) == "ReplicaSet" &&
          string_at(e, {"involvedObject", "name"}) == name && string_at(e, {"reason"}) == reason &&
          string_at(e, {"source", "component"}) == kControllerName) {
        out.insert(string_at(e, {"message"}));
      }
    }
    return out;
  }

  static e2e::LocalCluster* cluster_;
  std::shared_ptr<client::Clientset> cs_;
  std::unique_ptr<record::EventBroadcaster> broadcaster_;
  std::unique_ptr<cache::SharedInformerFactory> informers_;
  std::unique_ptr<ReplicaSetController> controller_;
  std::stop_source stop_;
  std::jthread runner_;
};

e2e::LocalCluster* ReplicaSetControllerIntegrationTest::cluster_ = nullptr;

TEST_F(ReplicaSetControllerIntegrationTest, CreatesScalesAndReplacesPods) {
  const std::string ns = "rs-scale";
  const json::value rs = create_rs(ns, "web", 3);
  const std::string uid = string_at(rs, {"metadata", "uid"});
  ASSERT_FALSE(uid.empty());

  // 3 pods from the template, owned by the ReplicaSet, running and ready.
  ASSERT_TRUE(status_becomes(ns, "web", "3/3/3/3/1"));
  auto pods = active_pods(ns, uid);
  ASSERT_EQ(pods.size(), 3u);
  std::multiset<std::string> created_messages;
  for (const auto& [name, p] : pods) {
    EXPECT_EQ(name.rfind("web-", 0), 0u) << name;
    EXPECT_EQ(json::serialize(*api::find_path(p, {"metadata", "ownerReferences"})),
              R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":")" + uid +
                  R"(","controller":true,"blockOwnerDeletion":true}])");
    EXPECT_EQ(string_at(p, {"metadata", "labels", "app"}), "web");
    EXPECT_FALSE(string_at(p, {"spec", "nodeName"}).empty());
    created_messages.insert("Created pod: " + name);
  }
  EXPECT_TRUE(eventually_ok(
      [&] { return event_messages(ns, "web", "SuccessfulCreate") == created_messages; }));

  // Scale up: two more.
  scale(ns, "web", 5);
  ASSERT_TRUE(status_becomes(ns, "web", "5/5/5/5/2"));
  const auto five = active_pods(ns, uid);
  ASSERT_EQ(five.size(), 5u);

  // An unschedulable orphan that matches is adopted, and as the sixth pod it
  // is the one deleted: unscheduled pods go first.
  ASSERT_TRUE(cs_->pods(ns).create(pod(ns, "stray", "web", /*schedulable=*/false)).ok());
  ASSERT_TRUE(eventually_ok([&] {
    return event_messages(ns, "web", "SuccessfulDelete").contains("Deleted pod: stray");
  }));
  EXPECT_TRUE(eventually_ok([&] { return active_pods(ns, uid).size() == 5; }));
  auto after_stray = active_pods(ns, uid);
  EXPECT_EQ(after_stray.size(), 5u);
  for (const auto& [name, p] : five)
    EXPECT_TRUE(after_stray.contains(name)) << name << " was deleted instead of the stray pod";

  // Scale down to one.
  scale(ns, "web", 1);
  ASSERT_TRUE(status_becomes(ns, "web", "1/1/1/1/3"));
  const auto one = active_pods(ns, uid);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_TRUE(eventually_ok(
      [&] { return event_messages(ns, "web", "SuccessfulDelete").size() == 5; }));  // 4 + stray

  // A deleted pod is replaced.
  const std::string survivor = one.begin()->first;
  ASSERT_TRUE(cs_->pods(ns).delete_object(survivor).ok());
  ASSERT_TRUE(eventually_ok([&] {
    const auto now = active_pods(ns, uid);
    return now.size() == 1 && !now.contains(survivor);
  }));
  EXPECT_TRUE(status_becomes(ns, "web", "1/1/1/1/3"));
}

TEST_F(ReplicaSetControllerIntegrationTest, AdoptsOrphansAndReleasesPodsThatStopMatching) {
  const std::string ns = "rs-claim";
  integration::ensure_namespace(*cs_, ns);
  ASSERT_TRUE(cs_->pods(ns).create(pod(ns, "orphan", "db")).ok());

  const json::value rs = create_rs(ns, "db", 1);
  const std::string uid = string_at(rs, {"metadata", "uid"});
  ASSERT_TRUE(eventually_ok([&] {
    auto p = cs_->pods(ns).get("orphan");
    return p.ok() && controller_uid(*p) == uid;
  }));
  ASSERT_TRUE(status_becomes(ns, "db", "1/1/1/1/1"));
  // The adopted pod counts: nothing else is created.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(pod_count(ns), 1u);
  EXPECT_TRUE(event_messages(ns, "db", "SuccessfulCreate").empty());

  // Relabeled out of the selector: released, and replaced.
  ASSERT_TRUE(cs_->pods(ns)
                  .patch("orphan", client::PatchType::kMerge,
                         R"({"metadata":{"labels":{"app":"released"}}})")
                  .ok());
  ASSERT_TRUE(eventually_ok([&] {
    auto p = cs_->pods(ns).get("orphan");
    return p.ok() && controller_uid(*p).empty();
  }));
  ASSERT_TRUE(eventually_ok([&] {
    const auto owned = active_pods(ns, uid);
    return owned.size() == 1 && !owned.contains("orphan");
  }));
  EXPECT_TRUE(status_becomes(ns, "db", "1/1/1/1/1"));
  EXPECT_EQ(event_messages(ns, "db", "SuccessfulCreate").size(), 1u);
}

}  // namespace
}  // namespace kcm::controllers::replicaset
