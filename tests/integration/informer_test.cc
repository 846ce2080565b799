// Shared informers over the client's resource clients against a running
// kcm-local: the cache and a handler's mirror of the events stay exactly in
// sync with the server under concurrent writers, after 410 Gone re-lists,
// and across a crash and restart of the server.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "cache/informer_factory.h"
#include "cache/lister.h"
#include "integration_env.h"

namespace kcm::cache {
namespace {

namespace json = boost::json;
using integration::kSlowdown;
using integration::string_at;
using std::chrono::milliseconds;
using std::chrono::seconds;
using std::chrono::steady_clock;

const api::GroupVersionResource kPods{"", "v1", "pods"};

// What must agree between the server, the cache and a handler's mirror.
struct Entry {
  std::string resource_version;
  std::map<std::string, std::string> labels;
  friend bool operator==(const Entry&, const Entry&) = default;
};
using State = std::map<std::string, Entry>;  // by "namespace/name"

Entry entry_of(const CachedObject& obj) {
  Entry e{std::string(obj.resource_version()), {}};
  for (std::size_t i = 0; i < obj.label_count(); ++i) {
    auto [k, v] = obj.label(i);
    e.labels.emplace(k, v);
  }
  return e;
}

Entry entry_of(const json::value& obj) {
  Entry e{string_at(obj, {"metadata", "resourceVersion"}), {}};
  if (const auto* labels = api::find_path(obj, {"metadata", "labels"});
      labels != nullptr && labels->is_object()) {
    for (const auto& [k, v] : labels->get_object())
      e.labels.emplace(k, api::as_string_view(&v));
  }
  return e;
}

std::string describe(const State& s) {
  std::ostringstream out;
  for (const auto& [key, e] : s) {
    out << "  " << key << " rv=" << e.resource_version << " {";
    for (const auto& [k, v] : e.labels)
      out << k << "=" << v << ",";
    out << "}\n";
  }
  return out.str();
}

std::string diff(const State& want, const State& got) {
  std::ostringstream out;
  for (const auto& [key, e] : want) {
    auto it = got.find(key);
    if (it == got.end()) {
      out << "  missing " << key << "\n";
    } else if (!(it->second == e)) {
      out << "  differs " << key << ": want rv " << e.resource_version << ", got rv "
          << it->second.resource_version << "\n";
    }
  }
  for (const auto& [key, e] : got) {
    if (want.count(key) == 0) out << "  extra " << key << " rv " << e.resource_version << "\n";
  }
  return out.str();
}

// Builds its own copy of the cache from the notifications alone, and notes
// every notification that does not fit what it was told before.
class Mirror : public ResourceEventHandler {
 public:
  void on_add(const ObjectPtr& obj, bool) override {
    std::lock_guard lock(mu_);
    ++events_;
    if (state_.count(std::string(obj->key())) != 0)
      error("add of known " + std::string(obj->key()));
    state_[std::string(obj->key())] = entry_of(*obj);
  }
  void on_update(const ObjectPtr& old_obj, const ObjectPtr& new_obj) override {
    std::lock_guard lock(mu_);
    ++events_;
    const std::string key(new_obj->key());
    auto it = state_.find(key);
    if (it == state_.end()) {
      error("update of unknown " + key);
    } else if (it->second.resource_version != old_obj->resource_version()) {
      error("update of " + key + ": old rv " + std::string(old_obj->resource_version()) +
            ", mirror has " + it->second.resource_version);
    }
    state_[key] = entry_of(*new_obj);
  }
  void on_delete(const DeletedObject& obj) override {
    std::lock_guard lock(mu_);
    ++events_;
    const std::string key(key_of(obj));
    if (std::holds_alternative<DeletedFinalStateUnknown>(obj)) ++tombstones_;
    if (state_.erase(key) == 0) error("delete of unknown " + key);
  }

  State state() const {
    std::lock_guard lock(mu_);
    return state_;
  }
  std::vector<std::string> errors() const {
    std::lock_guard lock(mu_);
    return errors_;
  }
  int events() const {
    std::lock_guard lock(mu_);
    return events_;
  }
  int tombstones() const {
    std::lock_guard lock(mu_);
    return tombstones_;
  }

 private:
  void error(std::string e) {
    if (errors_.size() < 20) errors_.push_back(std::move(e));
  }
  mutable std::mutex mu_;
  State state_;
  std::vector<std::string> errors_;
  int events_ = 0;
  int tombstones_ = 0;
};

// A ListerWatcher the test can take down: while down, the open watches end
// and new lists and watches fail as if the server refused the connection.
// It also counts lists and the 410s its watches delivered.
class GatedListerWatcher : public ListerWatcher {
 public:
  explicit GatedListerWatcher(std::shared_ptr<ListerWatcher> inner) : inner_(std::move(inner)) {}

  Result<ListPage, api::Status> list(const client::ListOptions& options) override {
    if (down_) return fail(refused());
    ++lists_;
    return inner_->list(options);
  }
  Result<std::unique_ptr<client::WatchStream>, api::Status> watch(
      const client::ListOptions& options) override {
    if (down_) return fail(refused());
    auto w = inner_->watch(options);
    if (!w.ok()) return w;
    auto gated = std::make_unique<Stream>(*this, std::move(*w));
    std::lock_guard lock(mu_);
    if (down_) {
      gated->inner->stop();
    } else {
      open_.insert(gated.get());
    }
    return std::unique_ptr<client::WatchStream>(std::move(gated));
  }

  void take_down() {
    std::lock_guard lock(mu_);
    down_ = true;
    for (Stream* s : open_)
      s->inner->stop();
  }
  // New lists and watches are refused; open watches go on (until the server
  // ends them).
  void refuse_new_calls() { down_ = true; }
  void bring_up() { down_ = false; }
  int lists() const { return lists_; }
  int expired() const { return expired_; }
  std::size_t open_watches() const {
    std::lock_guard lock(mu_);
    return open_.size();
  }

 private:
  struct Stream : client::WatchStream {
    Stream(GatedListerWatcher& g, std::unique_ptr<client::WatchStream> w)
        : gate(g), inner(std::move(w)) {}
    ~Stream() override {
      std::lock_guard lock(gate.mu_);
      gate.open_.erase(this);
    }
    Result<std::optional<client::WatchEvent>, api::Status> next() override {
      auto e = inner->next();
      if (e.ok() && e->has_value() && (*e)->type == client::WatchEventType::kError &&
          api::Status::from_json((*e)->object).code == 410) {
        ++gate.expired_;
      }
      return e;
    }
    void stop() override { inner->stop(); }
    GatedListerWatcher& gate;
    std::unique_ptr<client::WatchStream> inner;
  };

  static api::Status refused() {
    return client::client_error("dial tcp 127.0.0.1:1: connect: connection refused");
  }

  std::shared_ptr<ListerWatcher> inner_;
  std::atomic<bool> down_{false};
  std::atomic<int> lists_{0};
  std::atomic<int> expired_{0};
  mutable std::mutex mu_;
  std::set<Stream*> open_;
};

json::value pod(const std::string& ns, const std::string& name,
                const std::map<std::string, std::string>& labels) {
  json::object l;
  for (const auto& [k, v] : labels)
    l[k] = v;
  json::object meta{{"name", name}, {"namespace", ns}, {"labels", std::move(l)}};
  return json::object{
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", std::move(meta)},
      {"spec",
       json::object{{"containers", json::array{json::object{{"name", "c"}, {"image", "busybox"}}}},
                    {"terminationGracePeriodSeconds", 0}}}};
}

class InformerIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    e2e::LocalCluster::Options options;
    // Small, so that a watch down for a few dozen changes must re-list.
    options.extra_args = {"--watch-history", "40"};
    cluster_ = new e2e::LocalCluster(options);
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  void SetUp() override {
    cs_ = integration::clientset_for(*cluster_);
    ASSERT_NE(cs_, nullptr);
  }
  void TearDown() override {
    if (factory_) factory_->shutdown();
  }

  // A factory over the clientset for namespace `ns`; every lister-watcher it
  // makes goes through a gate the test can take down.
  // `watch_list`: the initial list streams over a watch (sendInitialEvents).
  // `selector`: a label selector on every list and watch (the factory's tweak).
  void start_informer(const std::string& ns, bool watch_list = false,
                      const std::string& selector = "") {
    ns_ = ns;
    selector_ = selector;
    SharedInformerFactoryOptions options;
    if (!selector.empty()) {
      options.tweak_list_options = [selector](client::ListOptions& o) {
        o.label_selector = selector;
      };
    }
    options.informer.reflector.use_watch_list = watch_list;
    options.namespace_ = ns;
    options.transform = drop_managed_fields;
    // Quick retries, so that recovery does not wait out upstream's 30s cap.
    options.informer.reflector.backoff.initial = milliseconds(100);
    options.informer.reflector.backoff.cap = seconds(2);
    auto cs = cs_;
    auto gates = &gates_;
    factory_ = std::make_unique<SharedInformerFactory>(
        [cs, gates](const api::GroupVersionResource& gvr, const std::string& n) {
          auto gate = std::make_shared<GatedListerWatcher>(
              std::make_shared<client::ResourceClient>(cs->resource(gvr, n)));
          gates->push_back(gate);
          return gate;
        },
        std::move(options));
    informer_ = factory_->informer_for(kPods);
    auto registration = informer_->add_event_handler(mirror_);
    ASSERT_TRUE(registration.ok()) << registration.error();
    registration_ = *registration;
    factory_->start(stop_.get_token());
    auto synced = factory_->wait_for_cache_sync(stop_.get_token());
    ASSERT_EQ(synced.size(), 1u);
    EXPECT_TRUE(synced.begin()->second);
    ASSERT_TRUE(integration::eventually_ok([&] { return registration_->has_synced(); }));
    ASSERT_EQ(gates_.size(), 1u);
  }

  GatedListerWatcher& gate() { return *gates_.front(); }

  // Takes the informer's watch down once it delivered an event: a watch that
  // ends within a second having delivered nothing counts as failed and makes
  // the reflector re-list at once (upstream's "very short watch"), which
  // would skip the re-watch these tests are about.
  void take_watch_down(const std::string& touched) {
    const std::string rv(informer_->indexer()->get(ns_, touched)->resource_version());
    auto patched = cs_->pods(ns_).patch(touched, client::PatchType::kMerge,
                                        R"({"metadata":{"labels":{"touched":"yes"}}})");
    ASSERT_TRUE(patched.ok()) << patched.error().message;
    ASSERT_TRUE(integration::eventually_ok([&] {
      auto obj = informer_->indexer()->get(ns_, touched);
      return obj && obj->resource_version() != rv;
    }));
    gate().take_down();
    ASSERT_TRUE(integration::eventually_ok([&] { return gate().open_watches() == 0; }));
  }

  // The server's state of the namespace, by a fresh list.
  std::optional<State> server_state() {
    client::ListOptions options;
    options.label_selector = selector_;
    auto list = cs_->pods(ns_).list_all(options);
    if (!list.ok()) return std::nullopt;
    State s;
    for (const auto& item : list->items) {
      s[ns_ + "/" + string_at(item, {"metadata", "name"})] = entry_of(item);
    }
    return s;
  }
  State cache_state() const {
    State s;
    informer_->indexer()->for_each(
        [&](const ObjectPtr& obj) { s[std::string(obj->key())] = entry_of(*obj); });
    return s;
  }

  State lister_state() {
    State s;
    for (const auto& obj :
         factory_->lister_for(kPods).namespace_(ns_).list(api::labels::Selector::everything())) {
      s[std::string(obj->key())] = entry_of(*obj);
    }
    return s;
  }

  // Waits until the server, the cache, the namespace lister (through the
  // namespace index) and the handlers' mirrors agree.
  void expect_converged(const std::vector<std::shared_ptr<Mirror>>& more_mirrors = {}) {
    std::vector<std::shared_ptr<Mirror>> mirrors = {mirror_};
    mirrors.insert(mirrors.end(), more_mirrors.begin(), more_mirrors.end());
    State server, cache, via_lister;
    std::vector<State> mirrored(mirrors.size());
    const bool converged = e2e::eventually(
        [&] {
          auto s = server_state();
          if (!s) return false;
          server = std::move(*s);
          cache = cache_state();
          via_lister = lister_state();
          bool same = cache == server && via_lister == server;
          for (std::size_t i = 0; i < mirrors.size(); ++i) {
            mirrored[i] = mirrors[i]->state();
            same = same && mirrored[i] == server;
          }
          return same;
        },
        seconds(60 * kSlowdown), milliseconds(200));
    std::string diffs = "cache vs server:\n" + diff(server, cache) + "lister vs server:\n" +
                        diff(server, via_lister);
    for (std::size_t i = 0; i < mirrors.size(); ++i) {
      diffs += "mirror " + std::to_string(i) + " vs server:\n" + diff(server, mirrored[i]);
    }
    EXPECT_TRUE(converged) << "server:\n" << describe(server) << diffs;
    for (const auto& m : mirrors)
      EXPECT_EQ(m->errors(), std::vector<std::string>());
  }

  // After a restart of kcm-local: creates, relabels and deletes, and waits
  // for the informer to show it.
  void change_after_restart(const std::string& ns) {
    auto pods = cs_->pods(ns);
    ASSERT_TRUE(integration::eventually_ok([&] { return pods.get("before").ok(); }));
    ASSERT_TRUE(pods.create(pod(ns, "after", {{"v", "1"}})).ok());
    ASSERT_TRUE(
        pods.patch("before", client::PatchType::kMerge, R"({"metadata":{"labels":{"v":"2"}}})")
            .ok());
    client::DeleteOptions now;
    now.grace_period_seconds = 0;
    ASSERT_TRUE(pods.delete_object("gone-after", now).ok());

    expect_converged();
    ASSERT_NE(informer_->indexer()->get(ns, "after"), nullptr);
    EXPECT_EQ(informer_->indexer()->get(ns, "before")->label_value("v"), "2");
    EXPECT_EQ(informer_->indexer()->get(ns, "gone-after"), nullptr);
  }

  static e2e::LocalCluster* cluster_;
  std::shared_ptr<client::Clientset> cs_;
  std::string ns_;
  std::string selector_;
  std::vector<std::shared_ptr<GatedListerWatcher>> gates_;
  std::shared_ptr<Mirror> mirror_ = std::make_shared<Mirror>();
  std::unique_ptr<SharedInformerFactory> factory_;
  std::shared_ptr<SharedIndexInformer> informer_;
  std::shared_ptr<ResourceEventHandlerRegistration> registration_;
  std::stop_source stop_;
};

e2e::LocalCluster* InformerIntegrationTest::cluster_ = nullptr;

// Creates, relabels (merge patch or read-modify-update) and deletes pods
// named w<worker>-<i> until `until`; returns how many writes succeeded.
int churn(client::Clientset& cs, const std::string& ns, int worker, steady_clock::time_point until,
          std::vector<std::string>* failures) {
  std::mt19937 rng(static_cast<unsigned>(worker) * 7919u + 17u);
  constexpr int kNames = 6;
  std::vector<bool> exists(kNames, false);
  auto pods = cs.pods(ns);
  int done = 0;
  int generation = 0;
  auto note = [&](const std::string& what, const api::Status& s) {
    if (failures->size() < 20) failures->push_back(what + ": " + s.message);
  };
  while (steady_clock::now() < until) {
    const int i = static_cast<int>(rng() % kNames);
    const std::string name = "w" + std::to_string(worker) + "-" + std::to_string(i);
    const std::string gen = std::to_string(++generation);
    if (!exists[i]) {
      auto r = pods.create(pod(ns, name, {{"worker", std::to_string(worker)}, {"gen", gen}}));
      if (r.ok()) {
        ++done;
        exists[i] = true;
      } else if (r.error().is(api::reason::kAlreadyExists)) {
        exists[i] = true;
      } else {
        note("create " + name, r.error());
      }
      continue;
    }
    switch (rng() % 4) {
      case 0: {
        client::DeleteOptions now;
        now.grace_period_seconds = 0;
        auto r = pods.delete_object(name, now);
        if (r.ok()) {
          ++done;
          exists[i] = false;
        } else if (r.error().is(api::reason::kNotFound)) {
          exists[i] = false;
        } else {
          note("delete " + name, r.error());
        }
        break;
      }
      case 1:
      case 2: {
        // Sets gen, and adds or removes "odd".
        const std::string odd = generation % 2 == 1 ? R"("yes")" : "null";
        auto r =
            pods.patch(name, client::PatchType::kMerge,
                       R"({"metadata":{"labels":{"gen":")" + gen + R"(","odd":)" + odd + "}}}");
        if (r.ok()) {
          ++done;
        } else if (r.error().is(api::reason::kNotFound)) {
          exists[i] = false;
        } else {
          note("patch " + name, r.error());
        }
        break;
      }
      default: {
        auto got = pods.get(name);
        if (!got.ok()) {
          if (got.error().is(api::reason::kNotFound))
            exists[i] = false;
          else
            note("get " + name, got.error());
          break;
        }
        json::value changed = *got;
        api::ensure_object(api::ensure_object(changed.as_object(), "metadata"), "labels")["gen"] =
            gen;
        auto r = pods.update(changed);
        if (r.ok()) {
          ++done;
        } else if (r.error().is(api::reason::kNotFound)) {
          exists[i] = false;
        } else if (!r.error().is(api::reason::kConflict)) {
          note("update " + name, r.error());
        }
        break;
      }
    }
  }
  return done;
}

TEST_F(InformerIntegrationTest, StaysInSyncWithConcurrentWriters) {
  integration::ensure_namespace(*cs_, "churn");
  // Some objects exist before the informer starts: they come with the initial list.
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(
        cs_->pods("churn").create(pod("churn", "pre-" + std::to_string(i), {{"pre", "yes"}})).ok());
  }
  start_informer("churn");
  EXPECT_EQ(cache_state().size(), 3u);

  constexpr int kWorkers = 4;
  const auto until = steady_clock::now() + seconds(4);
  std::vector<std::thread> workers;
  std::vector<int> done(kWorkers, 0);
  std::vector<std::vector<std::string>> failures(kWorkers);
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      // Each worker has its own connections, as separate controllers would.
      auto cs = integration::clientset_for(*cluster_);
      if (cs) done[w] = churn(*cs, "churn", w, until, &failures[w]);
    });
  }
  // A handler added in the middle of the churn is first replayed the cache,
  // then gets every later change, without a gap or a duplicate.
  std::this_thread::sleep_for(seconds(2));
  auto late = std::make_shared<Mirror>();
  auto late_registration = informer_->add_event_handler(late);
  for (auto& t : workers)
    t.join();
  ASSERT_TRUE(late_registration.ok()) << late_registration.error();
  int total = 0;
  for (int w = 0; w < kWorkers; ++w) {
    total += done[w];
    EXPECT_EQ(failures[w], std::vector<std::string>()) << "worker " << w;
  }
  EXPECT_GE(total, 40) << "the writers hardly wrote anything";
  expect_converged({late});
  EXPECT_TRUE((*late_registration)->has_synced());
  EXPECT_GE(mirror_->events(), total);
}

// An informer of only the pods labelled odd=yes while writers add and remove
// that label: a pod that stops matching must leave the cache (the watch
// reports it DELETED), one that starts matching must enter it.
TEST_F(InformerIntegrationTest, LabelSelectedInformerFollowsLabelChanges) {
  integration::ensure_namespace(*cs_, "selected");
  start_informer("selected", false, "odd=yes");
  constexpr int kWorkers = 2;
  const auto until = steady_clock::now() + seconds(3);
  std::vector<std::thread> workers;
  std::vector<int> done(kWorkers, 0);
  std::vector<std::vector<std::string>> failures(kWorkers);
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      auto cs = integration::clientset_for(*cluster_);
      if (cs) done[w] = churn(*cs, "selected", w, until, &failures[w]);
    });
  }
  for (auto& t : workers)
    t.join();
  for (int w = 0; w < kWorkers; ++w)
    EXPECT_EQ(failures[w], std::vector<std::string>()) << "worker " << w;
  expect_converged();
  for (const auto& [key, entry] : cache_state())
    EXPECT_EQ(entry.labels.count("odd"), 1u) << key;
  // Something entered and something left the selection meanwhile.
  EXPECT_GE(mirror_->events(), 4);
}

// The informer's watch is down while more changes happen than the server
// keeps history for: re-watching from the last resourceVersion gets 410 Gone,
// the informer re-lists and delivers what it missed (deletions as tombstones).
TEST_F(InformerIntegrationTest, RelistsAfterWatchHistoryRanOut) {
  integration::ensure_namespace(*cs_, "history");
  auto pods = cs_->pods("history");
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(pods.create(pod("history", "keep-" + std::to_string(i), {{"n", "0"}})).ok());
  }
  ASSERT_TRUE(pods.create(pod("history", "doomed", {})).ok());
  start_informer("history");
  expect_converged();
  const int lists_before = gate().lists();

  take_watch_down("keep-0");
  ASSERT_TRUE(pods.create(pod("history", "born-while-down", {{"new", "yes"}})).ok());
  client::DeleteOptions now;
  now.grace_period_seconds = 0;
  ASSERT_TRUE(pods.delete_object("doomed", now).ok());
  // More than --watch-history changes of pods.
  for (int round = 1; round <= 15; ++round) {
    for (int i = 0; i < 4; ++i) {
      auto r = pods.patch("keep-" + std::to_string(i), client::PatchType::kMerge,
                          R"({"metadata":{"labels":{"n":")" + std::to_string(round) + R"("}}})");
      ASSERT_TRUE(r.ok()) << r.error().message;
    }
  }
  gate().bring_up();

  expect_converged();
  EXPECT_GE(gate().expired(), 1) << "the re-watch should have been told 410 Gone";
  EXPECT_GT(gate().lists(), lists_before) << "the informer should have re-listed";
  EXPECT_GE(mirror_->tombstones(), 1) << "a deletion missed by the watch comes as a tombstone";
  auto born = informer_->indexer()->get("history", "born-while-down");
  ASSERT_NE(born, nullptr);
  EXPECT_EQ(born->label_value("new"), "yes");
  EXPECT_EQ(informer_->indexer()->get("history", "doomed"), nullptr);
}

// The same after POST /kcm-local/compact dropped the history.
TEST_F(InformerIntegrationTest, RelistsAfterCompaction) {
  integration::ensure_namespace(*cs_, "compact");
  auto pods = cs_->pods("compact");
  ASSERT_TRUE(pods.create(pod("compact", "a", {{"v", "1"}})).ok());
  ASSERT_TRUE(pods.create(pod("compact", "b", {{"v", "1"}})).ok());
  start_informer("compact");
  expect_converged();
  const int lists_before = gate().lists();

  take_watch_down("a");
  ASSERT_TRUE(
      pods.patch("a", client::PatchType::kMerge, R"({"metadata":{"labels":{"v":"2"}}})").ok());
  client::DeleteOptions now;
  now.grace_period_seconds = 0;
  ASSERT_TRUE(pods.delete_object("b", now).ok());
  ASSERT_TRUE(pods.create(pod("compact", "c", {{"v", "1"}})).ok());
  client::Request compact;
  compact.verb = "POST";
  compact.abs_path = "/kcm-local/compact";
  compact.body = "{}";
  auto compacted = cs_->rest()->send(compact);
  ASSERT_TRUE(compacted.ok()) << compacted.error().message;
  gate().bring_up();

  expect_converged();
  EXPECT_GE(gate().expired(), 1) << "the re-watch should have been told 410 Gone";
  EXPECT_GT(gate().lists(), lists_before);
  auto a = informer_->indexer()->get("compact", "a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->label_value("v"), "2");
}

// The streaming initial list (sendInitialEvents=true, ended by the
// k8s.io/initial-events-end bookmark) instead of LIST, at start and after 410.
TEST_F(InformerIntegrationTest, WatchListSyncsAndRecovers) {
  integration::ensure_namespace(*cs_, "watchlist");
  auto pods = cs_->pods("watchlist");
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(pods.create(pod("watchlist", "p" + std::to_string(i), {{"v", "1"}})).ok());
  }
  start_informer("watchlist", true);
  EXPECT_EQ(cache_state().size(), 3u);
  expect_converged();

  take_watch_down("p0");
  ASSERT_TRUE(
      pods.patch("p1", client::PatchType::kMerge, R"({"metadata":{"labels":{"v":"2"}}})").ok());
  client::DeleteOptions now;
  now.grace_period_seconds = 0;
  ASSERT_TRUE(pods.delete_object("p2", now).ok());
  ASSERT_TRUE(pods.create(pod("watchlist", "p3", {{"v", "1"}})).ok());
  client::Request compact;
  compact.verb = "POST";
  compact.abs_path = "/kcm-local/compact";
  compact.body = "{}";
  ASSERT_TRUE(cs_->rest()->send(compact).ok());
  gate().bring_up();

  expect_converged();
  EXPECT_GE(gate().expired(), 1);
  EXPECT_EQ(gate().lists(), 0) << "the reflector fell back to LIST";
  EXPECT_GE(mirror_->tombstones(), 1);
}

// kcm-local crashes (kill -9) and comes back on the same port and data: the
// informer reconnects by itself and sees the changes made after the restart.
// Here the crash ends a watch that delivered nothing within a second, so the
// reflector re-lists.
TEST_F(InformerIntegrationTest, RecoversAfterServerRestart) {
  integration::ensure_namespace(*cs_, "restart");
  auto pods = cs_->pods("restart");
  ASSERT_TRUE(pods.create(pod("restart", "before", {{"v", "1"}})).ok());
  ASSERT_TRUE(pods.create(pod("restart", "gone-after", {})).ok());
  start_informer("restart");
  expect_converged();

  cluster_->kill();
  cluster_->start();
  change_after_restart("restart");
}

// The same when the watch had delivered events before the crash: the reflector
// re-watches from its resourceVersion (kcm-local keeps the history in its
// log) instead of re-listing.
TEST_F(InformerIntegrationTest, ResumesWatchAfterServerRestart) {
  integration::ensure_namespace(*cs_, "resume");
  auto pods = cs_->pods("resume");
  ASSERT_TRUE(pods.create(pod("resume", "before", {{"v", "1"}})).ok());
  ASSERT_TRUE(pods.create(pod("resume", "gone-after", {})).ok());
  start_informer("resume");
  expect_converged();
  // The watch delivers an event, so its end is an ordinary close.
  const std::string rv(informer_->indexer()->get("resume", "before")->resource_version());
  ASSERT_TRUE(
      pods.patch("before", client::PatchType::kMerge, R"({"metadata":{"labels":{"w":"1"}}})").ok());
  ASSERT_TRUE(integration::eventually_ok(
      [&] { return informer_->indexer()->get("resume", "before")->resource_version() != rv; }));
  const int lists_before = gate().lists();

  // The crash ends the watch. Its re-watch, made at once, could reach the
  // dying server's listening socket before the kernel closes it and be
  // reset instead of refused, and a reset is not an error to retry the
  // watch on (upstream's isWatchErrorRetriable): the reflector would
  // re-list. The gate refuses new calls until the server is back, as a
  // server that is gone does.
  gate().refuse_new_calls();
  cluster_->kill();
  cluster_->start();
  gate().bring_up();
  change_after_restart("resume");
  EXPECT_EQ(gate().lists(), lists_before) << "the reflector should have resumed its watch";
  EXPECT_EQ(gate().expired(), 0);
}

}  // namespace
}  // namespace kcm::cache
