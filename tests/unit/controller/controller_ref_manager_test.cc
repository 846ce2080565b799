#include "controller/controller_ref_manager.h"

#include <gtest/gtest.h>

#include <map>

namespace kcm::controller {
namespace {

ControllerInfo rs_info(bool being_deleted = false) {
  return {"apps/v1", "ReplicaSet", "ns", "web", "rs-uid", being_deleted};
}

Dependent dep(std::optional<std::string_view> owner, bool matches, bool deleting = false,
              std::string_view ns = "ns") {
  Dependent d;
  d.namespace_ = ns;
  d.name = "p";
  d.uid = "pod-uid";
  d.controller_uid = owner;
  d.matches = matches;
  d.being_deleted = deleting;
  return d;
}

TEST(ControllerRefManager, DecideClaimRules) {
  struct Case {
    const char* name;
    ControllerInfo controller;
    Dependent dependent;
    ClaimAction want;
  };
  const Case cases[] = {
      {"owned by another", rs_info(), dep("other", true), ClaimAction::kIgnore},
      {"owned, matching", rs_info(), dep("rs-uid", true), ClaimAction::kClaimed},
      {"owned, matching, controller deleting", rs_info(true), dep("rs-uid", true),
       ClaimAction::kClaimed},
      {"owned, not matching", rs_info(), dep("rs-uid", false), ClaimAction::kRelease},
      {"owned, not matching, controller deleting", rs_info(true), dep("rs-uid", false),
       ClaimAction::kIgnore},
      {"orphan, matching", rs_info(), dep(std::nullopt, true), ClaimAction::kAdopt},
      {"orphan, not matching", rs_info(), dep(std::nullopt, false), ClaimAction::kIgnore},
      {"orphan, controller deleting", rs_info(true), dep(std::nullopt, true), ClaimAction::kIgnore},
      {"orphan being deleted", rs_info(), dep(std::nullopt, true, true), ClaimAction::kIgnore},
      {"orphan in another namespace", rs_info(), dep(std::nullopt, true, false, "other"),
       ClaimAction::kIgnore},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(decide_claim(c.controller, c.dependent), c.want) << c.name;
  }
  ControllerInfo cluster_scoped = rs_info();
  cluster_scoped.namespace_.clear();
  EXPECT_EQ(decide_claim(cluster_scoped, dep(std::nullopt, true, false, "any")),
            ClaimAction::kAdopt);
}

TEST(ControllerRefManager, PatchesMatchGoEncoding) {
  EXPECT_EQ(owner_ref_controller_patch(rs_info(), "pod-uid"),
            R"({"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",)"
            R"("name":"web","uid":"rs-uid","controller":true,"blockOwnerDeletion":true}],)"
            R"("uid":"pod-uid"}})");
  EXPECT_EQ(owner_ref_controller_patch(rs_info(), "pod-uid", {"f1"}),
            R"({"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",)"
            R"("name":"web","uid":"rs-uid","controller":true,"blockOwnerDeletion":true}],)"
            R"("uid":"pod-uid","finalizers":["f1"]}})");
  EXPECT_EQ(
      delete_owner_ref_strategic_merge_patch("pod-uid", {"rs-uid"}),
      R"({"metadata":{"uid":"pod-uid","ownerReferences":[{"$patch":"delete","uid":"rs-uid"}]}})");
  EXPECT_EQ(
      delete_owner_ref_strategic_merge_patch("pod-uid", {"a", "b"}, {"f1", "f2"}),
      R"({"metadata":{"uid":"pod-uid","ownerReferences":[{"$patch":"delete","uid":"a"},)"
      R"({"$patch":"delete","uid":"b"}],"$deleteFromPrimitiveList/finalizers":["f1","f2"]}})");
  EXPECT_EQ(delete_owner_ref_strategic_merge_patch("u", {}),
            R"({"metadata":{"uid":"u","ownerReferences":null}})");
}

TEST(ControllerRefManager, DependentFromCached) {
  const auto pod = cache::CachedObject::from_json(json::parse(R"({"metadata":{"name":"p1",
      "namespace":"ns","uid":"u1","labels":{"app":"web"},
      "ownerReferences":[{"uid":"gc-only","controller":false},{"uid":"rs-uid","controller":true}],
      "deletionTimestamp":"2024-06-15T12:00:00Z"}})"));
  ASSERT_TRUE(pod.ok());
  const auto web = *api::labels::parse("app=web");
  const Dependent d = dependent_from_cached(**pod, web);
  EXPECT_EQ(d.namespace_, "ns");
  EXPECT_EQ(d.name, "p1");
  EXPECT_EQ(d.uid, "u1");
  ASSERT_TRUE(d.controller_uid);
  EXPECT_EQ(*d.controller_uid, "rs-uid");
  EXPECT_TRUE(d.being_deleted);
  EXPECT_TRUE(d.matches);
  EXPECT_FALSE(dependent_from_cached(**pod, *api::labels::parse("app=db")).matches);
  const auto bare = cache::CachedObject::from_json(json::object{});
  ASSERT_TRUE(bare.ok());
  const Dependent b = dependent_from_cached(**bare, api::labels::Selector::everything());
  EXPECT_FALSE(b.controller_uid);
  EXPECT_FALSE(b.being_deleted);
  EXPECT_TRUE(b.matches);  // everything() matches an object without labels
  EXPECT_FALSE(dependent_from_cached(**bare, api::labels::Selector::nothing()).matches);
}

// A PodControl that records patches and answers from a table keyed by pod name.
class FakePodControl : public PodControl {
 public:
  std::map<std::string, api::Status, std::less<>> patch_errors;
  std::vector<std::pair<std::string, std::string>> patches;  // (name, patch)

  Result<void, api::Status> create_pod(std::string_view, const json::object&,
                                       const json::object&) override {
    return {};
  }
  Result<void, api::Status> delete_pod(std::string_view, std::string_view,
                                       const json::object&) override {
    return {};
  }
  Result<void, api::Status> patch_pod(std::string_view, std::string_view name,
                                      std::string_view patch) override {
    patches.emplace_back(std::string(name), std::string(patch));
    const auto it = patch_errors.find(name);
    if (it != patch_errors.end()) return fail(it->second);
    return {};
  }
};

api::Status status(std::string_view reason, std::string message) {
  api::Status s;
  s.reason = std::string(reason);
  s.message = std::move(message);
  return s;
}

struct Pods {
  std::vector<std::string> names;
  std::vector<std::string> uids;
  std::vector<Dependent> deps;
  void add(std::string name, std::optional<std::string_view> owner, bool matches) {
    names.push_back(std::move(name));
    uids.push_back("uid-" + names.back());
    Dependent d;
    d.namespace_ = "ns";
    d.controller_uid = owner;
    d.matches = matches;
    deps.push_back(d);
  }
  const std::vector<Dependent>& views() {
    for (std::size_t i = 0; i < deps.size(); ++i) {
      deps[i].name = names[i];
      deps[i].uid = uids[i];
    }
    return deps;
  }
};

TEST(ControllerRefManager, ClaimPodsAdoptsReleasesAndAggregates) {
  FakePodControl pods_api;
  pods_api.patch_errors["gone"] = status(api::reason::kNotFound, "pods \"gone\" not found");
  pods_api.patch_errors["conflict"] = status(api::reason::kConflict, "conflict!");
  pods_api.patch_errors["invalid-release"] = status(api::reason::kInvalid, "invalid");
  pods_api.patch_errors["broken-release"] = status(api::reason::kInternalError, "boom");
  int can_adopt_calls = 0;
  auto m = pod_controller_ref_manager(pods_api, rs_info(), [&]() -> Result<void> {
    ++can_adopt_calls;
    return {};
  });
  Pods pods;
  pods.add("owned", std::string_view("rs-uid"), true);             // claimed
  pods.add("orphan", std::nullopt, true);                          // adopted
  pods.add("gone", std::nullopt, true);                            // adopt NotFound: skipped
  pods.add("conflict", std::nullopt, true);                        // adopt error
  pods.add("stale", std::string_view("rs-uid"), false);            // released
  pods.add("invalid-release", std::string_view("rs-uid"), false);  // Invalid counts as released
  pods.add("broken-release", std::string_view("rs-uid"), false);   // error
  pods.add("foreign", std::string_view("other"), true);            // ignored
  const auto result = m.claim(pods.views());
  EXPECT_EQ(result.claimed, (std::vector<std::size_t>{0, 1}));
  ASSERT_TRUE(result.error());
  EXPECT_EQ(*result.error(), "[conflict!, boom]");
  EXPECT_EQ(can_adopt_calls, 1);
  ASSERT_EQ(pods_api.patches.size(), 6u);
  EXPECT_EQ(pods_api.patches[0].first, "orphan");
  EXPECT_EQ(pods_api.patches[0].second, owner_ref_controller_patch(rs_info(), "uid-orphan"));
  EXPECT_EQ(pods_api.patches[3].first, "stale");
  EXPECT_EQ(pods_api.patches[3].second,
            delete_owner_ref_strategic_merge_patch("uid-stale", {"rs-uid"}));
}

TEST(ControllerRefManager, FailedCanAdoptFailsEveryAdoptionOnce) {
  FakePodControl pods_api;
  int calls = 0;
  auto m = pod_controller_ref_manager(pods_api, rs_info(), [&]() -> Result<void> {
    ++calls;
    return fail("ns/web has just been deleted at 2024-06-15 12:00:00 +0000 UTC");
  });
  Pods pods;
  pods.add("a", std::nullopt, true);
  pods.add("b", std::nullopt, true);
  pods.add("mine", std::string_view("rs-uid"), true);
  const auto result = m.claim(pods.views());
  EXPECT_EQ(result.claimed, (std::vector<std::size_t>{2}));
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(pods_api.patches.empty());
  ASSERT_EQ(result.errors.size(), 2u);
  EXPECT_EQ(result.errors[0],
            "can't adopt Pod ns/a (uid-a): ns/web has just been deleted at 2024-06-15 12:00:00 "
            "+0000 UTC");
  EXPECT_EQ(*result.error(), "[" + result.errors[0] + ", " + result.errors[1] + "]");
}

TEST(ControllerRefManager, NoCanAdoptCheckWithoutAdoptions) {
  FakePodControl pods_api;
  int calls = 0;
  auto m = pod_controller_ref_manager(pods_api, rs_info(), [&]() -> Result<void> {
    ++calls;
    return {};
  });
  Pods pods;
  pods.add("mine", std::string_view("rs-uid"), true);
  EXPECT_FALSE(m.claim(pods.views()).error());
  EXPECT_EQ(calls, 0);
}

TEST(ControllerRefManager, ReplicaSetKindWordsTheError) {
  int patches = 0;
  ControllerRefManager m(
      {"apps/v1", "Deployment", "ns", "d", "d-uid", false}, "ReplicaSet",
      [&](std::string_view, std::string_view, std::string_view) -> Result<void, api::Status> {
        ++patches;
        return {};
      },
      [] { return Result<void>(fail("nope")); });
  Pods rss;
  rss.add("rs1", std::nullopt, true);
  const auto r = m.claim_one(rss.views()[0]);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "can't adopt ReplicaSet ns/rs1 (uid-rs1): nope");
  EXPECT_EQ(patches, 0);
}

TEST(ControllerRefManager, RecheckDeletionTimestamp) {
  auto ok = recheck_deletion_timestamp([]() -> Result<FreshController> {
    return FreshController{"ns", "web", std::nullopt};
  });
  EXPECT_TRUE(ok().ok());
  auto deleted = recheck_deletion_timestamp([]() -> Result<FreshController> {
    return FreshController{"ns", "web", *api::Time::parse("2024-06-15T12:00:00Z")};
  });
  ASSERT_FALSE(deleted().ok());
  EXPECT_EQ(deleted().error(), "ns/web has just been deleted at 2024-06-15 12:00:00 +0000 UTC");
  auto gone = recheck_deletion_timestamp([]() -> Result<FreshController> {
    return fail("original ReplicaSet ns/web is gone: got uid u2, wanted u1");
  });
  EXPECT_EQ(gone().error(),
            "can't recheck DeletionTimestamp: original ReplicaSet ns/web is gone: got uid u2, "
            "wanted u1");
}

TEST(ControllerRefManager, GoTimeStringAndAggregate) {
  EXPECT_EQ(go_time_string(*api::Time::parse("2024-06-15T12:00:00.250Z")),
            "2024-06-15 12:00:00.25 +0000 UTC");
  EXPECT_EQ(go_time_string(api::Time{}), "0001-01-01 00:00:00 +0000 UTC");
  EXPECT_EQ(aggregate_errors({}), "");
  EXPECT_EQ(aggregate_errors({"a"}), "a");
  EXPECT_EQ(aggregate_errors({"a", "a"}), "a");
  EXPECT_EQ(aggregate_errors({"a", "b", "a"}), "[a, b]");
}

}  // namespace
}  // namespace kcm::controller
