#include "cache/shared_informer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

#include "cache/wait.h"
#include "test_util.h"

namespace kcm::cache {
namespace {

using namespace std::chrono_literals;
using testing::eventually;
using testing::FakeApiServer;
using testing::make_object;

// Records what a handler is told, as text lines.
class Recorder : public ResourceEventHandler {
 public:
  void on_add(const ObjectPtr& obj, bool initial) override {
    push("add " + std::string(obj->key()) + "@" + std::string(obj->resource_version()) +
         (initial ? " initial" : ""));
  }
  void on_update(const ObjectPtr& o, const ObjectPtr& n) override {
    push("update " + std::string(n->key()) + " " + std::string(o->resource_version()) + "->" +
         std::string(n->resource_version()));
  }
  void on_delete(const DeletedObject& obj) override {
    const bool tomb = std::holds_alternative<DeletedFinalStateUnknown>(obj);
    push("delete " + std::string(key_of(obj)) + (tomb ? " tombstone" : ""));
  }
  std::vector<std::string> events() const {
    std::lock_guard l(mu_);
    return events_;
  }
  std::size_t count(std::string_view prefix) const {
    std::lock_guard l(mu_);
    std::size_t n = 0;
    for (const auto& e : events_)
      n += e.starts_with(prefix);
    return n;
  }

 private:
  void push(std::string e) {
    std::lock_guard l(mu_);
    events_.push_back(std::move(e));
  }
  mutable std::mutex mu_;
  std::vector<std::string> events_;
};

SharedInformerOptions fast_informer_options() {
  SharedInformerOptions o;
  o.indexers.emplace(std::string(kNamespaceIndex), meta_namespace_index_func);
  o.reflector.backoff.initial = 1ms;
  o.reflector.backoff.cap = 5ms;
  o.reflector.watch_error_handler = [](const api::Status&) {};
  return o;
}

struct RunningInformer {
  RunningInformer(std::shared_ptr<FakeApiServer> s, SharedInformerOptions o)
      : server(std::move(s)), informer(server, std::move(o)) {}
  void start() {
    thread = std::jthread([this](std::stop_token t) { informer.run(t); });
  }
  ~RunningInformer() {
    thread.request_stop();
    if (thread.joinable()) thread.join();
  }
  std::shared_ptr<FakeApiServer> server;
  SharedIndexInformer informer;
  std::jthread thread;
};

TEST(SharedInformerTest, HandlersSeeTheInitialListThenChanges) {
  auto server = std::make_shared<FakeApiServer>();
  server->create(make_object("ns", "a"));
  server->create(make_object("ns", "b"));
  RunningInformer r(server, fast_informer_options());
  auto rec = std::make_shared<Recorder>();
  auto reg = r.informer.add_event_handler(rec);
  ASSERT_TRUE(reg.ok());
  EXPECT_FALSE(r.informer.has_synced());
  EXPECT_FALSE((*reg)->has_synced());
  r.start();
  std::jthread stopper;
  ASSERT_TRUE(wait_for_cache_sync(
      stopper.get_stop_token(),
      {[&] { return r.informer.has_synced(); }, [&] { return (*reg)->has_synced(); }}));
  EXPECT_EQ(rec->events(),
            (std::vector<std::string>{"add ns/a@101 initial", "add ns/b@102 initial"}));

  server->update(make_object("ns", "a"));
  server->remove("ns", "b");
  server->create(make_object("ns", "c"));
  ASSERT_TRUE(eventually([&] { return rec->events().size() == 5; }));
  EXPECT_EQ(rec->events()[2], "update ns/a 101->103");
  EXPECT_EQ(rec->events()[3], "delete ns/b");
  EXPECT_EQ(rec->events()[4], "add ns/c@105");
  EXPECT_EQ(r.informer.indexer()->size(), 2u);
  EXPECT_EQ(r.informer.last_sync_resource_version(), "105");
}

// A Recorder that declares an interest in deletions only.
class DeletionsOnly : public Recorder {
 public:
  HandlerInterest interest() const override { return {.add = false, .update = false}; }
};

TEST(SharedInformerTest, HandlersGetOnlyTheNotificationsTheyDeclare) {
  auto server = std::make_shared<FakeApiServer>();
  server->create(make_object("ns", "a"));
  RunningInformer r(server, fast_informer_options());
  auto deletions = std::make_shared<DeletionsOnly>();
  auto everything = std::make_shared<Recorder>();
  auto reg = r.informer.add_event_handler(deletions);
  ASSERT_TRUE(reg.ok());
  ASSERT_TRUE(r.informer.add_event_handler(everything).ok());
  r.start();
  ASSERT_TRUE(eventually([&] { return (*reg)->has_synced(); }));
  server->update(make_object("ns", "a"));
  server->create(make_object("ns", "b"));
  server->remove("ns", "a");
  // The other handler saw all four, in order; the deletion came last.
  ASSERT_TRUE(eventually([&] { return everything->events().size() == 4; }));
  ASSERT_TRUE(eventually([&] { return deletions->events().size() == 1; }));
  EXPECT_EQ(deletions->events(), (std::vector<std::string>{"delete ns/a"}));
  // A handler added later is not replayed the cache either.
  auto late = std::make_shared<DeletionsOnly>();
  auto late_reg = r.informer.add_event_handler(late);
  ASSERT_TRUE(late_reg.ok());
  ASSERT_TRUE(eventually([&] { return (*late_reg)->has_synced(); }));
  EXPECT_TRUE(late->events().empty());
}

TEST(EventHandlerFuncsTest, InterestFollowsTheFunctionsThatAreSet) {
  EventHandlerFuncs funcs;
  EXPECT_FALSE(funcs.interest().add || funcs.interest().update || funcs.interest().remove);
  funcs.remove = [](const DeletedObject&) {};
  EXPECT_TRUE(funcs.interest().remove);
  EXPECT_FALSE(funcs.interest().add || funcs.interest().update);
  funcs.add = [](const ObjectPtr&, bool) {};
  funcs.update = [](const ObjectPtr&, const ObjectPtr&) {};
  EXPECT_TRUE(funcs.interest().add && funcs.interest().update && funcs.interest().remove);
}

TEST(SharedInformerTest, MissedDeleteBecomesATombstoneOnRelist) {
  auto server = std::make_shared<FakeApiServer>();
  server->create(make_object("ns", "a"));
  server->create(make_object("ns", "b"));
  RunningInformer r(server, fast_informer_options());
  auto rec = std::make_shared<Recorder>();
  ASSERT_TRUE(r.informer.add_event_handler(rec).ok());
  r.start();
  ASSERT_TRUE(eventually([&] { return r.informer.has_synced() && server->open_watches() == 1; }));
  // Partitioned: the delete reaches no watch, history is compacted, the
  // watch breaks; the reflector re-lists once the partition heals.
  server->set_partitioned(true);
  server->remove("ns", "a");
  server->compact();
  server->break_watches(api::internal_error("unexpected EOF"));
  std::this_thread::sleep_for(20ms);
  server->set_partitioned(false);
  ASSERT_TRUE(eventually([&] { return rec->count("delete") == 1; }));
  EXPECT_EQ(rec->count("delete ns/a tombstone"), 1u);
  // The re-list also re-delivers ns/b; its RV is unchanged, so it is a resync
  // and this handler (no resync) does not get it.
  EXPECT_EQ(rec->count("update"), 0u);
  EXPECT_EQ(r.informer.indexer()->list_keys(), (std::vector<std::string>{"ns/b"}));
}

TEST(SharedInformerTest, LateHandlerGetsTheCurrentObjects) {
  auto server = std::make_shared<FakeApiServer>();
  for (int i = 0; i < 50; ++i)
    server->create(make_object("ns", "p" + std::to_string(i)));
  RunningInformer r(server, fast_informer_options());
  auto early = std::make_shared<Recorder>();
  ASSERT_TRUE(r.informer.add_event_handler(early).ok());
  r.start();
  ASSERT_TRUE(eventually([&] { return r.informer.has_synced(); }));
  auto late = std::make_shared<Recorder>();
  auto reg = r.informer.add_event_handler(late);
  ASSERT_TRUE(reg.ok());
  ASSERT_TRUE(eventually([&] { return (*reg)->has_synced(); }));
  EXPECT_EQ(late->count("add"), 50u);
  EXPECT_EQ(late->count("add ns/p7@108 initial"), 1u);
  server->create(make_object("ns", "new"));
  ASSERT_TRUE(eventually([&] { return late->count("add ns/new@151") == 1; }));
  ASSERT_TRUE(eventually([&] { return early->count("add ns/new@151") == 1; }));
}

TEST(SharedInformerTest, ResyncGoesOnlyToHandlersThatAskForIt) {
  auto server = std::make_shared<FakeApiServer>();
  server->create(make_object("ns", "a"));
  SharedInformerOptions o = fast_informer_options();
  o.resync_period = std::chrono::hours(1);  // an informer without a period cannot resync
  RunningInformer r(server, o);
  auto resyncing = std::make_shared<Recorder>();
  auto quiet = std::make_shared<Recorder>();
  // Below the minimum: raised to 1s (and the check period follows it before start).
  ASSERT_TRUE(r.informer.add_event_handler(resyncing, 10ms).ok());
  ASSERT_TRUE(r.informer.add_event_handler(quiet, 0ms).ok());
  r.start();
  ASSERT_TRUE(eventually([&] { return resyncing->count("update ns/a 101->101") >= 1; }, 5s));
  EXPECT_EQ(quiet->count("update"), 0u);
  EXPECT_EQ(quiet->events(), (std::vector<std::string>{"add ns/a@101 initial"}));
}

TEST(SharedInformerTest, SlowHandlerDoesNotBlockOthers) {
  auto server = std::make_shared<FakeApiServer>();
  RunningInformer r(server, fast_informer_options());
  std::atomic<bool> release{false};
  auto slow = std::make_shared<EventHandlerFuncs>();
  std::atomic<int> slow_seen{0};
  slow->add = [&](const ObjectPtr&, bool) {
    while (!release)
      std::this_thread::sleep_for(1ms);
    ++slow_seen;
  };
  auto fast = std::make_shared<Recorder>();
  ASSERT_TRUE(r.informer.add_event_handler(slow).ok());
  ASSERT_TRUE(r.informer.add_event_handler(fast).ok());
  r.start();
  ASSERT_TRUE(eventually([&] { return server->open_watches() == 1; }));
  for (int i = 0; i < 100; ++i)
    server->create(make_object("ns", "p" + std::to_string(i)));
  ASSERT_TRUE(eventually([&] { return fast->count("add") == 100; }));
  EXPECT_EQ(slow_seen.load(), 0);
  release = true;
  ASSERT_TRUE(eventually([&] { return slow_seen.load() == 100; }));
}

// A Recorder called inline, noting the threads it is called on.
class InlineRecorder : public Recorder {
 public:
  HandlerDelivery delivery() const override { return HandlerDelivery::kInline; }
  void on_add(const ObjectPtr& obj, bool initial) override {
    note_thread();
    Recorder::on_add(obj, initial);
  }
  void on_update(const ObjectPtr& o, const ObjectPtr& n) override {
    note_thread();
    Recorder::on_update(o, n);
  }
  void on_delete(const DeletedObject& obj) override {
    note_thread();
    Recorder::on_delete(obj);
  }
  std::set<std::thread::id> threads() const {
    std::lock_guard l(threads_mu_);
    return threads_;
  }

 private:
  void note_thread() {
    std::lock_guard l(threads_mu_);
    threads_.insert(std::this_thread::get_id());
  }
  mutable std::mutex threads_mu_;
  std::set<std::thread::id> threads_;
};

// A Recorder on its own thread, noting it.
class ThreadNotingRecorder : public Recorder {
 public:
  void on_add(const ObjectPtr& obj, bool initial) override {
    thread = std::this_thread::get_id();
    Recorder::on_add(obj, initial);
  }
  std::atomic<std::thread::id> thread;
};

TEST(SharedInformerTest, InlineHandlerSeesWhatOthersSeeInOrder) {
  auto server = std::make_shared<FakeApiServer>();
  server->create(make_object("ns", "a"));
  RunningInformer r(server, fast_informer_options());
  auto inline_handler = std::make_shared<InlineRecorder>();
  auto threaded = std::make_shared<ThreadNotingRecorder>();
  auto reg = r.informer.add_event_handler(inline_handler);
  ASSERT_TRUE(reg.ok());
  ASSERT_TRUE(r.informer.add_event_handler(threaded).ok());
  r.start();
  ASSERT_TRUE(eventually([&] { return (*reg)->has_synced(); }));
  EXPECT_EQ(inline_handler->events(), (std::vector<std::string>{"add ns/a@101 initial"}));
  for (int i = 0; i < 50; ++i)
    server->create(make_object("ns", "p" + std::to_string(i)));
  server->update(make_object("ns", "a"));
  server->remove("ns", "p3");
  ASSERT_TRUE(eventually([&] { return threaded->events().size() == 53; }));
  ASSERT_TRUE(eventually([&] { return inline_handler->events().size() == 53; }));
  EXPECT_EQ(inline_handler->events(), threaded->events());
  // Never on the test's thread nor on the other handler's own thread.
  const auto threads = inline_handler->threads();
  EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
  EXPECT_EQ(threads.count(threaded->thread.load()), 0u);
}

TEST(SharedInformerTest, LateInlineHandlerIsReplayedTheCacheBeforeRegistrationReturns) {
  auto server = std::make_shared<FakeApiServer>();
  for (int i = 0; i < 5; ++i)
    server->create(make_object("ns", "p" + std::to_string(i)));
  RunningInformer r(server, fast_informer_options());
  r.start();
  ASSERT_TRUE(eventually([&] { return r.informer.has_synced(); }));
  auto late = std::make_shared<InlineRecorder>();
  auto reg = r.informer.add_event_handler(late);
  ASSERT_TRUE(reg.ok());
  // No thread of its own to wait for: replayed by add_event_handler itself.
  EXPECT_EQ(late->count("add"), 5u);
  EXPECT_EQ(late->count("add ns/p2@103 initial"), 1u);
  EXPECT_EQ(late->threads(), std::set<std::thread::id>{std::this_thread::get_id()});
  EXPECT_TRUE((*reg)->has_synced());

  // An inline handler may read the informer's own cache while it is replayed.
  auto reader = std::make_shared<EventHandlerFuncs>();
  std::vector<std::string> found;
  reader->delivery_mode = HandlerDelivery::kInline;
  reader->add = [&](const ObjectPtr& obj, bool) {
    if (r.informer.indexer()->get_by_key(obj->key())) found.emplace_back(obj->key());
  };
  auto reader_reg = r.informer.add_event_handler(reader);
  ASSERT_TRUE(reader_reg.ok());
  EXPECT_EQ(found.size(), 5u);
  ASSERT_TRUE(r.informer.remove_event_handler(*reader_reg).ok());

  ASSERT_TRUE(r.informer.remove_event_handler(*reg).ok());
  auto other = std::make_shared<Recorder>();
  ASSERT_TRUE(r.informer.add_event_handler(other).ok());
  server->create(make_object("ns", "after"));
  ASSERT_TRUE(eventually([&] { return other->count("add ns/after") == 1; }));
  EXPECT_EQ(late->count("add ns/after"), 0u);  // removed: told nothing more
}

TEST(EventHandlerFuncsTest, DeliveryIsTheHandlersOwnThreadUnlessSet) {
  EventHandlerFuncs f;
  EXPECT_EQ(f.delivery(), HandlerDelivery::kOwnThread);
  f.delivery_mode = HandlerDelivery::kInline;
  EXPECT_EQ(f.delivery(), HandlerDelivery::kInline);
}

TEST(SharedInformerTest, StoppedInformerRefusesHandlers) {
  auto server = std::make_shared<FakeApiServer>();
  SharedIndexInformer informer(server, fast_informer_options());
  {
    std::jthread t([&](std::stop_token st) { informer.run(st); });
    ASSERT_TRUE(eventually([&] { return informer.has_synced(); }));
  }
  EXPECT_TRUE(informer.is_stopped());
  auto r = informer.add_event_handler(std::make_shared<Recorder>());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "handler was not added to shared informer because it has stopped already");
  EXPECT_EQ(informer.add_indexers({}).error(), "informer has already started");
  EXPECT_EQ(informer.set_transform(drop_managed_fields).error(), "informer has already started");
}

TEST(SharedInformerTest, RemovedHandlerGetsNothingMore) {
  auto server = std::make_shared<FakeApiServer>();
  RunningInformer r(server, fast_informer_options());
  auto a = std::make_shared<Recorder>();
  auto b = std::make_shared<Recorder>();
  auto ra = r.informer.add_event_handler(a);
  ASSERT_TRUE(r.informer.add_event_handler(b).ok());
  r.start();
  ASSERT_TRUE(eventually([&] { return server->open_watches() == 1; }));
  ASSERT_TRUE(r.informer.remove_event_handler(*ra).ok());
  server->create(make_object("ns", "x"));
  ASSERT_TRUE(eventually([&] { return b->count("add") == 1; }));
  EXPECT_EQ(a->count("add"), 0u);
}

TEST(SharedInformerTest, TransformDropsManagedFields) {
  auto server = std::make_shared<FakeApiServer>();
  auto obj = make_object("ns", "a");
  obj.as_object()["metadata"].as_object()["managedFields"] =
      boost::json::array{boost::json::object{{"manager", "kubectl"}}};
  server->create(obj);
  SharedInformerOptions o = fast_informer_options();
  RunningInformer r(server, o);
  ASSERT_TRUE(r.informer.set_transform(drop_managed_fields).ok());
  r.start();
  ASSERT_TRUE(eventually([&] { return r.informer.has_synced(); }));
  auto cached = r.informer.indexer()->get("ns", "a");
  ASSERT_TRUE(cached);
  EXPECT_EQ(cached->object().at("metadata").as_object().count("managedFields"), 0u);
  EXPECT_EQ(cached->object().at("spec"), obj.at("spec"));
}

// A summary of an object: its metadata.name, read after the transform.
struct NameSummary final : ObjectSummary {
  explicit NameSummary(std::string n) : name(std::move(n)) {}
  std::size_t footprint_bytes() const override { return sizeof(*this) + 16; }
  std::string name;
  bool saw_managed_fields = false;
};

std::shared_ptr<const ObjectSummary> summarize_name(const boost::json::object& obj) {
  const auto& meta = obj.at("metadata").as_object();
  auto s = std::make_shared<NameSummary>(std::string(meta.at("name").as_string()));
  s->saw_managed_fields = meta.contains("managedFields");
  return s;
}

std::shared_ptr<const ObjectSummary> summarize_nothing(const boost::json::object&) {
  return nullptr;
}

TEST(SharedInformerTest, SummarizerRunsOnEveryCachedObjectAfterTheTransform) {
  auto server = std::make_shared<FakeApiServer>();
  auto obj = make_object("ns", "a");
  obj.as_object()["metadata"].as_object()["managedFields"] =
      boost::json::array{boost::json::object{{"manager", "kubectl"}}};
  server->create(obj);
  RunningInformer r(server, fast_informer_options());
  ASSERT_TRUE(r.informer.set_transform(drop_managed_fields).ok());
  ASSERT_TRUE(r.informer.set_summarizer(summarize_name).ok());
  // Two controllers may ask for the same summary; another one is a conflict.
  ASSERT_TRUE(r.informer.set_summarizer(summarize_name).ok());
  EXPECT_EQ(r.informer.set_summarizer(summarize_nothing).error(),
            "informer already keeps another summary");
  r.start();
  ASSERT_TRUE(eventually([&] { return r.informer.has_synced(); }));
  server->create(make_object("ns", "b"));
  ASSERT_TRUE(eventually([&] { return r.informer.indexer()->get("ns", "b") != nullptr; }));
  for (const char* name : {"a", "b"}) {
    auto cached = r.informer.indexer()->get("ns", name);
    ASSERT_TRUE(cached);
    const auto* summary = dynamic_cast<const NameSummary*>(cached->summary().get());
    ASSERT_NE(summary, nullptr) << name;
    EXPECT_EQ(summary->name, name);
    EXPECT_FALSE(summary->saw_managed_fields) << name;
  }
  EXPECT_EQ(r.informer.set_summarizer(summarize_name).ok(), true);
  EXPECT_EQ(r.informer.set_summarizer(summarize_nothing).error(), "informer has already started");
}

TEST(SharedInformerTest, WaitForCacheSyncStops) {
  std::stop_source stop;
  std::thread t([&] {
    std::this_thread::sleep_for(50ms);
    stop.request_stop();
  });
  EXPECT_FALSE(wait_for_named_cache_sync("test", stop.get_token(), {[] { return false; }}));
  t.join();
  EXPECT_TRUE(wait_for_cache_sync(stop.get_token(), {}));
}

}  // namespace
}  // namespace kcm::cache
