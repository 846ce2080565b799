#include "record/event_correlator.h"

#include <gtest/gtest.h>

#include <map>

namespace kcm::record {
namespace {

using namespace std::chrono_literals;
using TimePoint = std::chrono::system_clock::time_point;

// client-go's IntervalClock: every read returns the time, then moves it on.
struct IntervalClock {
  TimePoint t;
  std::chrono::nanoseconds interval;
  NowFunc func() {
    return [this] {
      const auto now = t;
      t += interval;
      return now;
    };
  }
};

ObjectReference make_ref(std::string kind, std::string name, std::string ns) {
  return ObjectReference{std::move(kind),
                         std::move(ns),
                         std::move(name),
                         "C934D34AFB20242",
                         "version",
                         "",
                         "spec.containers{mycontainer}"};
}

Event make_event(std::string reason, std::string message, ObjectReference ref) {
  Event e;
  e.reason = std::move(reason);
  e.message = std::move(message);
  e.involved_object = std::move(ref);
  e.source = {"kubelet", "kublet.node1"};
  e.count = 1;
  e.type = "Normal";
  e.first_timestamp = e.last_timestamp = api::Time(TimePoint(1'700'000'000s));
  return e;
}

std::vector<Event> make_events(int n, const Event& e) {
  return std::vector<Event>(n, e);
}

std::vector<Event> make_unique_events(int n) {
  std::vector<Event> out;
  for (int i = 0; i < n; ++i) {
    const auto s = std::to_string(i);
    out.push_back(
        make_event("reason-" + s, "message-" + s, make_ref("Pod", "pod-" + s, "ns-" + s)));
  }
  return out;
}

std::vector<Event> make_similar_events(int n, const Event& e, const std::string& prefix) {
  auto out = make_events(n, e);
  for (int i = 0; i < n; ++i)
    out[i].message = prefix + "-" + std::to_string(i) + "-" + out[i].message;
  return out;
}

Event with_count(Event e, int count) {
  e.count = count;
  return e;
}

// validateEvent: timestamps set (and distinct exactly when counted), the name
// starts with the expected one, everything else equal.
void validate(const std::string& scenario, const Event& actual, const Event& expected) {
  EXPECT_FALSE(actual.first_timestamp.is_zero()) << scenario;
  EXPECT_FALSE(actual.last_timestamp.is_zero()) << scenario;
  if (expected.count > 1) {
    EXPECT_NE(actual.first_timestamp, actual.last_timestamp) << scenario << ": not compressed";
  } else {
    EXPECT_EQ(actual.first_timestamp, actual.last_timestamp) << scenario;
  }
  EXPECT_EQ(actual.name.rfind(expected.name, 0), 0u) << scenario << ": " << actual.name;
  Event a = actual;
  a.first_timestamp = expected.first_timestamp;
  a.last_timestamp = expected.last_timestamp;
  a.name = expected.name;
  EXPECT_EQ(a.to_json(), expected.to_json()) << scenario;
}

TEST(EventAggregator, ByReasonKeys) {
  const auto e1 = make_event("end-of-world", "it was fun", make_ref("Pod", "pod1", "other"));
  const auto e2 = make_event("end-of-world", "it was awful", make_ref("Pod", "pod1", "other"));
  const auto e3 = make_event("nevermind", "it was a bug", make_ref("Pod", "pod1", "other"));
  const auto [agg1, local1] = aggregate_by_reason(e1);
  const auto [agg2, local2] = aggregate_by_reason(e2);
  const auto [agg3, local3] = aggregate_by_reason(e3);
  EXPECT_EQ(agg1, agg2);
  EXPECT_NE(local1, local2);
  EXPECT_NE(agg1, agg3);
  EXPECT_EQ(aggregate_by_reason_message(e1), "(combined from similar events): it was fun");
}

TEST(EventCorrelator, Scenarios) {
  const auto first = make_event("first", "i am first", make_ref("Pod", "my-pod", "my-ns"));
  const auto duplicate = make_event("duplicate", "me again", make_ref("Pod", "my-pod", "my-ns"));
  const auto unique = make_event("unique", "snowflake", make_ref("Pod", "my-pod", "my-ns"));
  auto similar = make_event("similar", "similar message", make_ref("Pod", "my-pod", "my-ns"));
  similar.involved_object.field_path = "spec.containers{container1}";
  const auto aggregate =
      make_event(similar.reason, aggregate_by_reason_message(similar), similar.involved_object);
  auto other_container = similar;
  other_container.involved_object.field_path = "spec.containers{container2}";

  struct Scenario {
    std::vector<Event> previous;
    Event incoming;
    Event expected;
    int interval_seconds;
    bool expect_skip = false;
  };
  const std::map<std::string, Scenario> scenarios = {
      {"create-a-single-event", {{}, first, with_count(first, 1), 5}},
      {"the-same-event-should-just-count",
       {make_events(1, duplicate), duplicate, with_count(duplicate, 2), 5}},
      {"the-same-event-should-just-count-even-if-more-than-aggregate",
       {make_events(kDefaultAggregateMaxEvents, duplicate), duplicate,
        with_count(duplicate, kDefaultAggregateMaxEvents + 1), 30}},
      {"the-same-event-is-spam-if-happens-too-frequently",
       {make_events(kDefaultSpamBurst + 1, duplicate), duplicate, {}, 1, true}},
      {"create-many-unique-events", {make_unique_events(30), unique, with_count(unique, 1), 5}},
      {"similar-events-should-aggregate-event",
       {make_similar_events(kDefaultAggregateMaxEvents - 1, similar, similar.message), similar,
        with_count(aggregate, 1), 5}},
      {"similar-events-many-times-should-count-the-aggregate",
       {make_similar_events(kDefaultAggregateMaxEvents, similar, similar.message), similar,
        with_count(aggregate, 2), 5}},
      {"events-from-different-containers-do-not-aggregate",
       {make_events(1, other_container), similar, with_count(similar, 1), 5}},
      {"similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate",
       {make_similar_events(kDefaultAggregateMaxEvents - 1, similar, similar.message), similar,
        with_count(similar, 1), kDefaultAggregateIntervalSeconds}},
  };
  for (const auto& [name, s] : scenarios) {
    IntervalClock clock{TimePoint(1'800'000'000s), std::chrono::seconds(s.interval_seconds)};
    CorrelatorOptions options;
    options.clock = clock.func();
    EventCorrelator correlator(options);
    for (auto event : s.previous) {
      event.first_timestamp = event.last_timestamp = api::Time(clock.func()());
      auto result = correlator.correlate(event);
      if (!result.skip) correlator.update_state(result.event);
    }
    Event incoming = s.incoming;
    incoming.first_timestamp = incoming.last_timestamp = api::Time(clock.func()());
    const auto result = correlator.correlate(incoming);
    ASSERT_EQ(result.skip, s.expect_skip) << name;
    if (s.expect_skip) continue;
    validate(name, result.event, s.expected);
    EXPECT_EQ(result.patch.has_value(), s.expected.count > 1) << name;
  }
}

TEST(EventCorrelator, RepeatBecomesAPatchOfCountLastTimestampAndMessage) {
  IntervalClock clock{TimePoint(1'800'000'000s), 1s};
  CorrelatorOptions options;
  options.clock = clock.func();
  EventCorrelator correlator(options);
  auto e = make_event("Failed", "pull failed", make_ref("Pod", "p", "ns"));
  e.name = "p.1";
  e.namespace_ = "ns";
  auto first = correlator.correlate(e);
  ASSERT_FALSE(first.skip);
  EXPECT_FALSE(first.patch);
  // The server's copy carries the resourceVersion the patch is based on.
  auto stored = first.event;
  stored.resource_version = "42";
  correlator.update_state(stored);

  auto again = e;
  again.name = "p.2";
  again.first_timestamp = again.last_timestamp = api::Time(TimePoint(1'800'000'100s));
  const auto second = correlator.correlate(again);
  ASSERT_TRUE(second.patch);
  EXPECT_EQ(api::to_json_string(*second.patch),
            R"({"count":2,"lastTimestamp":"2027-01-15T08:01:40Z","message":"pull failed"})");
  EXPECT_EQ(second.event.name, "p.1");
  EXPECT_EQ(second.event.resource_version, "42");
  EXPECT_EQ(second.event.first_timestamp, e.first_timestamp);
  EXPECT_EQ(second.event.count, 2);
}

TEST(EventCorrelator, SpamFilter) {
  const auto spam_key_with_reason = [](const Event& e) {
    const auto& io = e.involved_object;
    return e.source.component + e.source.host + io.kind + io.namespace_ + io.name + io.uid +
           io.api_version + e.reason;
  };
  const auto original = make_event("original", "i am first", make_ref("Pod", "my-pod", "my-ns"));
  const auto different_reason =
      make_event("duplicate", "me again", make_ref("Pod", "my-pod", "my-ns"));
  const auto spam = make_event("original", "me again", make_ref("Pod", "my-pod", "my-ns"));
  auto warning = different_reason;
  warning.type = "Warning";
  struct Case {
    std::string name;
    Event incoming;
    bool expect_skip;
    std::function<std::string(const Event&)> spam_key;
  };
  const Case cases[] = {
      {"same object is spam for the default filter", different_reason, true, nullptr},
      {"different reason is not spam for a reason-aware filter", different_reason, false,
       spam_key_with_reason},
      {"same reason, other message is spam for a reason-aware filter", spam, true,
       spam_key_with_reason},
      {"another type has its own bucket in the default filter", warning, false, nullptr},
  };
  for (const auto& c : cases) {
    IntervalClock clock{TimePoint(1'800'000'000s), 1s};
    CorrelatorOptions options;
    options.clock = clock.func();
    options.spam_key_func = c.spam_key;
    options.burst_size = 1;
    EventCorrelator correlator(options);
    auto r = correlator.correlate(original);
    ASSERT_FALSE(r.skip) << c.name;
    correlator.update_state(r.event);
    r = correlator.correlate(c.incoming);
    EXPECT_EQ(r.skip, c.expect_skip) << c.name;
  }
}

TEST(EventCorrelator, SpamBucketRefillsOneEventPerFiveMinutes) {
  TimePoint now(1'800'000'000s);
  CorrelatorOptions options;
  options.clock = [&now] { return now; };
  EventCorrelator correlator(options);
  auto e = make_event("R", "m", make_ref("Pod", "p", "ns"));
  for (int i = 0; i < kDefaultSpamBurst; ++i) {
    e.message = "m" + std::to_string(i % 5);  // stays below the aggregation threshold
    EXPECT_FALSE(correlator.correlate(e).skip) << i;
  }
  EXPECT_TRUE(correlator.correlate(e).skip);
  now += 299s;
  EXPECT_TRUE(correlator.correlate(e).skip);
  now += 1s;
  EXPECT_FALSE(correlator.correlate(e).skip);
  EXPECT_TRUE(correlator.correlate(e).skip);
}

TEST(TokenBucket, StartsFullAndRefills) {
  TimePoint t(1000s);
  TokenBucket b(0.5, 2, t);
  EXPECT_TRUE(b.try_accept(t));
  EXPECT_TRUE(b.try_accept(t));
  EXPECT_FALSE(b.try_accept(t));
  EXPECT_FALSE(b.try_accept(t + 1s));
  EXPECT_TRUE(b.try_accept(t + 2s));
  EXPECT_TRUE(b.try_accept(t + 100s));
  EXPECT_TRUE(b.try_accept(t + 100s));
  EXPECT_FALSE(b.try_accept(t + 100s)) << "never more than the burst";
}

TEST(LruCache, EvictsLeastRecentlyUsed) {
  LruCache<int> c(2);
  c.put("a", 1);
  c.put("b", 2);
  ASSERT_NE(c.get("a"), nullptr);  // a is now the newest
  c.put("c", 3);
  EXPECT_EQ(c.get("b"), nullptr);
  EXPECT_EQ(*c.get("a"), 1);
  EXPECT_EQ(*c.get("c"), 3);
  c.put("a", 10);
  EXPECT_EQ(*c.get("a"), 10);
  EXPECT_EQ(c.size(), 2u);
}

}  // namespace
}  // namespace kcm::record
