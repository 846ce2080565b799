// What the Deployment controller's informer handlers enqueue (spec §2.1).
#include "controllers/deployment/event_handlers.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "fake_cluster.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the fakes

json::object deployment(const std::string& name, const std::string& app,
                        const std::string& strategy = "RollingUpdate") {
  json::object selector;
  if (!app.empty()) selector["matchLabels"] = json::object{{"app", app}};
  return json::object{
      {"apiVersion", "apps/v1"},
      {"kind", "Deployment"},
      {"metadata", json::object{{"name", name}, {"namespace", "ns"}, {"uid", "uid-" + name}}},
      {"spec", json::object{{"selector", std::move(selector)},
                            {"strategy", json::object{{"type", strategy}}}}}};
}

json::object owner(const std::string& kind, const std::string& name, const std::string& uid) {
  return json::object{{"apiVersion", "apps/v1"},
                      {"kind", kind},
                      {"name", name},
                      {"uid", uid},
                      {"controller", true}};
}

json::object replica_set(const std::string& name, const json::object& labels,
                         std::optional<json::object> controller = {}, const std::string& rv = "1") {
  json::object meta{{"name", name},
                    {"namespace", "ns"},
                    {"uid", "uid-" + name},
                    {"resourceVersion", rv},
                    {"labels", labels}};
  if (controller) meta["ownerReferences"] = json::array{*controller};
  return json::object{{"apiVersion", "apps/v1"}, {"kind", "ReplicaSet"}, {"metadata", meta}};
}

json::object pod(const std::string& name, const json::object& labels,
                 std::optional<json::object> controller = {}) {
  json::object meta{
      {"name", name}, {"namespace", "ns"}, {"uid", "uid-" + name}, {"labels", labels}};
  if (controller) meta["ownerReferences"] = json::array{*controller};
  return json::object{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}};
}

cache::ObjectPtr cached(const json::object& o) {
  return cache::CachedObject::from_json(json::value(o)).value();
}

class HandlersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cluster_.put_deployment(deployment("web", "web"));
    cluster_.put_deployment(deployment("web2", "web"));
    cluster_.put_deployment(deployment("db", "db", "Recreate"));
    cluster_.put_deployment(deployment("all", ""));  // empty selector: matches nothing here
  }
  // Sorted: the listers list in no particular order.
  std::vector<std::string> take() {
    std::vector<std::string> out = std::exchange(keys_, {});
    std::sort(out.begin(), out.end());
    return out;
  }

  FakeCluster cluster_;
  std::vector<std::string> keys_;
  DeploymentEventHandlers handlers_{cluster_.deployments_lister(), cluster_.replica_sets_lister(),
                                    cluster_.pods_lister(), cluster_,
                                    [this](const std::string& key) { keys_.push_back(key); }};
};

TEST_F(HandlersTest, Deployments) {
  const cache::ObjectPtr d = cached(deployment("web", "web"));
  handlers_.add_deployment(d);
  handlers_.update_deployment(d, d);
  handlers_.delete_deployment(d);
  handlers_.delete_deployment(cache::DeletedFinalStateUnknown{"ns/web", d});
  handlers_.delete_deployment(cache::DeletedFinalStateUnknown{"ns/web", nullptr});
  EXPECT_EQ(take(), (std::vector<std::string>{"ns/web", "ns/web", "ns/web", "ns/web"}));
}

TEST_F(HandlersTest, ReplicaSetWithControllerRefWakesItsOwnerOnly) {
  const json::object labels{{"app", "web"}};
  handlers_.add_replica_set(
      cached(replica_set("a", labels, owner("Deployment", "web", "uid-web"))));
  EXPECT_EQ(take(), std::vector<std::string>{"ns/web"});
  // Wrong uid, wrong kind, unknown name: nobody.
  handlers_.add_replica_set(cached(replica_set("b", labels, owner("Deployment", "web", "other"))));
  handlers_.add_replica_set(
      cached(replica_set("c", labels, owner("StatefulSet", "web", "uid-web"))));
  handlers_.add_replica_set(cached(replica_set("d", labels, owner("Deployment", "gone", "x"))));
  EXPECT_TRUE(take().empty());
}

TEST_F(HandlersTest, OrphanReplicaSetWakesEveryMatchingDeployment) {
  handlers_.add_replica_set(cached(replica_set("a", {{"app", "web"}})));
  EXPECT_EQ(take(), (std::vector<std::string>{"ns/web", "ns/web2"}));
  // No labels: nobody (the empty selector of "all" never matches).
  handlers_.add_replica_set(cached(replica_set("b", {})));
  handlers_.add_replica_set(cached(replica_set("c", {{"app", "other"}})));
  EXPECT_TRUE(take().empty());
}

TEST_F(HandlersTest, ReplicaSetBeingDeletedIsADeletion) {
  json::object rs = replica_set("a", {{"app", "web"}});
  rs["metadata"].as_object()["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  // An orphan being deleted: nobody cares.
  handlers_.add_replica_set(cached(rs));
  EXPECT_TRUE(take().empty());
  rs["metadata"].as_object()["ownerReferences"] = json::array{owner("Deployment", "db", "uid-db")};
  handlers_.add_replica_set(cached(rs));
  EXPECT_EQ(take(), std::vector<std::string>{"ns/db"});
}

TEST_F(HandlersTest, ReplicaSetUpdates) {
  const json::object labels{{"app", "web"}};
  const cache::ObjectPtr a1 =
      cached(replica_set("a", labels, owner("Deployment", "web", "uid-web")));
  // A resync: same resourceVersion.
  handlers_.update_replica_set(a1, a1);
  EXPECT_TRUE(take().empty());
  // Owned: its owner.
  const cache::ObjectPtr a2 =
      cached(replica_set("a", labels, owner("Deployment", "web", "uid-web"), "2"));
  handlers_.update_replica_set(a1, a2);
  EXPECT_EQ(take(), std::vector<std::string>{"ns/web"});
  // Moved to another owner: both.
  const cache::ObjectPtr a3 =
      cached(replica_set("a", labels, owner("Deployment", "db", "uid-db"), "3"));
  handlers_.update_replica_set(a2, a3);
  EXPECT_EQ(take(), (std::vector<std::string>{"ns/db", "ns/web"}));
  // Released: the old owner and everyone who may adopt it.
  const cache::ObjectPtr a4 = cached(replica_set("a", labels, {}, "4"));
  handlers_.update_replica_set(a3, a4);
  EXPECT_EQ(take(), (std::vector<std::string>{"ns/db", "ns/web", "ns/web2"}));
  // An orphan with the same labels and no owner change: nobody.
  const cache::ObjectPtr a5 = cached(replica_set("a", labels, {}, "5"));
  handlers_.update_replica_set(a4, a5);
  EXPECT_TRUE(take().empty());
  // An orphan whose labels changed: whoever matches now.
  const cache::ObjectPtr a6 = cached(replica_set("a", {{"app", "db"}}, {}, "6"));
  handlers_.update_replica_set(a5, a6);
  EXPECT_EQ(take(), std::vector<std::string>{"ns/db"});
}

TEST_F(HandlersTest, ReplicaSetDeletes) {
  const cache::ObjectPtr owned =
      cached(replica_set("a", {{"app", "web"}}, owner("Deployment", "web", "uid-web")));
  handlers_.delete_replica_set(owned);
  handlers_.delete_replica_set(cache::DeletedFinalStateUnknown{"ns/a", owned});
  EXPECT_EQ(take(), (std::vector<std::string>{"ns/web", "ns/web"}));
  handlers_.delete_replica_set(cached(replica_set("b", {{"app", "web"}})));
  handlers_.delete_replica_set(cache::DeletedFinalStateUnknown{"ns/c", nullptr});
  EXPECT_TRUE(take().empty());
}

TEST_F(HandlersTest, PodDeletionWakesARecreateDeploymentWithoutPods) {
  const json::object labels{{"app", "db"}};
  const json::object rs = replica_set("db-1", labels, owner("Deployment", "db", "uid-db"));
  cluster_.put_replica_set(rs);
  const json::object p1 = pod("p1", labels, owner("ReplicaSet", "db-1", "uid-db-1"));
  const json::object p2 = pod("p2", labels, owner("ReplicaSet", "db-1", "uid-db-1"));
  cluster_.put_pod(p2);
  // p2 is left: no wake-up.
  handlers_.delete_pod(cached(p1));
  EXPECT_TRUE(take().empty());
  EXPECT_EQ(cluster_.actions, std::vector<std::string>{"list replicasets"});
  cluster_.remove_pod("ns/p2");
  handlers_.delete_pod(cache::DeletedFinalStateUnknown{"ns/p2", cached(p2)});
  EXPECT_EQ(take(), std::vector<std::string>{"ns/db"});
  // Pods of other owners do not keep it waiting.
  cluster_.put_pod(pod("stray", labels, owner("ReplicaSet", "elsewhere", "uid-x")));
  handlers_.delete_pod(cached(p1));
  EXPECT_EQ(take(), std::vector<std::string>{"ns/db"});
}

TEST_F(HandlersTest, PodDeletionIgnoresOtherPods) {
  const json::object labels{{"app", "web"}};
  cluster_.put_replica_set(replica_set("web-1", labels, owner("Deployment", "web", "uid-web")));
  // RollingUpdate: nothing to wait for.
  handlers_.delete_pod(cached(pod("p", labels, owner("ReplicaSet", "web-1", "uid-web-1"))));
  // No controller, a controller of another kind, a stale uid.
  handlers_.delete_pod(cached(pod("q", labels)));
  handlers_.delete_pod(cached(pod("r", labels, owner("StatefulSet", "web-1", "uid-web-1"))));
  handlers_.delete_pod(cached(pod("s", labels, owner("ReplicaSet", "web-1", "stale"))));
  handlers_.delete_pod(cache::DeletedFinalStateUnknown{"ns/t", nullptr});
  EXPECT_TRUE(take().empty());
  EXPECT_TRUE(cluster_.actions.empty());
}

}  // namespace
}  // namespace kcm::controllers::deployment
