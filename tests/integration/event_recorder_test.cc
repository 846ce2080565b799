// The event pipeline against a running kcm-local: recorder -> broadcaster ->
// correlator -> ClientEventSink -> core/v1 Events, read back with the client
// and with the real kubectl.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <sstream>

#include "integration_env.h"
#include "record/event_broadcaster.h"
#include "record/event_sink_client.h"

namespace kcm::record {
namespace {

namespace json = boost::json;
using integration::string_at;
using std::chrono::seconds;
using std::chrono::system_clock;

// A recorder clock the test moves, so repeats land on later seconds.
class TestClock {
 public:
  TestClock() : base_(std::chrono::time_point_cast<seconds>(system_clock::now())) {}
  NowFunc func() {
    return [this] { return base_ + seconds(offset_.load()); };
  }
  void advance(int s) { offset_ += s; }
  std::string rfc3339(int offset) const { return api::Time(base_ + seconds(offset)).to_string(); }

 private:
  const system_clock::time_point base_;
  std::atomic<int> offset_{0};
};

class EventRecorderIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // No simulated nodes: their scheduler and kubelets record events of their own.
    e2e::LocalCluster::Options options;
    options.extra_args = {"--nodes", "0"};
    cluster_ = new e2e::LocalCluster(options);
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override {
    cs_ = integration::clientset_for(*cluster_);
    ASSERT_NE(cs_, nullptr);
    BroadcasterOptions options;
    options.sleep_duration = std::chrono::milliseconds(200);
    options.logger = [this](Severity s, std::string_view m) {
      if (s != Severity::kError) return;
      std::lock_guard lock(mu_);
      errors_.emplace_back(m);
    };
    broadcaster_ = std::make_unique<EventBroadcaster>(std::move(options));
    broadcaster_->start_recording_to_sink(std::make_shared<ClientEventSink>(cs_->rest()));
    recorder_ = broadcaster_->new_recorder({"kcm-integration", "test-host"}, clock_.func());
  }
  void TearDown() override {
    broadcaster_->shutdown();
    std::lock_guard lock(mu_);
    EXPECT_EQ(errors_, std::vector<std::string>());
  }

  // The events of `ns` about `name` with `reason`.
  std::vector<json::value> events_about(const std::string& ns, const std::string& name,
                                        const std::string& reason) {
    std::vector<json::value> out;
    auto list = cs_->events(ns).list({});
    if (!list.ok()) return out;
    for (auto& e : list->items) {
      if (string_at(e, {"involvedObject", "name"}) == name && string_at(e, {"reason"}) == reason &&
          string_at(e, {"source", "component"}) == "kcm-integration") {
        out.push_back(std::move(e));
      }
    }
    return out;
  }

  // A pod to record events about, and the reference to it.
  ObjectReference make_pod(const std::string& ns, const std::string& name) {
    auto created = cs_->pods(ns).create(
        json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
                    R"("},"spec":{"containers":[{"name":"c","image":"busybox"}]}})"));
    EXPECT_TRUE(created.ok()) << created.error().message;
    if (!created.ok()) return {};
    ObjectReference ref;
    ref.kind = "Pod";
    ref.api_version = "v1";
    ref.namespace_ = ns;
    ref.name = name;
    ref.uid = string_at(*created, {"metadata", "uid"});
    ref.resource_version = string_at(*created, {"metadata", "resourceVersion"});
    return ref;
  }

  static e2e::LocalCluster* cluster_;
  std::shared_ptr<client::Clientset> cs_;
  TestClock clock_;
  std::unique_ptr<EventBroadcaster> broadcaster_;
  std::shared_ptr<EventRecorder> recorder_;
  std::mutex mu_;
  std::vector<std::string> errors_;
};

e2e::LocalCluster* EventRecorderIntegrationTest::cluster_ = nullptr;

TEST_F(EventRecorderIntegrationTest, CreatesCoreV1EventWithUpstreamFields) {
  integration::ensure_namespace(*cs_, "ev-create");
  const ObjectReference ref = make_pod("ev-create", "web-0");
  ASSERT_FALSE(ref.uid.empty());
  recorder_->eventf(ref, kEventTypeWarning, "BackOff", "Back-off restarting failed container {}",
                    "c");

  std::vector<json::value> found;
  ASSERT_TRUE(integration::eventually_ok([&] {
    found = events_about("ev-create", "web-0", "BackOff");
    return !found.empty();
  }));
  ASSERT_EQ(found.size(), 1u);
  const json::value& e = found.front();
  EXPECT_EQ(string_at(e, {"apiVersion"}), "v1");
  EXPECT_EQ(string_at(e, {"kind"}), "Event");
  const std::string name = string_at(e, {"metadata", "name"});
  EXPECT_TRUE(name.starts_with("web-0.")) << name;
  EXPECT_EQ(name.find_first_not_of("0123456789abcdef", 6), std::string::npos) << name;
  EXPECT_EQ(string_at(e, {"metadata", "namespace"}), "ev-create");
  EXPECT_EQ(
      e.at("involvedObject"),
      json::parse(R"({"kind":"Pod","namespace":"ev-create","name":"web-0","uid":")" + ref.uid +
                  R"(","apiVersion":"v1","resourceVersion":")" + ref.resource_version + R"("})"));
  EXPECT_EQ(string_at(e, {"type"}), "Warning");
  EXPECT_EQ(string_at(e, {"reason"}), "BackOff");
  EXPECT_EQ(string_at(e, {"message"}), "Back-off restarting failed container c");
  EXPECT_EQ(e.at("source"), json::parse(R"({"component":"kcm-integration","host":"test-host"})"));
  EXPECT_EQ(string_at(e, {"reportingComponent"}), "kcm-integration");
  EXPECT_EQ(string_at(e, {"reportingInstance"}), "test-host");
  EXPECT_EQ(string_at(e, {"firstTimestamp"}), clock_.rfc3339(0));
  EXPECT_EQ(string_at(e, {"lastTimestamp"}), clock_.rfc3339(0));
  EXPECT_EQ(e.at("count"), json::value(1));
  // Go marshals the zero MicroTime of core/v1 Event.eventTime as null.
  const auto* event_time = e.as_object().if_contains("eventTime");
  ASSERT_NE(event_time, nullptr) << e;
  EXPECT_TRUE(event_time->is_null()) << e;
}

TEST_F(EventRecorderIntegrationTest, RepeatPatchesCountAndLastTimestamp) {
  integration::ensure_namespace(*cs_, "ev-repeat");
  const ObjectReference ref = make_pod("ev-repeat", "api-0");
  recorder_->event(ref, kEventTypeNormal, "Pulled", "Container image already present");
  std::vector<json::value> first;
  ASSERT_TRUE(integration::eventually_ok([&] {
    first = events_about("ev-repeat", "api-0", "Pulled");
    return !first.empty();
  }));
  const std::string name = string_at(first.front(), {"metadata", "name"});

  for (int i = 2; i <= 3; ++i) {
    clock_.advance(5);
    recorder_->event(ref, kEventTypeNormal, "Pulled", "Container image already present");
    json::value got;
    ASSERT_TRUE(integration::eventually_ok([&] {
      auto g = cs_->events("ev-repeat").get(name);
      if (!g.ok()) return false;
      got = *g;
      return got.at("count") == json::value(i);
    })) << got;
    EXPECT_EQ(string_at(got, {"lastTimestamp"}), clock_.rfc3339(5 * (i - 1)));
    EXPECT_EQ(string_at(got, {"firstTimestamp"}), clock_.rfc3339(0));
    EXPECT_EQ(string_at(got, {"message"}), "Container image already present");
  }
  // Still one object: repeats patch it rather than creating new ones.
  EXPECT_EQ(events_about("ev-repeat", "api-0", "Pulled").size(), 1u);

  // A different message is a different event.
  recorder_->event(ref, kEventTypeNormal, "Pulled", "Successfully pulled image");
  ASSERT_TRUE(integration::eventually_ok(
      [&] { return events_about("ev-repeat", "api-0", "Pulled").size() == 2; }));
}

TEST_F(EventRecorderIntegrationTest, KubectlGetEventsShowsIt) {
  integration::ensure_namespace(*cs_, "ev-kubectl");
  const ObjectReference ref = make_pod("ev-kubectl", "db-0");
  recorder_->event(ref, kEventTypeNormal, "Scheduled", "Successfully assigned ev-kubectl/db-0");
  recorder_->event(ref, kEventTypeNormal, "Scheduled", "Successfully assigned ev-kubectl/db-0");
  ASSERT_TRUE(integration::eventually_ok([&] {
    auto found = events_about("ev-kubectl", "db-0", "Scheduled");
    return found.size() == 1 && found.front().at("count") == json::value(2);
  }));

  const e2e::Kubectl kubectl(*cluster_);
  auto r = kubectl({"get", "events", "-n", "ev-kubectl"});
  ASSERT_EQ(r.exit_code, 0) << e2e::describe(r);
  EXPECT_NE(r.out.find("LAST SEEN"), std::string::npos) << r.out;
  bool row = false;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    row |= line.find("Normal") != std::string::npos &&
           line.find("Scheduled") != std::string::npos &&
           line.find("pod/db-0") != std::string::npos &&
           line.find("Successfully assigned ev-kubectl/db-0") != std::string::npos;
  }
  EXPECT_TRUE(row) << r.out;

  auto wide = kubectl({"get", "events", "-n", "ev-kubectl", "-o", "wide"});
  ASSERT_EQ(wide.exit_code, 0) << e2e::describe(wide);
  EXPECT_NE(wide.out.find("kcm-integration, test-host"), std::string::npos) << wide.out;
}

}  // namespace
}  // namespace kcm::record
