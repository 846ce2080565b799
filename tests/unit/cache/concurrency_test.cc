// Writers change the fake server while an informer runs through watch
// breaks, compactions and expired continue tokens; at the end the cache
// equals a fresh list.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "cache/shared_informer.h"
#include "test_util.h"

namespace kcm::cache {
namespace {

using namespace std::chrono_literals;
using testing::eventually;
using testing::FakeApiServer;
using testing::make_object;

TEST(InformerConcurrencyTest, CacheConvergesToAFreshList) {
  auto server = std::make_shared<FakeApiServer>();
  for (int i = 0; i < 300; ++i)
    server->create(make_object("ns", "p" + std::to_string(i)));
  SharedInformerOptions o;
  o.indexers.emplace(std::string(kNamespaceIndex), meta_namespace_index_func);
  o.reflector.backoff.initial = 1ms;
  o.reflector.backoff.cap = 5ms;
  o.reflector.page_size = 50;
  o.reflector.watch_error_handler = [](const api::Status&) {};
  SharedIndexInformer informer(server, o);

  // A handler mirrors the events into its own map: it must agree too.
  std::mutex mu;
  std::map<std::string, std::string> mirror;
  auto h = std::make_shared<EventHandlerFuncs>();
  h->add = [&](const ObjectPtr& obj, bool) {
    std::lock_guard l(mu);
    mirror[std::string(obj->key())] = std::string(obj->resource_version());
  };
  h->update = [&](const ObjectPtr&, const ObjectPtr& obj) {
    std::lock_guard l(mu);
    mirror[std::string(obj->key())] = std::string(obj->resource_version());
  };
  h->remove = [&](const DeletedObject& obj) {
    std::lock_guard l(mu);
    mirror.erase(std::string(key_of(obj)));
  };
  ASSERT_TRUE(informer.add_event_handler(h).ok());
  std::jthread run([&](std::stop_token st) { informer.run(st); });

  std::vector<std::jthread> writers;
  for (int w = 0; w < 3; ++w) {
    writers.emplace_back([&, w] {
      std::mt19937 rng(w);
      for (int i = 0; i < 400; ++i) {
        const std::string name = "p" + std::to_string(rng() % 400);
        switch (rng() % 3) {
          case 0:
            server->remove("ns", name);
            break;
          default:
            server->update(make_object("ns", name, {{"w", std::to_string(w)}}));
        }
      }
    });
  }
  std::jthread chaos([&](std::stop_token st) {
    int i = 0;
    while (!st.stop_requested()) {
      std::this_thread::sleep_for(2ms);
      switch (i++ % 4) {
        case 0:
          server->break_watches(api::internal_error("connection reset"));
          break;
        case 1:
          server->compact();
          break;
        case 2:
          server->expire_continue_tokens();
          break;
        case 3:
          server->close_watches();
          break;
      }
    }
  });
  for (auto& w : writers)
    w.join();
  chaos.request_stop();
  chaos.join();

  std::map<std::string, std::string> want;
  for (const auto& [k, v] : server->objects()) {
    want[k] = std::string(v.at("metadata").at("resourceVersion").as_string());
  }
  auto cache_state = [&] {
    std::map<std::string, std::string> got;
    for (const auto& obj : informer.indexer()->list()) {
      got[std::string(obj->key())] = std::string(obj->resource_version());
    }
    return got;
  };
  ASSERT_TRUE(eventually([&] { return cache_state() == want; }, 30s));
  ASSERT_TRUE(eventually([&] {
    std::lock_guard l(mu);
    return mirror == want;
  }));
  EXPECT_TRUE(eventually([&] {
    return informer.last_sync_resource_version() == std::to_string(server->resource_version());
  }));
}

}  // namespace
}  // namespace kcm::cache
