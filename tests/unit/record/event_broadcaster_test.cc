#include "record/event_broadcaster.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "record/fake_recorder.h"

namespace kcm::record {
namespace {

using namespace std::chrono_literals;
using TimePoint = std::chrono::system_clock::time_point;

// Stores events like the API server; failures can be queued per verb.
class FakeSink : public EventSink {
 public:
  struct Call {
    std::string verb;
    std::string ns;
    std::string name;
    api::json::value body;
  };

  Result<api::json::value, SinkError> create(const api::json::value& event) override {
    std::unique_lock lock(mu_);
    const auto& meta = event.at("metadata").as_object();
    calls_.push_back({"create", std::string(meta.at("namespace").as_string()),
                      std::string(meta.at("name").as_string()), event});
    cv_.notify_all();
    if (auto f = next_failure("create")) return fail(*f);
    api::json::value stored = event;
    stored.at("metadata").as_object()["resourceVersion"] = std::to_string(++rv_);
    events_[std::string(meta.at("name").as_string())] = stored;
    return stored;
  }

  Result<api::json::value, SinkError> patch(std::string_view ns, std::string_view name,
                                            const api::json::value& patch) override {
    std::unique_lock lock(mu_);
    calls_.push_back({"patch", std::string(ns), std::string(name), patch});
    cv_.notify_all();
    if (auto f = next_failure("patch")) return fail(*f);
    auto it = events_.find(std::string(name));
    if (it == events_.end()) {
      return fail(SinkError::from_status(api::not_found({"", "events"}, name)));
    }
    for (const auto& [k, v] : patch.as_object())
      it->second.as_object()[k] = v;
    it->second.at("metadata").as_object()["resourceVersion"] = std::to_string(++rv_);
    return it->second;
  }

  void fail_next(std::string verb, SinkError error, int times = 1) {
    std::lock_guard lock(mu_);
    for (int i = 0; i < times; ++i)
      failures_.push_back({verb, error});
  }
  void forget(const std::string& name) {
    std::lock_guard lock(mu_);
    events_.erase(name);
  }
  std::vector<Call> wait_for_calls(std::size_t n, std::chrono::milliseconds timeout = 10s) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [&] { return calls_.size() >= n; });
    return calls_;
  }
  std::vector<Call> calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  std::optional<SinkError> next_failure(const std::string& verb) {
    for (auto it = failures_.begin(); it != failures_.end(); ++it) {
      if (it->first == verb) {
        auto e = it->second;
        failures_.erase(it);
        return e;
      }
    }
    return std::nullopt;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Call> calls_;
  std::map<std::string, api::json::value> events_;
  std::deque<std::pair<std::string, SinkError>> failures_;
  int rv_ = 0;
};

// Collects log lines.
struct Logs {
  std::mutex mu;
  std::vector<std::string> lines;
  Logger logger() {
    return [this](Severity s, std::string_view m) {
      std::lock_guard lock(mu);
      lines.push_back(std::string(s == Severity::kError  ? "E "
                                  : s == Severity::kInfo ? "I "
                                                         : "D ") +
                      std::string(m));
    };
  }
  std::vector<std::string> get() {
    std::lock_guard lock(mu);
    return lines;
  }
  bool contains(std::string_view needle) {
    for (const auto& l : get()) {
      if (l.find(needle) != std::string::npos) return true;
    }
    return false;
  }
};

ObjectReference pod_ref() {
  return ObjectReference{"Pod", "default", "web-1", "uid-1", "v1", "7", ""};
}

BroadcasterOptions fast_options(Logs& logs) {
  BroadcasterOptions o;
  o.sleep_duration = 1ms;  // NewBroadcasterForTests
  o.logger = logs.logger();
  return o;
}

TEST(EventRecorder, WritesUpstreamShapedEvent) {
  Logs logs;
  EventBroadcaster broadcaster(fast_options(logs));
  auto sink = std::make_shared<FakeSink>();
  broadcaster.start_recording_to_sink(sink);
  const TimePoint t(1'800'000'000s + 123456789ns);
  auto recorder = broadcaster.new_recorder({"deployment-controller", "node-a"}, [t] { return t; });
  recorder->eventf(pod_ref(), "Normal", "ScalingReplicaSet", "Scaled up replica set {} to {}",
                   "web-abc", 3);
  const auto calls = sink->wait_for_calls(1);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].verb, "create");
  EXPECT_EQ(calls[0].ns, "default");
  EXPECT_EQ(api::to_json_string(calls[0].body),
            R"({"kind":"Event","apiVersion":"v1","metadata":{"name":"web-1.18fae2769b0fcd15",)"
            R"("namespace":"default","creationTimestamp":null},"involvedObject":{"kind":"Pod",)"
            R"("namespace":"default","name":"web-1","uid":"uid-1","apiVersion":"v1",)"
            R"("resourceVersion":"7"},"reason":"ScalingReplicaSet",)"
            R"("message":"Scaled up replica set web-abc to 3","source":{"component":)"
            R"("deployment-controller","host":"node-a"},"firstTimestamp":"2027-01-15T08:00:00Z",)"
            R"("lastTimestamp":"2027-01-15T08:00:00Z","count":1,"type":"Normal","eventTime":null,)"
            R"("reportingComponent":"deployment-controller","reportingInstance":"node-a"})");
}

TEST(EventRecorder, ClusterScopedObjectsGoToDefaultAndObjectsNeedKind) {
  Logs logs;
  EventBroadcaster broadcaster(fast_options(logs));
  auto sink = std::make_shared<FakeSink>();
  broadcaster.start_recording_to_sink(sink);
  auto recorder = broadcaster.new_recorder({"node-controller", ""});
  auto node =
      api::Object::parse(R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n1","uid":"u"}})");
  ASSERT_TRUE(node);
  recorder->event(*node, "Warning", "NodeNotReady", "Node n1 status is now: NodeNotReady");
  auto no_kind = api::Object::parse(R"({"metadata":{"name":"x"}})");
  recorder->event(*no_kind, "Normal", "R", "m");
  recorder->event(pod_ref(), "Info", "R", "m");  // not a valid type
  const auto calls = sink->wait_for_calls(1);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].ns, "default");
  EXPECT_EQ(calls[0].body.at("involvedObject").at("kind"), "Node");
  EXPECT_EQ(calls[0].body.at("involvedObject").as_object().count("namespace"), 0u);
  EXPECT_TRUE(logs.contains(
      "E Could not construct reference, will not report event: Object 'Kind' is missing"));
  EXPECT_TRUE(logs.contains("E Unsupported event type eventType=\"Info\""));
}

TEST(EventRecorder, RepeatsArePatchedAndRecreatedWhenGone) {
  Logs logs;
  EventBroadcaster broadcaster(fast_options(logs));
  auto sink = std::make_shared<FakeSink>();
  broadcaster.start_recording_to_sink(sink);
  TimePoint now(1'800'000'000s);
  std::mutex mu;
  auto recorder = broadcaster.new_recorder({"c", "h"}, [&] {
    std::lock_guard lock(mu);
    now += 1s;
    return now;
  });
  recorder->event(pod_ref(), "Warning", "FailedCreate", "quota exceeded");
  sink->wait_for_calls(1);
  recorder->event(pod_ref(), "Warning", "FailedCreate", "quota exceeded");
  auto calls = sink->wait_for_calls(2);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[1].verb, "patch");
  EXPECT_EQ(calls[1].name, calls[0].name);
  EXPECT_EQ(api::to_json_string(calls[1].body),
            R"({"count":2,"lastTimestamp":"2027-01-15T08:00:02Z","message":"quota exceeded"})");

  // The event was deleted (or expired): the patch 404s, the event is created
  // again under its old name with the count carried on.
  sink->forget(calls[0].name);
  recorder->event(pod_ref(), "Warning", "FailedCreate", "quota exceeded");
  calls = sink->wait_for_calls(4);
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_EQ(calls[2].verb, "patch");
  EXPECT_EQ(calls[3].verb, "create");
  EXPECT_EQ(calls[3].name, calls[0].name);
  EXPECT_EQ(calls[3].body.at("count"), 3);
  EXPECT_EQ(calls[3].body.at("metadata").as_object().count("resourceVersion"), 0u);
  EXPECT_EQ(calls[3].body.at("firstTimestamp"), "2027-01-15T08:00:01Z");
}

TEST(EventRecorder, TransportErrorsAreRetriedStatusErrorsAreNot) {
  struct Case {
    std::string name;
    SinkError error;
    int failures;
    std::size_t expected_calls;
    const char* log;
  };
  api::Status terminating = api::forbidden({"", "events"}, "x", "namespace is terminating");
  terminating.details->causes.push_back({"NamespaceTerminating", "terminating", ""});
  const std::vector<Case> cases = {
      {"transport error, then success", SinkError::transport("connection refused"), 3, 4,
       "E Unable to write event (may retry after sleeping): connection refused"},
      {"transport errors past the limit", SinkError::transport("connection refused"), 100,
       kMaxTriesPerEvent, "E Unable to write event (retry limit exceeded!)"},
      {"request construction", SinkError::request_construction("bad name"), 1, 1,
       "E Unable to construct event (will not retry!): bad name"},
      {"invalid", SinkError::from_status(api::bad_request("nope")), 1, 1,
       "E Server rejected event (will not retry!): nope"},
      {"already exists", SinkError::from_status(api::already_exists({"", "events"}, "x")), 1, 1,
       "D Server rejected event (will not retry!)"},
      {"namespace terminating", SinkError::from_status(terminating), 1, 1,
       "D Server rejected event (will not retry!)"},
  };
  for (const auto& c : cases) {
    Logs logs;
    EventBroadcaster broadcaster(fast_options(logs));
    auto sink = std::make_shared<FakeSink>();
    sink->fail_next("create", c.error, c.failures);
    broadcaster.start_recording_to_sink(sink);
    broadcaster.new_recorder({"c", "h"})->event(pod_ref(), "Normal", "R", "m");
    sink->wait_for_calls(c.expected_calls);
    // Give a wrong implementation the chance to make one call too many.
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(sink->calls().size(), c.expected_calls) << c.name;
    EXPECT_TRUE(logs.contains(c.log)) << c.name;
  }
}

TEST(EventBroadcaster, AFullWatcherMissesEventsSilentlyAndOthersStillGetThem) {
  Logs logs;
  auto options = fast_options(logs);
  options.queue_length = 2;
  EventBroadcaster broadcaster(options);
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  std::vector<std::string> stuck_got;
  std::atomic<bool> holding{false};
  // A watcher stuck on its first event: two more fit in its queue, the rest are dropped.
  broadcaster.start_event_watcher([&](const Event& e) {
    holding = true;
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return release; });
    stuck_got.push_back(e.message);
  });
  std::atomic<int> other_got{0};
  broadcaster.start_event_watcher([&](const Event&) { ++other_got; });
  auto recorder = broadcaster.new_recorder({"c", "h"});
  recorder->event(pod_ref(), "Normal", "R", "0");
  // Only once the watcher holds the first event does the queue hold two more.
  while (!holding.load())
    std::this_thread::sleep_for(1ms);
  for (int i = 1; i <= 4; ++i) {
    // The other watcher keeps up, so its own queue of two never fills.
    while (other_got.load() < i)
      std::this_thread::sleep_for(1ms);
    recorder->event(pod_ref(), "Normal", "R", std::to_string(i));
  }
  while (other_got.load() < 5)
    std::this_thread::sleep_for(1ms);
  {
    std::lock_guard lock(mu);
    release = true;
  }
  cv.notify_all();
  while (true) {
    std::this_thread::sleep_for(1ms);
    std::lock_guard lock(mu);
    if (stuck_got.size() >= 3) break;
  }
  std::this_thread::sleep_for(20ms);  // time for a wrong implementation to deliver more
  {
    std::lock_guard lock(mu);
    EXPECT_EQ(stuck_got, (std::vector<std::string>{"0", "1", "2"}));
  }
  EXPECT_EQ(other_got.load(), 5);
  // upstream's DropIfChannelFull: no log line for a watcher's drop.
  EXPECT_TRUE(logs.get().empty()) << logs.get().front();
}

TEST(EventBroadcaster, ShutdownStopsRetriesAndLaterEventsAreRefused) {
  Logs logs;
  auto options = fast_options(logs);
  options.sleep_duration = 1h;  // a retry would wait forever
  auto broadcaster = std::make_unique<EventBroadcaster>(options);
  auto sink = std::make_shared<FakeSink>();
  sink->fail_next("create", SinkError::transport("connection refused"), 100);
  broadcaster->start_recording_to_sink(sink);
  auto recorder = broadcaster->new_recorder({"c", "h"});
  recorder->event(pod_ref(), "Normal", "R", "m");
  sink->wait_for_calls(1);
  // The first sleep is 1h * rand[0,1): shutdown interrupts it.
  broadcaster->shutdown();
  broadcaster.reset();
  // One try (two if the randomised first sleep came out near zero), then given up.
  EXPECT_LE(sink->calls().size(), 2u);
  EXPECT_TRUE(logs.contains("E Unable to write event (broadcaster is shut down)"));
  recorder->event(pod_ref(), "Normal", "R", "after");
  EXPECT_TRUE(
      logs.contains("E Unable to record event (will not retry!): broadcaster already stopped"));
}

TEST(EventBroadcaster, StructuredLoggingAndWatcherStop) {
  Logs logs;
  EventBroadcaster broadcaster(fast_options(logs));
  auto watcher = broadcaster.start_structured_logging(0);
  broadcaster.new_recorder({"c", "h"})->event(pod_ref(), "Normal", "Started", "started \"x\"");
  for (int i = 0; i < 1000 && !logs.contains("Event occurred"); ++i)
    std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(logs.contains(
      R"(I Event occurred object="default/web-1" fieldPath="" kind="Pod" apiVersion="v1" )"
      R"(type="Normal" reason="Started" message="started \"x\"")"));
  watcher->stop();
  watcher->stop();  // idempotent
}

TEST(EventBroadcaster, StructuredLoggingFollowsVerbosity) {
  Logs logs;
  auto options = fast_options(logs);
  std::atomic<int> level{2};
  options.verbose = [&](int v) { return v <= level.load(); };
  EventBroadcaster broadcaster(options);
  broadcaster.start_structured_logging(3);  // upstream controllers' level
  auto recorder = broadcaster.new_recorder({"c", "h"});
  // Asked as the event is recorded: at -v=2 it is not even queued.
  recorder->event(pod_ref(), "Normal", "Quiet", "at -v=2");
  level = 3;
  recorder->event(pod_ref(), "Normal", "Loud", "at -v=3");
  for (int i = 0; i < 1000 && !logs.contains("Event occurred"); ++i)
    std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(20ms);
  const auto lines = logs.get();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find(R"(reason="Loud")"), std::string::npos) << lines[0];
}

TEST(Event, NameFallsBackToUuidWhenNotADnsSubdomain) {
  const TimePoint t(1'800'000'000s);
  EXPECT_EQ(generate_event_name("web-1", t), "web-1.18fae27693b40000");
  const auto odd = generate_event_name("Upper_Case", t);
  EXPECT_EQ(odd.size(), 36u) << odd;
  EXPECT_EQ(odd[14], '4');
}

TEST(Event, JsonRoundTrip) {
  Event e;
  e.name = "web-1.abc";
  e.namespace_ = "default";
  e.resource_version = "9";
  e.annotations = {{"a", "b"}};
  e.involved_object = pod_ref();
  e.reason = "R";
  e.message = "m";
  e.source = {"c", "h"};
  e.first_timestamp = api::Time(TimePoint(1'800'000'000s));
  e.last_timestamp = api::Time(TimePoint(1'800'000'005s));
  e.count = 4;
  e.type = "Warning";
  e.reporting_controller = "c";
  e.reporting_instance = "h";
  const auto back = Event::from_json(e.to_json());
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(*back, e);
  const auto bad = Event::from_json(api::json::value(api::json::object{{"firstTimestamp", 5}}));
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().rfind("firstTimestamp: ", 0), 0u) << bad.error();
  EXPECT_FALSE(Event::from_json(api::json::value(3)));
}

TEST(FakeRecorder, RecordsTypeReasonMessage) {
  FakeRecorder r;
  r.eventf(pod_ref(), "Normal", "Scaled", "to {}", 3);
  r.annotated_event(pod_ref(), {{"k", "v"}}, "Warning", "Odd", "m");
  EXPECT_EQ(r.events(), (std::vector<std::string>{"Normal Scaled to 3", "Warning Odd m k: v"}));
}

}  // namespace
}  // namespace kcm::record
