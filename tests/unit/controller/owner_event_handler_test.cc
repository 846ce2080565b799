#include "controller/owner_event_handler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "controller_test_util.h"

namespace kcm::controller {
namespace {

std::string child(std::string_view ns, std::string_view refs) {
  std::string s = R"({"kind":"Pod","metadata":{"name":"c","resourceVersion":"1")";
  if (!ns.empty()) s += R"(,"namespace":")" + std::string(ns) + "\"";
  if (!refs.empty()) s += R"(,"ownerReferences":)" + std::string(refs);
  return s + "}}";
}

cache::ObjectPtr cached_object(const std::string& text) {
  auto o = cache::CachedObject::from_json(json::parse(text));
  EXPECT_TRUE(o.ok());
  return o.ok() ? *o : nullptr;
}

constexpr std::string_view kRsController =
    R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"u","controller":true}])";
const OwnerType kReplicaSets{"apps", "ReplicaSet", true};

TEST(OwnerEventHandler, ControllerOwnerKey) {
  struct Case {
    std::string name;
    std::string child;
    OwnerType owner;
    std::optional<std::string> want;
  };
  const std::vector<Case> cases = {
      {"namespaced owner", child("ns1", kRsController), kReplicaSets, "ns1/web"},
      {"another version of the group",
       child(
           "ns1",
           R"([{"apiVersion":"apps/v1beta2","kind":"ReplicaSet","name":"web","uid":"u","controller":true}])"),
       kReplicaSets, "ns1/web"},
      {"other group",
       child("ns1", kRsController),
       {"extensions", "ReplicaSet", true},
       std::nullopt},
      {"other kind", child("ns1", kRsController), {"apps", "Deployment", true}, std::nullopt},
      {"core group",
       child("ns1",
             R"([{"apiVersion":"v1","kind":"ConfigMap","name":"cm","uid":"u","controller":true}])"),
       {"", "ConfigMap", true},
       "ns1/cm"},
      {"cluster-scoped owner",
       child("ns1",
             R"([{"apiVersion":"v1","kind":"Node","name":"n1","uid":"u","controller":true}])"),
       {"", "Node", false},
       "n1"},
      {"cluster-scoped owner of a cluster-scoped child",
       child(
           "",
           R"([{"apiVersion":"example.com/v1","kind":"Cluster","name":"c1","uid":"u","controller":true}])"),
       {"example.com", "Cluster", false},
       "c1"},
      {"namespaced owner of a cluster-scoped child", child("", kRsController), kReplicaSets,
       std::nullopt},
      {"not a controller",
       child("ns1", R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"u"}])"),
       kReplicaSets, std::nullopt},
      {"first controller only",
       child(
           "ns1",
           R"([{"apiVersion":"batch/v1","kind":"Job","name":"j","uid":"j","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web","uid":"u","controller":true}])"),
       kReplicaSets, std::nullopt},
      {"bad apiVersion",
       child(
           "ns1",
           R"([{"apiVersion":"apps/v1/x","kind":"ReplicaSet","name":"web","uid":"u","controller":true}])"),
       kReplicaSets, std::nullopt},
      {"no name",
       child("ns1",
             R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","uid":"u","controller":true}])"),
       kReplicaSets, std::nullopt},
      {"orphan", child("ns1", ""), kReplicaSets, std::nullopt},
      {"malformed references", child("ns1", R"({"a":1})"), kReplicaSets, std::nullopt},
      {"malformed reference", child("ns1", R"([{"controller":"true"}])"), kReplicaSets,
       std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const json::object o = json_object(c.child);
    EXPECT_EQ(controller_owner_key(o, c.owner.group, c.owner.kind, c.owner.namespaced), c.want);
    // owner_keys over JSON and over the cache agree with it.
    const std::vector<std::string> want =
        c.want ? std::vector<std::string>{*c.want} : std::vector<std::string>{};
    EXPECT_EQ(owner_keys(o, c.owner), want);
    if (c.name.starts_with("malformed")) continue;  // the cache refuses those objects
    const cache::ObjectPtr p = cached_object(c.child);
    ASSERT_TRUE(p);
    EXPECT_EQ(owner_keys(*p, c.owner), want);
  }
}

TEST(OwnerEventHandler, AllOwners) {
  const std::string c = child("ns1",
                              R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"1"},
          {"apiVersion":"batch/v1","kind":"Job","name":"j","uid":"2","controller":true},
          {"apiVersion":"apps/v1beta1","kind":"ReplicaSet","name":"b","uid":"3"},
          {"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"4"}])");
  const std::vector<std::string> want = {"ns1/a", "ns1/b"};
  EXPECT_EQ(owner_keys(json_object(c), kReplicaSets, /*only_controller=*/false), want);
  EXPECT_EQ(owner_keys(*cached_object(c), kReplicaSets, false), want);
  EXPECT_TRUE(owner_keys(json_object(c), kReplicaSets, true).empty());
  EXPECT_EQ(owner_keys(json_object(c), OwnerType{"batch", "Job", true}, true),
            std::vector<std::string>{"ns1/j"});
}

// Anything with add(const std::string&) is a queue for the handler.
struct KeyRecordingQueue {
  std::vector<std::string> added;
  void add(const std::string& key) { added.push_back(key); }
};

std::string rs_child(std::string_view rs, std::string_view rv) {
  return R"({"metadata":{"name":"c","namespace":"ns1","resourceVersion":")" + std::string(rv) +
         R"(","ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":")" +
         std::string(rs) + R"(","uid":"u","controller":true}]}})";
}

TEST(OwnerEventHandler, HandlerEnqueuesOwners) {
  KeyRecordingQueue queue;
  const auto handler = enqueue_for_owner(kReplicaSets, queue);

  handler->on_add(cached_object(rs_child("web", "1")), true);
  EXPECT_EQ(queue.added, std::vector<std::string>{"ns1/web"});

  // An orphan or a child of another kind wakes nobody.
  queue.added.clear();
  handler->on_add(cached_object(child("ns1", "")), false);
  handler->on_add(
      cached_object(child(
          "ns1",
          R"([{"apiVersion":"batch/v1","kind":"Job","name":"j","uid":"u","controller":true}])")),
      false);
  EXPECT_TRUE(queue.added.empty());

  // Same owner: once. An owner change: the old and the new.
  handler->on_update(cached_object(rs_child("web", "1")), cached_object(rs_child("web", "2")));
  EXPECT_EQ(queue.added, std::vector<std::string>{"ns1/web"});
  queue.added.clear();
  handler->on_update(cached_object(rs_child("web", "2")), cached_object(rs_child("api", "3")));
  EXPECT_EQ(queue.added, (std::vector<std::string>{"ns1/web", "ns1/api"}));
  queue.added.clear();
  // Released: the old owner hears of it.
  handler->on_update(cached_object(rs_child("api", "3")), cached_object(child("ns1", "")));
  EXPECT_EQ(queue.added, std::vector<std::string>{"ns1/api"});

  queue.added.clear();
  handler->on_delete(cache::DeletedObject(cached_object(rs_child("web", "4"))));
  EXPECT_EQ(queue.added, std::vector<std::string>{"ns1/web"});

  // A tombstone through its last known state; one without a state is dropped.
  queue.added.clear();
  handler->on_delete(cache::DeletedObject(
      cache::DeletedFinalStateUnknown{"ns1/c", cached_object(rs_child("db", "5"))}));
  EXPECT_EQ(queue.added, std::vector<std::string>{"ns1/db"});
  queue.added.clear();
  handler->on_delete(cache::DeletedObject(cache::DeletedFinalStateUnknown{"ns1/c", nullptr}));
  EXPECT_TRUE(queue.added.empty());
}

TEST(OwnerEventHandler, HandlerWithFunctionAndAllOwners) {
  std::vector<std::string> keys;
  const auto handler = enqueue_for_owner(
      OwnerType{"", "ConfigMap", true}, [&keys](const std::string& k) { keys.push_back(k); },
      /*only_controller=*/false);
  handler->on_add(
      cached_object(child("ns1", R"([{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"1"},
                               {"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"2"}])")),
      false);
  EXPECT_EQ(keys, (std::vector<std::string>{"ns1/a", "ns1/b"}));
  // No function: events are ignored without crashing.
  const auto silent = enqueue_for_owner(kReplicaSets, EnqueueFn{});
  silent->on_add(cached_object(rs_child("web", "1")), false);
}

}  // namespace
}  // namespace kcm::controller
