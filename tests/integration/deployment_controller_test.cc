// The Deployment controller against a running kcm-local with simulated nodes,
// together with the ReplicaSet controller (both built through kcm's
// controller descriptors, as kcm runs them): rollouts, Recreate, pause and
// resume, rollback by template revert, revision history clean-up and the
// Progressing condition's reasons, observed through the API.
#include "controllers/deployment/deployment_controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "app/controller_descriptor.h"
#include "app/options.h"
#include "cache/informer_factory.h"
#include "integration_env.h"
#include "metrics/registry.h"
#include "record/fake_recorder.h"

namespace kcm::controllers::deployment {
namespace {

namespace json = boost::json;
using integration::eventually_ok;
using integration::string_at;
using std::chrono::milliseconds;
using std::chrono::seconds;

const api::GroupVersionResource kDeploymentsGvr{"apps", "v1", "deployments"};

std::int64_t int_at(const json::value& v, std::initializer_list<std::string_view> path) {
  const json::value* x = api::find_path(v, path);
  return x != nullptr && x->is_number() ? x->to_number<std::int64_t>() : 0;
}

std::string annotation(const json::value& obj, std::string_view key) {
  return string_at(obj, {"metadata", "annotations", key});
}

std::string image_of(const json::value& obj) {
  const json::value* c = api::find_path(obj, {"spec", "template", "spec", "containers"});
  if (c == nullptr || !c->is_array() || c->as_array().empty()) return "";
  return string_at(c->as_array()[0], {"image"});
}

// The Progressing reason of a Deployment's status ("" when none).
std::string progressing_reason(const json::value& d) {
  const json::value* conditions = api::find_path(d, {"status", "conditions"});
  if (conditions == nullptr || !conditions->is_array()) return "";
  for (const json::value& c : conditions->as_array()) {
    if (string_at(c, {"type"}) == "Progressing") return string_at(c, {"reason"});
  }
  return "";
}

class DeploymentControllerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cluster_ = new e2e::LocalCluster(e2e::LocalCluster::Options{
        .extra_args = {"--nodes=3", "--pod-ready-delay=300ms", "--pod-terminate-delay=200ms"}});
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  void SetUp() override {
    cs_ = integration::clientset_for(*cluster_);
    ASSERT_NE(cs_, nullptr);
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    ns_ = "dc-" + name;
    integration::ensure_namespace(*cs_, ns_);

    informers_ = std::make_unique<cache::SharedInformerFactory>(
        [cs = cs_](const api::GroupVersionResource& gvr, const std::string& ns) {
          return std::make_shared<client::ResourceClient>(cs->resource(gvr, ns));
        });
    // Every Progressing reason each Deployment of this test goes through.
    auto observer = std::make_shared<cache::EventHandlerFuncs>();
    const auto seen = [this](const cache::ObjectPtr& d) {
      if (d->namespace_() != ns_) return;
      const std::string reason = progressing_reason(d->object());
      std::lock_guard lock(mu_);
      std::vector<std::string>& reasons = reasons_[std::string(d->name())];
      if (!reason.empty() && (reasons.empty() || reasons.back() != reason)) {
        reasons.push_back(reason);
      }
    };
    observer->add = [seen](const cache::ObjectPtr& d, bool) { seen(d); };
    observer->update = [seen](const cache::ObjectPtr&, const cache::ObjectPtr& d) { seen(d); };
    ASSERT_TRUE(informers_->informer_for(kDeploymentsGvr)->add_event_handler(observer).ok());

    // Both controllers as kcm builds them.
    const app::ControllerContext ctx{
        .options = options_,
        .informers = *informers_,
        .client = [this](std::string_view) -> Result<std::shared_ptr<client::Clientset>> {
          return cs_;
        },
        .recorder = [this](std::string_view component,
                           const client::Clientset&) -> std::shared_ptr<record::EventRecorder> {
          return component == kControllerName ? deployment_events_ : replica_set_events_;
        },
        .metrics = metrics_,
    };
    for (std::string_view name : {kControllerName, std::string_view("replicaset-controller")}) {
      const auto& all = app::controller_descriptors();
      const auto it = std::find_if(all.begin(), all.end(), [&](const app::ControllerDescriptor& d) {
        return d.name == name;
      });
      ASSERT_NE(it, all.end()) << name;
      auto controller = it->init(ctx);
      ASSERT_TRUE(controller.ok()) << controller.error();
      ASSERT_NE(*controller, nullptr);
      controllers_.push_back(std::move(*controller));
    }
    informers_->start(stop_.get_token());
    for (const auto& c : controllers_) {
      threads_.emplace_back([c = c.get(), token = stop_.get_token()] { c->run(token); });
    }
  }

  void TearDown() override {
    stop_.request_stop();
    threads_.clear();  // joins: each run() drains its queue and returns
    controllers_.clear();
    if (informers_) informers_->shutdown();
  }

  // --- the Deployment ------------------------------------------------------
  json::object deployment_manifest(const std::string& name, int replicas, const std::string& image,
                                   json::object strategy, json::object extra_spec = {}) {
    json::object spec{
        {"replicas", replicas},
        {"selector", json::object{{"matchLabels", json::object{{"app", name}}}}},
        {"strategy", std::move(strategy)},
        {"template",
         json::object{
             {"metadata", json::object{{"labels", json::object{{"app", name}}}}},
             {"spec", json::object{{"containers", json::array{json::object{{"name", "app"},
                                                                           {"image", image}}}}}}}}};
    for (const auto& kv : extra_spec)
      spec[kv.key()] = kv.value();
    return json::object{{"apiVersion", "apps/v1"},
                        {"kind", "Deployment"},
                        {"metadata", json::object{{"name", name}, {"namespace", ns_}}},
                        {"spec", std::move(spec)}};
  }
  static json::object rolling(int max_surge, int max_unavailable) {
    return json::object{{"type", "RollingUpdate"},
                        {"rollingUpdate", json::object{{"maxSurge", max_surge},
                                                       {"maxUnavailable", max_unavailable}}}};
  }
  void create(const json::object& manifest) {
    auto r = cs_->deployments(ns_).create(manifest);
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  json::value get(const std::string& name) {
    auto d = cs_->deployments(ns_).get(name);
    EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().message);
    return d.ok() ? *d : json::value();
  }
  // A read-modify-write of the Deployment, retried on conflicts (the
  // controller writes its status meanwhile).
  void edit(const std::string& name, const std::function<void(json::object& spec)>& change) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      json::value d = get(name);
      change(d.as_object()["spec"].as_object());
      auto r = cs_->deployments(ns_).update(d);
      if (r.ok()) return;
      ASSERT_TRUE(r.error().is(api::reason::kConflict)) << r.error().message;
    }
    FAIL() << "too many conflicts updating " << name;
  }
  void set_image(const std::string& name, const std::string& image) {
    edit(name, [&](json::object& spec) {
      spec["template"]
          .as_object()["spec"]
          .as_object()["containers"]
          .as_array()[0]
          .as_object()["image"] = image;
    });
  }
  // kubectl rollout status's "successfully rolled out" (spec §6.1), plus the
  // controller's own verdict.
  bool rolled_out(const std::string& name) {
    const json::value d = get(name);
    const std::int64_t replicas = int_at(d, {"spec", "replicas"});
    return int_at(d, {"status", "observedGeneration"}) >= int_at(d, {"metadata", "generation"}) &&
           int_at(d, {"status", "updatedReplicas"}) == replicas &&
           int_at(d, {"status", "replicas"}) == replicas &&
           int_at(d, {"status", "availableReplicas"}) == replicas &&
           progressing_reason(d) == "NewReplicaSetAvailable";
  }
  ::testing::AssertionResult rolls_out(const std::string& name) {
    if (eventually_ok([&] { return rolled_out(name); }, seconds(60))) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "not rolled out: " << json::serialize(get(name));
  }

  // --- its ReplicaSets and pods -------------------------------------------
  std::vector<json::value> replica_sets(const std::string& name) {
    auto list = cs_->replicasets(ns_).list_all({.label_selector = "app=" + name});
    EXPECT_TRUE(list.ok());
    return list.ok() ? list->items : std::vector<json::value>{};
  }
  std::optional<json::value> rs_for(const std::string& name, const std::string& image) {
    for (const json::value& rs : replica_sets(name)) {
      if (image_of(rs) == image) return rs;
    }
    return std::nullopt;
  }
  std::int64_t spec_of(const std::string& name, const std::string& image) {
    const auto rs = rs_for(name, image);
    return rs ? int_at(*rs, {"spec", "replicas"}) : -1;
  }
  std::vector<json::value> pods_with_hash(const std::string& hash) {
    auto list = cs_->pods(ns_).list_all({.label_selector = "pod-template-hash=" + hash});
    EXPECT_TRUE(list.ok());
    return list.ok() ? list->items : std::vector<json::value>{};
  }
  std::vector<std::string> reasons(const std::string& name) {
    std::lock_guard lock(mu_);
    return reasons_[name];
  }
  // The reasons once the observer has seen `last` (it hears the Deployment
  // through its own informer, which may be behind a GET that saw it already).
  std::vector<std::string> reasons_through(const std::string& name, const std::string& last) {
    eventually_ok(
        [&] {
          const std::vector<std::string> r = reasons(name);
          return !r.empty() && r.back() == last;
        },
        seconds(10));
    return reasons(name);
  }
  // The deployment controller's events ("<type> <reason> <message>").
  bool has_event(const std::string& text) {
    const auto events = deployment_events_->events();
    return std::find(events.begin(), events.end(), text) != events.end();
  }
  bool has_event_around(const std::string& prefix, const std::string& suffix) {
    const auto events = deployment_events_->events();
    return std::any_of(events.begin(), events.end(), [&](const std::string& e) {
      return e.starts_with(prefix) && e.ends_with(suffix);
    });
  }
  std::string events() { return ::testing::PrintToString(deployment_events_->events()); }

  static e2e::LocalCluster* cluster_;
  std::shared_ptr<client::Clientset> cs_;
  std::string ns_;
  app::Options options_;
  metrics::Registry metrics_;
  std::shared_ptr<record::FakeRecorder> deployment_events_ =
      std::make_shared<record::FakeRecorder>();
  std::shared_ptr<record::FakeRecorder> replica_set_events_ =
      std::make_shared<record::FakeRecorder>();
  std::unique_ptr<cache::SharedInformerFactory> informers_;
  std::vector<std::unique_ptr<app::Controller>> controllers_;
  std::stop_source stop_;
  std::vector<std::jthread> threads_;
  std::mutex mu_;
  std::map<std::string, std::vector<std::string>> reasons_;
};

e2e::LocalCluster* DeploymentControllerTest::cluster_ = nullptr;

TEST_F(DeploymentControllerTest, CreateThenRollingUpdate) {
  create(deployment_manifest("web", 4, "nginx:1", rolling(1, 1)));
  ASSERT_TRUE(rolls_out("web"));

  // The first ReplicaSet: revision 1, named and labelled by the template hash.
  std::vector<json::value> rss = replica_sets("web");
  ASSERT_EQ(rss.size(), 1u);
  const json::value first = rss[0];
  const std::string hash = string_at(first, {"metadata", "labels", "pod-template-hash"});
  ASSERT_FALSE(hash.empty());
  EXPECT_EQ(string_at(first, {"metadata", "name"}), "web-" + hash);
  EXPECT_EQ(string_at(first, {"spec", "selector", "matchLabels", "pod-template-hash"}), hash);
  EXPECT_EQ(string_at(first, {"spec", "template", "metadata", "labels", "pod-template-hash"}),
            hash);
  const json::value* owner = api::find_path(first, {"metadata", "ownerReferences"});
  ASSERT_TRUE(owner != nullptr && owner->is_array() && owner->as_array().size() == 1u);
  EXPECT_EQ(string_at(owner->as_array()[0], {"kind"}), "Deployment");
  EXPECT_EQ(string_at(owner->as_array()[0], {"name"}), "web");
  EXPECT_EQ(string_at(owner->as_array()[0], {"uid"}), string_at(get("web"), {"metadata", "uid"}));
  EXPECT_EQ(annotation(first, "deployment.kubernetes.io/revision"), "1");
  EXPECT_EQ(annotation(first, "deployment.kubernetes.io/desired-replicas"), "4");
  EXPECT_EQ(annotation(first, "deployment.kubernetes.io/max-replicas"), "5");
  EXPECT_EQ(annotation(get("web"), "deployment.kubernetes.io/revision"), "1");
  EXPECT_EQ(pods_with_hash(hash).size(), 4u);
  const std::string first_name = "web-" + hash;
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled up replica set " + first_name + " from 0 to 4"))
      << events();

  // A new image: a second ReplicaSet, never more than 4 + 1 pods in spec
  // and never fewer than 4 - 1 available.
  set_image("web", "nginx:2");
  bool within_bounds = true;
  std::string violation;
  ASSERT_TRUE(eventually_ok(
      [&] {
        std::int64_t total = 0;
        for (const json::value& rs : replica_sets("web"))
          total += int_at(rs, {"spec", "replicas"});
        const json::value d = get("web");
        if (total > 5 || int_at(d, {"status", "availableReplicas"}) < 3) {
          within_bounds = false;
          violation = json::serialize(d);
        }
        return rolled_out("web") && image_of(d) == "nginx:2";
      },
      seconds(60)))
      << json::serialize(get("web"));
  EXPECT_TRUE(within_bounds) << violation;
  EXPECT_EQ(spec_of("web", "nginx:1"), 0);
  EXPECT_EQ(spec_of("web", "nginx:2"), 4);
  const json::value second = *rs_for("web", "nginx:2");
  const std::string second_name = string_at(second, {"metadata", "name"});
  EXPECT_EQ(annotation(second, "deployment.kubernetes.io/revision"), "2");
  EXPECT_EQ(annotation(get("web"), "deployment.kubernetes.io/revision"), "2");
  // The first RS stays (revisionHistoryLimit 10), empty.
  EXPECT_EQ(replica_sets("web").size(), 2u);
  EXPECT_TRUE(eventually_ok([&] { return pods_with_hash(hash).empty(); }));
  // maxSurge 1: the new RS starts at 1; maxUnavailable 1: the old one goes 4 -> 3 first.
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled up replica set " + second_name + " from 0 to 1"))
      << events();
  EXPECT_TRUE(
      has_event("Normal ScalingReplicaSet Scaled down replica set " + first_name + " from 4 to 3"))
      << events();
  // The last step's size depends on how many new pods were ready at once.
  EXPECT_TRUE(has_event_around(
      "Normal ScalingReplicaSet Scaled down replica set " + first_name + " from ", " to 0"))
      << events();
  const std::vector<std::string> seen = reasons_through("web", "NewReplicaSetAvailable");
  EXPECT_NE(std::find(seen.begin(), seen.end(), "NewReplicaSetCreated"), seen.end())
      << ::testing::PrintToString(seen);
  EXPECT_NE(std::find(seen.begin(), seen.end(), "ReplicaSetUpdated"), seen.end())
      << ::testing::PrintToString(seen);
  EXPECT_EQ(seen.back(), "NewReplicaSetAvailable");
}

TEST_F(DeploymentControllerTest, RecreateStopsOldPodsFirst) {
  create(deployment_manifest("db", 2, "postgres:15", json::object{{"type", "Recreate"}}));
  ASSERT_TRUE(rolls_out("db"));
  const std::string old_hash =
      string_at(*rs_for("db", "postgres:15"), {"metadata", "labels", "pod-template-hash"});

  set_image("db", "postgres:16");
  ASSERT_TRUE(eventually_ok([&] { return rs_for("db", "postgres:16").has_value(); }, seconds(30)));
  // By the time the new RS exists, every old pod is gone or terminal.
  for (const json::value& pod : pods_with_hash(old_hash)) {
    const std::string phase = string_at(pod, {"status", "phase"});
    EXPECT_TRUE(phase == "Succeeded" || phase == "Failed") << json::serialize(pod);
  }
  ASSERT_TRUE(rolls_out("db"));
  EXPECT_EQ(spec_of("db", "postgres:15"), 0);
  EXPECT_EQ(spec_of("db", "postgres:16"), 2);
  // Down to 0 first, then the new RS at full size at once.
  const std::string old_name = "db-" + old_hash;
  const std::string new_name = string_at(*rs_for("db", "postgres:16"), {"metadata", "name"});
  const auto all = deployment_events_->events();
  const auto down =
      std::find(all.begin(), all.end(),
                "Normal ScalingReplicaSet Scaled down replica set " + old_name + " from 2 to 0");
  const auto up =
      std::find(all.begin(), all.end(),
                "Normal ScalingReplicaSet Scaled up replica set " + new_name + " from 0 to 2");
  ASSERT_NE(down, all.end()) << events();
  ASSERT_NE(up, all.end()) << events();
  EXPECT_LT(down - all.begin(), up - all.begin());
}

TEST_F(DeploymentControllerTest, PauseAndResume) {
  create(deployment_manifest("api", 2, "api:1", rolling(1, 0)));
  ASSERT_TRUE(rolls_out("api"));
  edit("api", [](json::object& spec) { spec["paused"] = true; });
  ASSERT_TRUE(eventually_ok([&] { return progressing_reason(get("api")) == "DeploymentPaused"; }));

  // Paused: a new template waits, a new size does not.
  set_image("api", "api:2");
  edit("api", [](json::object& spec) { spec["replicas"] = 3; });
  ASSERT_TRUE(eventually_ok([&] { return spec_of("api", "api:1") == 3; })) << events();
  std::this_thread::sleep_for(seconds(1));
  EXPECT_FALSE(rs_for("api", "api:2").has_value());
  EXPECT_EQ(progressing_reason(get("api")), "DeploymentPaused");

  edit("api", [](json::object& spec) { spec.erase("paused"); });
  ASSERT_TRUE(eventually_ok(
      [&] {
        const json::value d = get("api");
        return rolled_out("api") && image_of(d) == "api:2";
      },
      seconds(60)));
  EXPECT_EQ(spec_of("api", "api:2"), 3);
  EXPECT_EQ(spec_of("api", "api:1"), 0);
  const std::vector<std::string> seen = reasons_through("api", "NewReplicaSetAvailable");
  const auto paused = std::find(seen.begin(), seen.end(), "DeploymentPaused");
  const auto resumed = std::find(seen.begin(), seen.end(), "DeploymentResumed");
  ASSERT_NE(paused, seen.end()) << ::testing::PrintToString(seen);
  ASSERT_NE(resumed, seen.end()) << ::testing::PrintToString(seen);
  EXPECT_LT(paused - seen.begin(), resumed - seen.begin());
}

TEST_F(DeploymentControllerTest, RollbackByTemplateRevertReusesTheOldReplicaSet) {
  create(deployment_manifest("app", 2, "app:1", rolling(1, 0)));
  ASSERT_TRUE(rolls_out("app"));
  const std::string first = string_at(*rs_for("app", "app:1"), {"metadata", "name"});
  set_image("app", "app:2");
  ASSERT_TRUE(eventually_ok([&] { return rolled_out("app") && image_of(get("app")) == "app:2"; },
                            seconds(60)));
  EXPECT_EQ(annotation(get("app"), "deployment.kubernetes.io/revision"), "2");

  // What `kubectl rollout undo` does: the old template back.
  set_image("app", "app:1");
  ASSERT_TRUE(eventually_ok([&] { return rolled_out("app") && image_of(get("app")) == "app:1"; },
                            seconds(60)));
  EXPECT_EQ(replica_sets("app").size(), 2u);  // reused, not recreated
  const json::value reused = *rs_for("app", "app:1");
  EXPECT_EQ(string_at(reused, {"metadata", "name"}), first);
  EXPECT_EQ(annotation(reused, "deployment.kubernetes.io/revision"), "3");
  EXPECT_EQ(annotation(reused, "deployment.kubernetes.io/revision-history"), "1");
  EXPECT_EQ(annotation(get("app"), "deployment.kubernetes.io/revision"), "3");
  EXPECT_EQ(spec_of("app", "app:1"), 2);
  EXPECT_EQ(spec_of("app", "app:2"), 0);
}

TEST_F(DeploymentControllerTest, RevisionHistoryLimitDeletesOldReplicaSets) {
  create(deployment_manifest("hist", 1, "hist:1", rolling(1, 0),
                             json::object{{"revisionHistoryLimit", 1}}));
  ASSERT_TRUE(rolls_out("hist"));
  for (const std::string image : {"hist:2", "hist:3"}) {
    set_image("hist", image);
    ASSERT_TRUE(eventually_ok([&] { return rolled_out("hist") && image_of(get("hist")) == image; },
                              seconds(60)));
  }
  // Clean-up runs on the sync after completion: hist:1 goes, hist:2 stays.
  EXPECT_TRUE(eventually_ok([&] { return replica_sets("hist").size() == 2u; }))
      << replica_sets("hist").size();
  EXPECT_FALSE(rs_for("hist", "hist:1").has_value());
  EXPECT_TRUE(rs_for("hist", "hist:2").has_value());
  EXPECT_EQ(annotation(get("hist"), "deployment.kubernetes.io/revision"), "3");
}

TEST_F(DeploymentControllerTest, ProgressDeadlineExceededThenRecovers) {
  // Pods nobody can schedule never become available.
  json::object manifest = deployment_manifest("stuck", 2, "app:1", rolling(1, 0),
                                              json::object{{"progressDeadlineSeconds", 3}});
  manifest["spec"].as_object()["template"].as_object()["spec"].as_object()["nodeSelector"] =
      json::object{{"no-such-node", "true"}};
  create(manifest);
  ASSERT_TRUE(eventually_ok(
      [&] { return progressing_reason(get("stuck")) == "ProgressDeadlineExceeded"; }, seconds(30)))
      << json::serialize(get("stuck"));
  const json::value d = get("stuck");
  const json::value* conditions = api::find_path(d, {"status", "conditions"});
  ASSERT_NE(conditions, nullptr);
  const std::string rs_name = string_at(*rs_for("stuck", "app:1"), {"metadata", "name"});
  for (const json::value& c : conditions->as_array()) {
    if (string_at(c, {"type"}) != "Progressing") continue;
    EXPECT_EQ(string_at(c, {"status"}), "False");
    EXPECT_EQ(string_at(c, {"message"}),
              "ReplicaSet \"" + rs_name + "\" has timed out progressing.");
  }
  std::vector<std::string> seen = reasons("stuck");
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.front(), "NewReplicaSetCreated") << ::testing::PrintToString(seen);

  // Schedulable again: a new rollout makes progress and completes.
  edit("stuck", [](json::object& spec) {
    spec["template"].as_object()["spec"].as_object().erase("nodeSelector");
  });
  ASSERT_TRUE(rolls_out("stuck"));
  seen = reasons_through("stuck", "NewReplicaSetAvailable");
  EXPECT_EQ(seen.back(), "NewReplicaSetAvailable") << ::testing::PrintToString(seen);
  const auto timed_out = std::find(seen.begin(), seen.end(), "ProgressDeadlineExceeded");
  ASSERT_NE(timed_out, seen.end());
  // After the timeout: a new RS again, then progress.
  EXPECT_NE(std::find(timed_out, seen.end(), "NewReplicaSetCreated"), seen.end())
      << ::testing::PrintToString(seen);
}

}  // namespace
}  // namespace kcm::controllers::deployment
