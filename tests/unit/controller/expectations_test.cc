#include "controller/expectations.h"

#include <gtest/gtest.h>

namespace kcm::controller {
namespace {

struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  SteadyNow fn() {
    return [this] { return now; };
  }
};

// After upstream TestControllerExpectations.
TEST(Expectations, CountsDownAndExpires) {
  FakeClock clock;
  ControllerExpectations e(clock.fn());
  const std::string key = "ns/rs";
  EXPECT_TRUE(e.satisfied_expectations(key));  // no record: sync
  e.set_expectations(key, 10, 10);
  for (int i = 0; i < 9; ++i) {
    e.creation_observed(key);
    e.deletion_observed(key);
  }
  EXPECT_FALSE(e.satisfied_expectations(key));
  e.creation_observed(key);
  EXPECT_FALSE(e.satisfied_expectations(key));  // one deletion still pending
  e.deletion_observed(key);
  EXPECT_TRUE(e.satisfied_expectations(key));
  auto rec = e.get_expectations(key);
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->add, 0);
  EXPECT_EQ(rec->del, 0);

  // Over-observation goes negative and stays satisfied.
  e.creation_observed(key);
  EXPECT_EQ(e.get_expectations(key)->add, -1);
  EXPECT_TRUE(e.satisfied_expectations(key));

  // Raising makes it pending again; the TTL expires it (strictly after 5 minutes).
  e.set_expectations(key, 1, 0);
  EXPECT_FALSE(e.satisfied_expectations(key));
  clock.now += kExpectationsTimeout;
  EXPECT_FALSE(e.satisfied_expectations(key));
  clock.now += std::chrono::nanoseconds(1);
  EXPECT_TRUE(e.satisfied_expectations(key));

  e.delete_expectations(key);
  EXPECT_FALSE(e.get_expectations(key));
  // Observations without a record do not create one.
  e.creation_observed(key);
  e.raise_expectations(key, 1, 1);
  EXPECT_FALSE(e.get_expectations(key));
}

TEST(Expectations, ExpectCreationsReplacesTheRecord) {
  ControllerExpectations e;
  e.expect_deletions("k", 3);
  e.expect_creations("k", 2);
  const auto rec = e.get_expectations("k");
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->add, 2);
  EXPECT_EQ(rec->del, 0);
  e.raise_expectations("k", 1, 2);
  e.lower_expectations("k", 0, 1);
  EXPECT_EQ(e.get_expectations("k")->add, 3);
  EXPECT_EQ(e.get_expectations("k")->del, 1);
}

// After upstream TestUIDExpectations.
TEST(UidTrackingExpectations, CountsEachExpectedKeyOnce) {
  UidTrackingControllerExpectations e;
  const std::string rs = "ns/rs";
  e.expect_deletions(rs, {"ns/p1", "ns/p2", "ns/p2"});  // duplicates count once
  EXPECT_EQ(e.expectations().get_expectations(rs)->del, 2);
  EXPECT_FALSE(e.satisfied_expectations(rs));

  e.deletion_observed(rs, "ns/other");  // not expected: ignored
  EXPECT_EQ(e.expectations().get_expectations(rs)->del, 2);
  e.deletion_observed(rs, "ns/p1");
  e.deletion_observed(rs, "ns/p1");  // graceful delete then final delete: once
  EXPECT_EQ(e.expectations().get_expectations(rs)->del, 1);
  EXPECT_EQ(e.get_uids(rs), (std::set<std::string, std::less<>>{"ns/p2"}));
  e.deletion_observed(rs, "ns/p2");
  EXPECT_TRUE(e.satisfied_expectations(rs));
  EXPECT_TRUE(e.get_uids(rs).empty());

  e.expect_deletions(rs, {"ns/p3"});
  e.delete_expectations(rs);
  EXPECT_TRUE(e.get_uids(rs).empty());
  EXPECT_FALSE(e.expectations().get_expectations(rs));
  EXPECT_TRUE(e.satisfied_expectations(rs));

  e.expect_creations(rs, 1);
  EXPECT_FALSE(e.satisfied_expectations(rs));
  e.creation_observed(rs);
  EXPECT_TRUE(e.satisfied_expectations(rs));
}

}  // namespace
}  // namespace kcm::controller
