#include "cache/reflector.h"

#include <gtest/gtest.h>

#include <thread>

#include "test_util.h"

namespace kcm::cache {
namespace {

using testing::eventually;
using testing::FakeApiServer;
using testing::make_object;

// Applies what the reflector writes to a map, and logs the operations.
class RecordingStore : public ReflectorStore {
 public:
  void add(ObjectPtr o) override { put("add", std::move(o)); }
  void update(ObjectPtr o) override { put("update", std::move(o)); }
  void remove(ObjectPtr o) override {
    std::lock_guard l(mu_);
    ops_.push_back("delete " + std::string(o->key()));
    state_.erase(std::string(o->key()));
  }
  void replace(std::vector<ObjectPtr> objs, const std::string& rv) override {
    std::lock_guard l(mu_);
    ops_.push_back("replace " + std::to_string(objs.size()) + " @" + rv);
    state_.clear();
    for (auto& o : objs)
      state_[std::string(o->key())] = std::string(o->resource_version());
  }
  void resync() override {
    std::lock_guard l(mu_);
    ++resyncs_;
  }
  std::map<std::string, std::string> state() const {
    std::lock_guard l(mu_);
    return state_;
  }
  std::vector<std::string> ops() const {
    std::lock_guard l(mu_);
    return ops_;
  }
  int resyncs() const {
    std::lock_guard l(mu_);
    return resyncs_;
  }
  std::size_t count(std::string_view prefix) const {
    std::lock_guard l(mu_);
    std::size_t n = 0;
    for (const auto& op : ops_)
      n += op.starts_with(prefix);
    return n;
  }

 private:
  void put(const char* op, ObjectPtr o) {
    std::lock_guard l(mu_);
    ops_.push_back(std::string(op) + " " + std::string(o->key()));
    state_[std::string(o->key())] = std::string(o->resource_version());
  }
  mutable std::mutex mu_;
  std::map<std::string, std::string> state_;
  std::vector<std::string> ops_;
  int resyncs_ = 0;
};

std::map<std::string, std::string> server_state(const FakeApiServer& s) {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : s.objects()) {
    out[k] = std::string(v.at("metadata").at("resourceVersion").as_string());
  }
  return out;
}

ReflectorOptions fast_reflector_options() {
  ReflectorOptions o;
  o.name = "test";
  o.type_description = "*v1.Pod";
  o.backoff.initial = std::chrono::milliseconds(1);
  o.backoff.cap = std::chrono::milliseconds(5);
  o.watch_error_handler = [](const api::Status&) {};
  return o;
}

struct Running {
  Running(FakeApiServer& s, RecordingStore& st, ReflectorOptions o)
      : reflector(s, st, std::move(o)), thread([this](std::stop_token t) { reflector.run(t); }) {}
  ~Running() {
    thread.request_stop();
    thread.join();
  }
  Reflector reflector;
  std::jthread thread;
};

TEST(ReflectorTest, ListsInPagesThenWatches) {
  FakeApiServer server;
  for (int i = 0; i < 1200; ++i)
    server.create(make_object("ns", "p" + std::to_string(i)));
  RecordingStore store;
  Running r(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));

  const auto lists = server.list_calls();
  ASSERT_EQ(lists.size(), 3u);
  EXPECT_EQ(lists[0].resource_version, "0");
  EXPECT_EQ(lists[0].limit, 500);
  EXPECT_EQ(lists[0].continue_token, "");
  EXPECT_EQ(lists[1].resource_version, "");  // a continued list names no RV
  EXPECT_EQ(lists[1].limit, 500);
  EXPECT_FALSE(lists[1].continue_token.empty());
  EXPECT_FALSE(lists[2].continue_token.empty());
  EXPECT_EQ(store.ops().front(), "replace 1200 @1300");
  EXPECT_EQ(store.state().size(), 1200u);

  const auto watches = server.watch_calls();
  ASSERT_EQ(watches.size(), 1u);
  EXPECT_EQ(watches[0].resource_version, "1300");
  EXPECT_TRUE(watches[0].allow_watch_bookmarks);
  ASSERT_TRUE(watches[0].timeout_seconds);
  EXPECT_GE(*watches[0].timeout_seconds, 300);
  EXPECT_LT(*watches[0].timeout_seconds, 600);
  EXPECT_FALSE(watches[0].send_initial_events.has_value());

  server.create(make_object("ns", "late"));
  server.update(make_object("ns", "p1"));
  server.remove("ns", "p2");
  ASSERT_TRUE(eventually([&] { return store.state() == server_state(server); }));
  EXPECT_EQ(r.reflector.last_sync_resource_version(), "1303");
}

TEST(ReflectorTest, BookmarksAdvanceTheResourceVersion) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  RecordingStore store;
  Running r(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  EXPECT_EQ(r.reflector.last_sync_resource_version(), "101");
  // Another resource's writes move the server's RV without events here: a
  // bookmark carries the new RV, and nothing reaches the store.
  const auto ops = store.ops().size();
  FakeApiServer& s = server;
  for (int i = 0; i < 3; ++i) {
    s.create(make_object("other", "x" + std::to_string(i)));
  }
  ASSERT_TRUE(eventually([&] { return store.ops().size() == ops + 3; }));
  s.send_bookmark();
  ASSERT_TRUE(eventually([&] { return r.reflector.last_sync_resource_version() == "104"; }));
  EXPECT_EQ(store.ops().size(), ops + 3);
}

TEST(ReflectorTest, ExpiredWatchRelistsFromTheLastResourceVersion) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  RecordingStore store;
  Running r(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  server.create(make_object("ns", "b"));  // rv 102, seen by the watch
  ASSERT_TRUE(eventually([&] { return store.state().size() == 2; }));

  // The watch drops, and meanwhile history is compacted: the re-watch gets 410.
  server.break_watches(api::service_unavailable("connection reset by peer"));
  server.remove("ns", "a");
  server.compact();
  ASSERT_TRUE(eventually([&] { return store.count("replace") == 2; }));
  ASSERT_TRUE(eventually([&] { return store.state() == server_state(server); }));
  const auto lists = server.list_calls();
  // After a broken watch the re-list uses the last RV (unpaged, for the watch cache).
  ASSERT_GE(lists.size(), 2u);
  EXPECT_EQ(lists[1].resource_version, "102");
  EXPECT_EQ(lists[1].limit, 0);
  // The 410 on the re-watch re-lists again, still at the last RV.
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
}

TEST(ReflectorTest, ExpiredWatchEventRelists) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  RecordingStore store;
  Running r(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  server.send_bookmark();  // an event, so the close below is not a "very short watch"
  ASSERT_TRUE(eventually([&] { return r.reflector.last_sync_resource_version() == "101"; }));
  // Unseen by the watch: a write, then compaction past it. The clean close
  // re-watches from 101, which is compacted: an ERROR 410 event ends that
  // watch, and a re-list at the last RV follows.
  server.set_partitioned(true);
  server.create(make_object("ns", "b"));
  server.compact();
  server.close_watches();
  server.set_partitioned(false);
  ASSERT_TRUE(eventually([&] { return server.list_calls().size() == 2; }));
  EXPECT_EQ(server.list_calls()[1].resource_version, "101");
  ASSERT_TRUE(eventually([&] { return store.state() == server_state(server); }));
  EXPECT_EQ(store.count("replace"), 2u);
}

TEST(ReflectorTest, NormalCloseRewatchesWithoutRelist) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  RecordingStore store;
  Running r(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  server.create(make_object("ns", "b"));
  ASSERT_TRUE(eventually([&] { return store.state().size() == 2; }));
  server.close_watches();
  ASSERT_TRUE(eventually([&] { return server.watch_calls().size() == 2; }));
  EXPECT_EQ(server.watch_calls()[1].resource_version, "102");
  EXPECT_EQ(server.list_calls().size(), 1u);
  server.create(make_object("ns", "c"));
  ASSERT_TRUE(eventually([&] { return store.state() == server_state(server); }));
}

TEST(ReflectorTest, VeryShortWatchRelists) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  RecordingStore store;
  Running r(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  // Closed within a second with no event: treated as an error, so a re-list.
  server.close_watches();
  ASSERT_TRUE(eventually([&] { return server.list_calls().size() >= 2; }));
}

TEST(ReflectorTest, ListErrorsRetryWithBackoff) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  server.fail_next_lists(api::internal_error("etcd unavailable"), 2);
  RecordingStore store;
  std::vector<std::string> errors;
  std::mutex mu;
  ReflectorOptions o = fast_reflector_options();
  o.watch_error_handler = [&](const api::Status& s) {
    std::lock_guard l(mu);
    errors.push_back(s.message);
  };
  Running r(server, store, o);
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  EXPECT_EQ(server.list_calls().size(), 3u);
  std::lock_guard l(mu);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "failed to list *v1.Pod: Internal error occurred: etcd unavailable");
}

TEST(ReflectorTest, ExpiredListRetriesAtOnceWithQuorumRead) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  server.fail_next_lists(api::gone("too old resource version"), 1);
  RecordingStore store;
  Running r(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  const auto lists = server.list_calls();
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[0].resource_version, "0");
  EXPECT_EQ(lists[1].resource_version, "");
}

TEST(ReflectorTest, ExpiredContinueFallsBackToOneFullList) {
  FakeApiServer server;
  for (int i = 0; i < 3; ++i)
    server.create(make_object("ns", "p" + std::to_string(i)));
  RecordingStore store;
  ReflectorOptions o = fast_reflector_options();
  o.page_size = 2;
  // The first page is served; then its continue token expires.
  struct ExpiringLw : ListerWatcher {
    FakeApiServer& s;
    explicit ExpiringLw(FakeApiServer& s) : s(s) {}
    Result<ListPage, api::Status> list(const client::ListOptions& opt) override {
      auto r = s.list(opt);
      if (opt.continue_token.empty() && opt.limit != 0) s.expire_continue_tokens();
      return r;
    }
    Result<std::unique_ptr<client::WatchStream>, api::Status> watch(
        const client::ListOptions& opt) override {
      return s.watch(opt);
    }
  } lw(server);
  Reflector reflector(lw, store, o);
  std::jthread t([&](std::stop_token st) { reflector.run(st); });
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  const auto lists = server.list_calls();
  ASSERT_EQ(lists.size(), 3u);
  EXPECT_EQ(lists[2].limit, 0);
  EXPECT_EQ(lists[2].continue_token, "");
  EXPECT_EQ(lists[2].resource_version, "0");
  EXPECT_EQ(store.ops().front(), "replace 3 @103");
}

TEST(ReflectorTest, TooLargeResourceVersionRelistsWithQuorumRead) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  RecordingStore store;
  Running r(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  api::Status too_large = api::timeout("Too large resource version: 999, current: 101", 1);
  server.fail_next_lists(too_large, 1);
  server.break_watches(api::internal_error("stream error"));
  ASSERT_TRUE(eventually([&] { return server.list_calls().size() == 3; }));
  EXPECT_EQ(server.list_calls()[1].resource_version, "101");
  EXPECT_EQ(server.list_calls()[2].resource_version, "");
}

TEST(ReflectorTest, TooManyRequestsOnWatchBacksOffAndRewatches) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  server.fail_next_watches(api::too_many_requests("slow down", 1), 2);
  RecordingStore store;
  Running r(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  EXPECT_EQ(server.watch_calls().size(), 3u);
  EXPECT_EQ(server.list_calls().size(), 1u);
}

TEST(ReflectorTest, StreamingInitialList) {
  FakeApiServer server;
  for (int i = 0; i < 5; ++i)
    server.create(make_object("ns", "p" + std::to_string(i)));
  RecordingStore store;
  ReflectorOptions o = fast_reflector_options();
  o.use_watch_list = true;
  Running r(server, store, o);
  ASSERT_TRUE(eventually([&] { return store.count("replace") == 1; }));
  EXPECT_EQ(store.ops().front(), "replace 5 @105");
  EXPECT_TRUE(server.list_calls().empty());
  const auto watches = server.watch_calls();
  ASSERT_EQ(watches.size(), 1u);
  EXPECT_EQ(watches[0].send_initial_events, std::optional<bool>(true));
  EXPECT_EQ(watches[0].resource_version_match, "NotOlderThan");
  EXPECT_EQ(watches[0].resource_version, "");
  EXPECT_TRUE(watches[0].allow_watch_bookmarks);
  // The same watch carries on.
  server.create(make_object("ns", "late"));
  ASSERT_TRUE(eventually([&] { return store.state() == server_state(server); }));
  EXPECT_EQ(server.watch_calls().size(), 1u);
  EXPECT_EQ(r.reflector.last_sync_resource_version(), "106");
}

TEST(ReflectorTest, StreamingListFallsBackToList) {
  FakeApiServer server;
  server.set_supports_watch_list(false);
  server.create(make_object("ns", "a"));
  RecordingStore store;
  ReflectorOptions o = fast_reflector_options();
  o.use_watch_list = true;
  Running r(server, store, o);
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  EXPECT_EQ(server.list_calls().size(), 1u);
  EXPECT_EQ(store.ops().front(), "replace 1 @101");
}

TEST(ReflectorTest, ResyncTimerAsksShouldResync) {
  FakeApiServer server;
  server.create(make_object("ns", "a"));
  RecordingStore store;
  std::atomic<int> asked{0};
  ReflectorOptions o = fast_reflector_options();
  o.resync_period = std::chrono::milliseconds(10);
  o.should_resync = [&] { return ++asked % 2 == 0; };
  Running r(server, store, o);
  ASSERT_TRUE(eventually([&] { return store.resyncs() >= 2; }));
  EXPECT_GE(asked.load(), 4);
}

TEST(ReflectorTest, StopEndsABlockedWatch) {
  FakeApiServer server;
  RecordingStore store;
  auto r = std::make_unique<Running>(server, store, fast_reflector_options());
  ASSERT_TRUE(eventually([&] { return server.open_watches() == 1; }));
  r.reset();  // joins: would hang if next() were not interrupted
  EXPECT_EQ(server.open_watches(), 0u);
}

TEST(ReflectorTest, ErrorClasses) {
  EXPECT_TRUE(is_expired_error(api::gone("x")));
  EXPECT_TRUE(is_expired_error(api::expired("x")));
  api::Status bare;
  bare.code = 410;
  bare.reason = "";
  EXPECT_TRUE(is_expired_error(bare));
  EXPECT_FALSE(is_expired_error(api::internal_error("x")));
  EXPECT_TRUE(is_too_large_resource_version_error(
      api::timeout("Too large resource version: 5, current: 3", 1)));
  EXPECT_FALSE(is_too_large_resource_version_error(api::timeout("slow", 1)));
  EXPECT_TRUE(is_too_many_requests(api::too_many_requests("x", 1)));
  EXPECT_TRUE(is_internal_error(api::internal_error("x")));
}

TEST(BackoffTest, DoublesWithJitterUpToTheCap) {
  Backoff::Options o;
  o.initial = std::chrono::milliseconds(800);
  o.cap = std::chrono::seconds(30);
  Backoff b(o);
  std::chrono::nanoseconds base = std::chrono::milliseconds(800);
  for (int i = 0; i < 10; ++i) {
    const auto d = b.next();
    EXPECT_GE(d, base) << i;
    EXPECT_LT(d, 2 * base) << i;
    base = std::min<std::chrono::nanoseconds>(2 * base, std::chrono::seconds(30));
  }
  Backoff::Options no_jitter = o;
  no_jitter.jitter = 0;
  Backoff exact(no_jitter);
  EXPECT_EQ(exact.next(), std::chrono::milliseconds(800));
  EXPECT_EQ(exact.next(), std::chrono::milliseconds(1600));
}

TEST(BackoffTest, ResetsAfterAQuietPeriod) {
  Backoff::Options o;
  o.initial = std::chrono::milliseconds(10);
  o.jitter = 0;
  o.reset_after = std::chrono::milliseconds(30);
  Backoff b(o);
  EXPECT_EQ(b.next(), std::chrono::milliseconds(10));
  EXPECT_EQ(b.next(), std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(b.next(), std::chrono::milliseconds(10));
}

}  // namespace
}  // namespace kcm::cache
