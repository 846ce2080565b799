#include "leaderelection/leader_election_record.h"

#include <gtest/gtest.h>

#include "api/json.h"

namespace kcm::leaderelection {
namespace {

using std::chrono::microseconds;
using std::chrono::seconds;

api::json::value parse(std::string_view text) {
  std::string error;
  auto v = api::parse_json(text, &error);
  EXPECT_TRUE(v) << error;
  return v ? *v : api::json::value();
}

api::Time at(std::int64_t secs, std::int64_t micros = 0) {
  return api::Time(api::Time::TimePoint(seconds(secs) + microseconds(micros)));
}

TEST(LeaderElectionRecord, ToLeaseSpecWritesMicroTimes) {
  LeaderElectionRecord r;
  r.holder_identity = "host_1";
  r.lease_duration_seconds = 15;
  r.acquire_time = at(1'800'000'000, 123456);
  r.renew_time = at(1'800'000'010, 7);
  r.leader_transitions = 3;
  EXPECT_EQ(
      api::to_json_string(record_to_lease_spec(r)),
      R"({"holderIdentity":"host_1","leaseDurationSeconds":15,)"
      R"("acquireTime":"2027-01-15T08:00:00.123456Z","renewTime":"2027-01-15T08:00:10.000007Z",)"
      R"("leaseTransitions":3})");
}

TEST(LeaderElectionRecord, ZeroRecordKeepsEmptyHolderAndNullTimes) {
  EXPECT_EQ(api::to_json_string(record_to_lease_spec({})),
            R"({"holderIdentity":"","leaseDurationSeconds":0,"acquireTime":null,)"
            R"("renewTime":null,"leaseTransitions":0})");
}

TEST(LeaderElectionRecord, StrategyAndPreferredHolderOnlyWhenSet) {
  LeaderElectionRecord r;
  r.strategy = "OldestEmulationVersion";
  r.preferred_holder = "other";
  const auto spec = record_to_lease_spec(r);
  EXPECT_EQ(spec.at("strategy"), "OldestEmulationVersion");
  EXPECT_EQ(spec.at("preferredHolder"), "other");
}

TEST(LeaderElectionRecord, RoundTrip) {
  LeaderElectionRecord r;
  r.holder_identity = "foo";
  r.lease_duration_seconds = 10;
  r.acquire_time = at(1'700'000'000, 42);
  r.renew_time = at(1'700'000'005, 999999);
  r.leader_transitions = 1;
  r.preferred_holder = "bar";
  r.strategy = "OldestEmulationVersion";
  const auto back = lease_spec_to_record(record_to_lease_spec(r));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, r);
}

TEST(LeaderElectionRecord, AbsentAndNullMembersReadAsZero) {
  for (const char* text : {"null", "{}", R"({"holderIdentity":null,"renewTime":null})"}) {
    const auto r = lease_spec_to_record(parse(text));
    ASSERT_TRUE(r) << text;
    EXPECT_EQ(*r, LeaderElectionRecord{}) << text;
  }
}

TEST(LeaderElectionRecord, BadSpecsNameTheMember) {
  struct Case {
    const char* spec;
    const char* error;
  };
  const Case cases[] = {
      {R"([])", "spec: expected object"},
      {R"({"holderIdentity":5})", "spec.holderIdentity: expected string"},
      {R"({"leaseDurationSeconds":"15"})", "spec.leaseDurationSeconds: expected int32"},
      {R"({"leaseDurationSeconds":4294967296})", "spec.leaseDurationSeconds: expected int32"},
      {R"({"leaseTransitions":1.5})", "spec.leaseTransitions: expected int32"},
      {R"({"strategy":true})", "spec.strategy: expected string"},
  };
  for (const auto& c : cases) {
    const auto r = lease_spec_to_record(parse(c.spec));
    ASSERT_FALSE(r) << c.spec;
    EXPECT_EQ(r.error(), c.error) << c.spec;
  }
  // MicroTime wants exactly six fraction digits; the message comes from api::MicroTime.
  const auto r = lease_spec_to_record(parse(R"({"renewTime":"2026-01-01T00:00:00Z"})"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rfind("spec.renewTime: ", 0), 0u) << r.error();
}

TEST(LeaderElectionRecord, RawRecordIsUpstreamJsonInWholeSeconds) {
  LeaderElectionRecord r;
  r.holder_identity = "a";
  r.lease_duration_seconds = 15;
  r.acquire_time = at(1'800'000'000, 500000);
  r.renew_time = at(1'800'000'000, 900000);
  EXPECT_EQ(
      raw_record(r),
      R"({"holderIdentity":"a","leaseDurationSeconds":15,"acquireTime":"2027-01-15T08:00:00Z",)"
      R"("renewTime":"2027-01-15T08:00:00Z","leaderTransitions":0,"strategy":"",)"
      R"("preferredHolder":""})");
  EXPECT_EQ(raw_record({}),
            R"({"holderIdentity":"","leaseDurationSeconds":0,"acquireTime":null,"renewTime":null,)"
            R"("leaderTransitions":0,"strategy":"","preferredHolder":""})");
}

}  // namespace
}  // namespace kcm::leaderelection
