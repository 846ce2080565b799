#include "controllers/deployment/replica_math.h"

#include <gtest/gtest.h>

#include "controllers/deployment/annotations.h"
#include "deployment_cases.h"

namespace kcm::controllers::deployment {
namespace {

using namespace testing;  // NOLINT: the case helpers

std::optional<api::IntOrString> int_or_string(const json::value& v) {
  if (v.is_null()) return std::nullopt;
  if (v.is_string()) return api::IntOrString::from_string(std::string(v.get_string()));
  return api::IntOrString::from_int(static_cast<std::int32_t>(v.to_number<std::int64_t>()));
}

// TestResolveFenceposts.
TEST(ReplicaMath, UpstreamResolveFenceposts) {
  const json::object file = load_upstream_cases("resolve_fenceposts.json");
  ASSERT_EQ(cases_of(file).size(), 7u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    const json::object& want = c.at("expected").as_object();
    auto got =
        resolve_fenceposts(int_or_string(in.at("maxSurge")), int_or_string(in.at("maxUnavailable")),
                           static_cast<std::int32_t>(in.at("desired").as_int64()));
    ASSERT_EQ(!got.ok(), want.at("error").as_bool()) << name;
    if (!got.ok()) continue;
    EXPECT_EQ(got->surge, want.at("surge").as_int64()) << name;
    EXPECT_EQ(got->unavailable, want.at("unavailable").as_int64()) << name;
  }
}

TEST(ReplicaMath, ResolveFencepostsErrorMessage) {
  auto got = resolve_fenceposts(api::IntOrString::from_string("oops"), std::nullopt, 10);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error(), "invalid value for IntOrString: invalid type: string is not a percentage");
}

// TestMaxUnavailable and TestMinAvailable.
TEST(ReplicaMath, UpstreamMaxUnavailableAndMinAvailable) {
  for (const auto& [file_name, key] : {std::pair{"max_unavailable.json", "maxUnavailable"},
                                       {"min_available.json", "minAvailable"}}) {
    const json::object file = load_upstream_cases(file_name);
    ASSERT_EQ(cases_of(file).size(), 8u) << file_name;
    for (const json::value& c : cases_of(file)) {
      const std::string name = str(c.at("name"));
      const DeploymentView d = deployment_view(c.at("input").at("deployment").as_object());
      const std::int64_t want = c.at("expected").at(key).as_int64();
      const std::int32_t got =
          std::string_view(key) == "maxUnavailable" ? max_unavailable(d) : min_available(d);
      EXPECT_EQ(got, want) << file_name << ": " << name;
    }
  }
}

TEST(ReplicaMath, MaxSurge) {
  json::object c;
  c["replicas"] = 10;
  c["strategy"] =
      json::object{{"type", "RollingUpdate"}, {"maxSurge", "25%"}, {"maxUnavailable", "25%"}};
  EXPECT_EQ(max_surge(deployment_view(c)), 3);
  c["strategy"] = json::object{{"type", "Recreate"}};
  EXPECT_EQ(max_surge(deployment_view(c)), 0);
}

// TestNewRSNewReplicas.
TEST(ReplicaMath, UpstreamNewRSNewReplicas) {
  const json::object file = load_upstream_cases("new_rs_new_replicas.json");
  ASSERT_EQ(cases_of(file).size(), 3u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    ReplicaSets rss;
    const ReplicaSetList all = rss.add_all(in.if_contains("allReplicaSets"));
    const ReplicaSetInfo* new_rs = rss.add_compact(in.at("newReplicaSet"));
    auto got = new_rs_new_replicas(deployment_view(in.at("deployment").as_object()), all, *new_rs);
    ASSERT_TRUE(got.ok()) << name;
    EXPECT_EQ(*got, c.at("expected").at("newReplicas").as_int64()) << name;
  }
}

TEST(ReplicaMath, NewRSNewReplicasUnknownStrategy) {
  json::object c;
  c["replicas"] = 1;
  c["strategy"] = json::object{{"type", "Canary"}};
  ReplicaSets rss;
  const ReplicaSetInfo* rs = rss.add_compact(json::object{{"name", "new"}});
  auto got = new_rs_new_replicas(deployment_view(c), {}, *rs);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error(), "deployment type Canary isn't supported");
}

// TestGetReplicaSetFraction.
TEST(ReplicaMath, UpstreamReplicaSetFraction) {
  const json::object file = load_upstream_cases("replica_set_fraction.json");
  ASSERT_EQ(cases_of(file).size(), 9u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    const json::object& in = c.at("input").as_object();
    ReplicaSets rss;
    const ReplicaSetInfo* rs = rss.add_compact(in.at("replicaSet"));
    const DeploymentView d = deployment_view(in.at("deployment").as_object());
    EXPECT_EQ(replica_set_fraction(*rs, d), c.at("expected").at("fraction").as_int64()) << name;
  }
}

TEST(ReplicaMath, ReplicaSetProportionClamps) {
  json::object c;
  c["replicas"] = 20;
  c["strategy"] = json::object{{"type", "RollingUpdate"}, {"maxSurge", 0}, {"maxUnavailable", 1}};
  const DeploymentView d = deployment_view(c);
  ReplicaSets rss;
  const ReplicaSetInfo* rs = rss.add_compact(
      json::object{{"name", "a"},
                   {"specReplicas", 10},
                   {"annotations", json::object{{"deployment.kubernetes.io/max-replicas", "10"}}}});
  EXPECT_EQ(replica_set_fraction(*rs, d), 10);
  EXPECT_EQ(replica_set_proportion(rs, d, 4, 0), 4);  // min(10, 4)
  EXPECT_EQ(replica_set_proportion(rs, d, 4, 4), 0);  // nothing left
  EXPECT_EQ(replica_set_proportion(nullptr, d, 4, 0), 0);
  EXPECT_EQ(replica_set_proportion(rs, d, -3, 0), 10);  // max(10, -3): fraction wins down
}

// TestGetReplicaCountForReplicaSets (spec, status and terminating sums).
TEST(ReplicaMath, UpstreamReplicaCountSums) {
  const json::object file = load_upstream_cases("replica_count_sums.json");
  ASSERT_EQ(cases_of(file).size(), 6u);
  for (const json::value& c : cases_of(file)) {
    const std::string name = str(c.at("name"));
    ReplicaSets rss;
    ReplicaSetList list = rss.add_all(c.at("input").as_object().if_contains("replicaSets"));
    list.push_back(nullptr);  // null entries are skipped
    const json::object& want = c.at("expected").as_object();
    EXPECT_EQ(replica_count(list), want.at("specSum").as_int64()) << name;
    EXPECT_EQ(actual_replica_count(list), want.at("statusReplicasSum").as_int64()) << name;
    const std::optional<std::int32_t> terminating = terminating_replica_count(list);
    if (want.at("terminatingSum").is_null()) {
      EXPECT_FALSE(terminating.has_value()) << name;
    } else {
      ASSERT_TRUE(terminating.has_value()) << name;
      EXPECT_EQ(*terminating, want.at("terminatingSum").as_int64()) << name;
    }
  }
}

// The IsSaturated half of TestAnnotationUtils.
TEST(ReplicaMath, IsSaturated) {
  json::object c;
  c["replicas"] = 1;
  c["strategy"] = json::object{{"type", "RollingUpdate"}, {"maxSurge", 1}, {"maxUnavailable", 0}};
  const DeploymentView d = deployment_view(c);
  const auto rs_with = [](const char* desired, std::int64_t spec, std::int64_t available) {
    json::object rs{{"name", "rs"}, {"specReplicas", spec}};
    if (desired != nullptr) {
      rs["annotations"] = json::object{{"deployment.kubernetes.io/desired-replicas", desired}};
    }
    rs["status"] = json::object{{"availableReplicas", available}};
    return rs;
  };
  ReplicaSets rss;
  EXPECT_TRUE(is_saturated(d, rss.add_compact(rs_with("1", 1, 1))));
  EXPECT_FALSE(is_saturated(d, rss.add_compact(rs_with("2", 1, 1))));
  EXPECT_FALSE(is_saturated(d, rss.add_compact(rs_with(nullptr, 1, 1))));
  EXPECT_FALSE(is_saturated(d, rss.add_compact(rs_with("x", 1, 1))));
  EXPECT_FALSE(is_saturated(d, rss.add_compact(rs_with("1", 1, 0))));
  EXPECT_FALSE(is_saturated(d, rss.add_compact(rs_with("1", 2, 1))));
  EXPECT_FALSE(is_saturated(d, nullptr));
  // strconv.Atoi, then int32(): a sign is read, and a value past int32 wraps.
  EXPECT_TRUE(is_saturated(d, rss.add_compact(rs_with("+1", 1, 1))));
  EXPECT_TRUE(is_saturated(d, rss.add_compact(rs_with("01", 1, 1))));
  EXPECT_TRUE(is_saturated(d, rss.add_compact(rs_with("4294967297", 1, 1))));  // 2^32 + 1
  EXPECT_FALSE(is_saturated(d, rss.add_compact(rs_with(" 1", 1, 1))));
  EXPECT_FALSE(is_saturated(d, rss.add_compact(rs_with("", 1, 1))));
}

}  // namespace
}  // namespace kcm::controllers::deployment
