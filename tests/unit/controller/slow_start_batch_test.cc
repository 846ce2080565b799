#include "controller/slow_start_batch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "upstream_cases.h"

namespace kcm::controller {
namespace {

namespace json = api::json;

// TestSlowStartBatch: fn succeeds for its first `callsThatSucceed` calls.
TEST(SlowStartBatch, UpstreamCases) {
  const json::object file = kcm::testing::load_upstream_cases("slow_start_batch.json");
  ASSERT_EQ(kcm::testing::cases_of(file).size(), 3u);
  ParallelCalls four(4);
  for (ParallelCalls* parallel : {static_cast<ParallelCalls*>(nullptr), &four}) {
    for (const json::value& c : kcm::testing::cases_of(file)) {
      const json::object& in = c.at("input").as_object();
      const json::object& want = c.at("expected").as_object();
      const int succeed = static_cast<int>(in.at("callsThatSucceed").as_int64());
      std::atomic<int> calls{0};
      const std::function<Result<void>()> fn = [&]() -> Result<void> {
        if (calls.fetch_add(1) < succeed) return {};
        return fail("fake error");
      };
      const auto r = slow_start_batch<std::string>(
          static_cast<int>(in.at("count").as_int64()),
          static_cast<int>(in.at("initialBatchSize").as_int64()), fn, parallel);
      const std::string name =
          kcm::testing::str(c.at("name")) + (parallel != nullptr ? " in parallel" : " sequential");
      EXPECT_EQ(r.successes, want.at("successes").as_int64()) << name;
      EXPECT_EQ(r.error.has_value(), want.at("error").as_bool()) << name;
      if (r.error) {
        EXPECT_EQ(*r.error, "fake error") << name;
      }
      EXPECT_EQ(calls.load(), want.at("totalCalls").as_int64()) << name;
    }
  }
}

TEST(SlowStartBatch, BatchesDouble) {
  int calls = 0;
  const std::function<Result<void>()> fn = [&]() -> Result<void> {
    ++calls;
    return {};
  };
  // 1 + 2 + 4 + 8 + 5 = 20
  const auto r = slow_start_batch<std::string>(20, 1, fn);
  EXPECT_EQ(r.successes, 20);
  EXPECT_EQ(calls, 20);
  EXPECT_FALSE(r.error);
  // Zero count or zero initial batch: no calls.
  calls = 0;
  EXPECT_EQ(slow_start_batch<std::string>(0, 1, fn).successes, 0);
  EXPECT_EQ(slow_start_batch<std::string>(5, 0, fn).successes, 0);
  EXPECT_EQ(calls, 0);
}

TEST(SlowStartBatch, TenCreatesFiveSucceedMakeSevenCalls) {
  // 1 + 2 + 4: the third batch has two failures and ends the run.
  int calls = 0;
  const std::function<Result<void>()> fn = [&]() -> Result<void> {
    return ++calls <= 5 ? Result<void>{} : Result<void>(fail("quota"));
  };
  const auto r = slow_start_batch<std::string>(10, kSlowStartInitialBatchSize, fn);
  EXPECT_EQ(calls, 7);
  EXPECT_EQ(r.successes, 5);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(*r.error, "quota");
}

}  // namespace
}  // namespace kcm::controller
