#include "local/storage/store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <mutex>
#include <thread>

namespace kcm::local::storage {
namespace {

ObjectPtr make_object(std::string ns, std::string name, std::uint64_t revision,
                      std::vector<std::pair<std::string, std::string>> labels = {}) {
  auto o = std::make_shared<StoredObject>();
  o->namespace_ = std::move(ns);
  o->name = std::move(name);
  o->revision = revision;
  o->labels = std::move(labels);
  o->json = "{\"metadata\":{\"name\":\"" + o->name + "\",\"resourceVersion\":\"" +
            std::to_string(revision) + "\"}}";
  return o;
}

// Commits synchronously (the in-memory store completes at once).
Result<ObjectPtr, StoreError> write(Store& store, ResourceId r, Store::Op op, std::string ns,
                                    std::string name,
                                    std::optional<std::uint64_t> expected = std::nullopt) {
  Result<ObjectPtr, StoreError> out = fail(StoreError::kStorage);
  Store::Write w;
  w.resource = r;
  w.key = object_key(ns, name);
  w.op = op;
  w.expected_revision = expected;
  w.build = [ns, name](std::uint64_t rev) { return make_object(ns, name, rev); };
  store.commit(std::move(w), [&](Result<ObjectPtr, StoreError> res) { out = std::move(res); });
  return out;
}

// For setup steps that must succeed.
void must_write(Store& store, ResourceId r, Store::Op op, std::string ns, std::string name) {
  auto result = write(store, r, op, std::move(ns), std::move(name));
  EXPECT_TRUE(result.ok());
}

class RecordingSink : public WatchSink {
 public:
  void deliver(const Event& e) override {
    std::lock_guard lock(mu);
    events.push_back(e);
  }
  std::vector<std::pair<EventType, std::string>> summary() {
    std::lock_guard lock(mu);
    std::vector<std::pair<EventType, std::string>> out;
    for (const auto& e : events) {
      out.emplace_back(e.type,
                       (e.object ? e.object : e.prev)->name + "@" + std::to_string(e.revision));
    }
    return out;
  }
  std::mutex mu;
  std::vector<Event> events;
};

TEST(StoreTest, RevisionsAreGlobalAndIncreasing) {
  Store store;
  const ResourceId pods = store.resource("core/pods");
  const ResourceId nodes = store.resource("core/nodes");
  auto a = write(store, pods, Store::Op::kCreate, "default", "a");
  auto n = write(store, nodes, Store::Op::kCreate, "", "n1");
  auto b = write(store, pods, Store::Op::kCreate, "default", "b");
  ASSERT_TRUE(a && n && b);
  EXPECT_EQ((*a)->revision, 1u);
  EXPECT_EQ((*n)->revision, 2u);
  EXPECT_EQ((*b)->revision, 3u);
  EXPECT_EQ(store.visible_revision(), 3u);
}

TEST(StoreTest, PreconditionsGiveTheRightErrors) {
  Store store;
  const ResourceId pods = store.resource("core/pods");
  ASSERT_TRUE(write(store, pods, Store::Op::kCreate, "ns", "a"));
  auto dup = write(store, pods, Store::Op::kCreate, "ns", "a");
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error(), StoreError::kAlreadyExists);
  auto missing = write(store, pods, Store::Op::kUpdate, "ns", "zz");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error(), StoreError::kNotFound);
  auto stale = write(store, pods, Store::Op::kUpdate, "ns", "a", 99);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error(), StoreError::kConflict);
  auto fresh = write(store, pods, Store::Op::kUpdate, "ns", "a", 1);
  ASSERT_TRUE(fresh);
  EXPECT_EQ((*fresh)->revision, 2u);
}

TEST(StoreTest, ListsInKeyOrderWithPrefixLimitAndRemaining) {
  Store store;
  const ResourceId pods = store.resource("core/pods");
  for (const char* name : {"c", "a", "b"})
    must_write(store, pods, Store::Op::kCreate, "x", name);
  must_write(store, pods, Store::Op::kCreate, "y", "a");
  Store::ListOptions options;
  options.key_prefix = "x/";
  options.limit = 2;
  auto page = store.list(pods, options);
  ASSERT_TRUE(page);
  ASSERT_EQ(page->items.size(), 2u);
  EXPECT_EQ(page->items[0]->name, "a");
  EXPECT_EQ(page->items[1]->name, "b");
  EXPECT_TRUE(page->more);
  EXPECT_EQ(page->remaining, 1u);
  options.start_after = "x/b";
  auto rest = store.list(pods, options);
  ASSERT_TRUE(rest);
  ASSERT_EQ(rest->items.size(), 1u);
  EXPECT_EQ(rest->items[0]->name, "c");
  EXPECT_FALSE(rest->more);
}

TEST(StoreTest, ListAtAnOlderRevisionIsConsistent) {
  Store store;
  const ResourceId pods = store.resource("core/pods");
  must_write(store, pods, Store::Op::kCreate, "x", "a");  // 1
  must_write(store, pods, Store::Op::kCreate, "x", "b");  // 2
  must_write(store, pods, Store::Op::kUpdate, "x", "a");  // 3
  must_write(store, pods, Store::Op::kDelete, "x", "b");  // 4
  must_write(store, pods, Store::Op::kCreate, "x", "c");  // 5
  Store::ListOptions options;
  options.at_revision = 2;
  auto old = store.list(pods, options);
  ASSERT_TRUE(old);
  ASSERT_EQ(old->items.size(), 2u);
  EXPECT_EQ(old->items[0]->name, "a");
  EXPECT_EQ(old->items[0]->revision, 1u);
  EXPECT_EQ(old->items[1]->name, "b");
  auto now = store.list(pods, {});
  ASSERT_TRUE(now);
  ASSERT_EQ(now->items.size(), 2u);
  EXPECT_EQ(now->items[0]->revision, 3u);
  EXPECT_EQ(now->items[1]->name, "c");
}

TEST(StoreTest, WatchReplaysHistoryThenFollowsLiveEvents) {
  Store store;
  const ResourceId pods = store.resource("core/pods");
  must_write(store, pods, Store::Op::kCreate, "x", "a");  // 1
  must_write(store, pods, Store::Op::kUpdate, "x", "a");  // 2
  auto sink = std::make_shared<RecordingSink>();
  Store::WatchOptions options;
  options.resource = pods;
  options.from_revision = 1;
  auto handle = store.watch(options, sink);
  ASSERT_TRUE(handle);
  must_write(store, pods, Store::Op::kDelete, "x", "a");  // 3
  must_write(store, pods, Store::Op::kCreate, "z", "b");  // 4
  using P = std::pair<EventType, std::string>;
  EXPECT_EQ(sink->summary(), (std::vector<P>{{EventType::kModified, "a@2"},
                                             {EventType::kDeleted, "a@3"},
                                             {EventType::kAdded, "b@4"}}));
}

TEST(StoreTest, WatchFromZeroStartsWithSyntheticAdds) {
  Store store;
  const ResourceId pods = store.resource("core/pods");
  must_write(store, pods, Store::Op::kCreate, "x", "a");
  must_write(store, pods, Store::Op::kCreate, "y", "b");
  auto sink = std::make_shared<RecordingSink>();
  Store::WatchOptions options;
  options.resource = pods;
  options.key_prefix = "x/";
  options.initial_state = true;
  auto handle = store.watch(options, sink);
  ASSERT_TRUE(handle);
  must_write(store, pods, Store::Op::kUpdate, "x", "a");
  must_write(store, pods, Store::Op::kUpdate, "y", "b");
  using P = std::pair<EventType, std::string>;
  EXPECT_EQ(sink->summary(),
            (std::vector<P>{{EventType::kAdded, "a@1"}, {EventType::kModified, "a@3"}}));
}

TEST(StoreTest, CompactedHistoryExpiresOldWatchesAndLists) {
  StoreOptions options;
  options.history_per_resource = 2;
  Store store(options);
  const ResourceId pods = store.resource("core/pods");
  for (int i = 0; i < 5; ++i)
    must_write(store, pods, Store::Op::kCreate, "x", "p" + std::to_string(i));
  Store::WatchOptions w;
  w.resource = pods;
  w.from_revision = 1;
  auto too_old = store.watch(w, std::make_shared<RecordingSink>());
  ASSERT_FALSE(too_old);
  EXPECT_EQ(too_old.error(), StoreError::kExpired);
  w.from_revision = 3;
  EXPECT_TRUE(store.watch(w, std::make_shared<RecordingSink>()));
  store.compact_history();
  EXPECT_FALSE(store.watch(w, std::make_shared<RecordingSink>()));
  Store::ListOptions l;
  l.at_revision = 3;
  EXPECT_FALSE(store.list(pods, l));
}

TEST(StoreTest, UnregisteredWatchersGetNothing) {
  Store store;
  const ResourceId pods = store.resource("core/pods");
  auto sink = std::make_shared<RecordingSink>();
  {
    Store::WatchOptions w;
    w.resource = pods;
    auto handle = store.watch(w, sink);
    ASSERT_TRUE(handle);
    must_write(store, pods, Store::Op::kCreate, "x", "a");
  }
  must_write(store, pods, Store::Op::kCreate, "x", "b");
  EXPECT_EQ(sink->summary().size(), 1u);
  EXPECT_EQ(store.stats().watchers, 0u);
}

class PersistentStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kcm-store-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static Result<ObjectPtr> factory(std::string_view, std::string json) {
    // The test objects carry their name and revision in the JSON.
    auto o = std::make_shared<StoredObject>();
    const auto name_at = json.find("\"name\":\"") + 8;
    o->name = json.substr(name_at, json.find('"', name_at) - name_at);
    const auto rv_at = json.find("\"resourceVersion\":\"") + 19;
    o->revision = std::stoull(json.substr(rv_at));
    o->namespace_ = "x";
    o->json = std::move(json);
    return ObjectPtr(std::move(o));
  }

  std::filesystem::path dir_;
};

Result<ObjectPtr, StoreError> write_async(Store& store, ResourceId r, Store::Op op,
                                          std::string name) {
  std::promise<Result<ObjectPtr, StoreError>> done;
  Store::Write w;
  w.resource = r;
  w.key = object_key("x", name);
  w.op = op;
  w.build = [name](std::uint64_t rev) { return make_object("x", name, rev); };
  store.commit(std::move(w),
               [&](Result<ObjectPtr, StoreError> res) { done.set_value(std::move(res)); });
  return done.get_future().get();
}

// What a writer that lost a conflict relies on: once when_visible() calls
// back, a read shows the write it lost to.
TEST_F(PersistentStoreTest, WhenVisibleCallsBackOnceTheWriteCanBeRead) {
  StoreOptions options;
  options.fsync = true;  // a longer window in which the write is not visible
  auto store = Store::open(dir_, options, factory, nullptr);
  ASSERT_TRUE(store) << store.error();
  const ResourceId pods = (*store)->resource("core/pods");
  ASSERT_TRUE(write_async(**store, pods, Store::Op::kCreate, "a"));

  for (int i = 0; i < 20; ++i) {
    std::promise<void> durable;
    Store::Write w;
    w.resource = pods;
    w.key = object_key("x", "a");
    w.op = Store::Op::kUpdate;
    w.build = [](std::uint64_t rev) { return make_object("x", "a", rev); };
    (*store)->commit(std::move(w), [&](Result<ObjectPtr, StoreError>) { durable.set_value(); });
    const std::uint64_t latest = (*store)->latest_revision();
    std::promise<std::uint64_t> seen;
    (*store)->when_visible(latest, [&] { seen.set_value((*store)->get(pods, "x/a")->revision); });
    EXPECT_EQ(seen.get_future().get(), latest);
    durable.get_future().get();
  }
  // Already visible: at once, on the caller's thread.
  bool ran = false;
  (*store)->when_visible((*store)->visible_revision(), [&] { ran = true; });
  EXPECT_TRUE(ran);
}

TEST_F(PersistentStoreTest, ReopenRecoversObjectsRevisionAndHistory) {
  StoreOptions options;
  options.fsync = false;
  {
    auto store = Store::open(dir_, options, factory, nullptr);
    ASSERT_TRUE(store) << store.error();
    const ResourceId pods = (*store)->resource("core/pods");
    ASSERT_TRUE(write_async(**store, pods, Store::Op::kCreate, "a"));
    ASSERT_TRUE(write_async(**store, pods, Store::Op::kCreate, "b"));
    ASSERT_TRUE(write_async(**store, pods, Store::Op::kUpdate, "a"));
    ASSERT_TRUE(write_async(**store, pods, Store::Op::kDelete, "b"));
  }
  auto store = Store::open(dir_, options, factory, nullptr);
  ASSERT_TRUE(store) << store.error();
  const ResourceId pods = (*store)->resource("core/pods");
  EXPECT_EQ((*store)->visible_revision(), 4u);
  ObjectPtr a = (*store)->get(pods, "x/a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->revision, 3u);
  EXPECT_FALSE((*store)->get(pods, "x/b"));
  // History survives: a watch from revision 1 replays the rest.
  auto sink = std::make_shared<RecordingSink>();
  Store::WatchOptions w;
  w.resource = pods;
  w.from_revision = 1;
  auto handle = (*store)->watch(w, sink);
  ASSERT_TRUE(handle);
  using P = std::pair<EventType, std::string>;
  EXPECT_EQ(sink->summary(), (std::vector<P>{{EventType::kAdded, "b@2"},
                                             {EventType::kModified, "a@3"},
                                             {EventType::kDeleted, "b@4"}}));
  // New writes continue the sequence.
  auto c = write_async(**store, pods, Store::Op::kCreate, "c");
  ASSERT_TRUE(c);
  EXPECT_EQ((*c)->revision, 5u);
}

TEST_F(PersistentStoreTest, ConcurrentWritersLoseNothingAcrossReopenWithCompaction) {
  StoreOptions options;
  options.fsync = false;
  options.compact_log_after_bytes = 4096;  // force several snapshots
  constexpr int kThreads = 4;
  constexpr int kPerThread = 200;
  {
    auto store = Store::open(dir_, options, factory, nullptr);
    ASSERT_TRUE(store) << store.error();
    const ResourceId pods = (*store)->resource("core/pods");
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kPerThread; ++i) {
          ASSERT_TRUE(write_async(**store, pods, Store::Op::kCreate,
                                  "p" + std::to_string(t) + "-" + std::to_string(i)));
        }
      });
    }
    for (auto& th : threads)
      th.join();
  }
  auto store = Store::open(dir_, options, factory, nullptr);
  ASSERT_TRUE(store) << store.error();
  const ResourceId pods = (*store)->resource("core/pods");
  auto all = (*store)->list(pods, {});
  ASSERT_TRUE(all);
  EXPECT_EQ(all->items.size(), static_cast<std::size_t>(kThreads * kPerThread));
  EXPECT_EQ((*store)->visible_revision(), static_cast<std::uint64_t>(kThreads * kPerThread));
}

}  // namespace
}  // namespace kcm::local::storage
