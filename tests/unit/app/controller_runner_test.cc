#include "app/controller_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "app/controller_names.h"
#include "cache/informer_factory.h"
#include "metrics/registry.h"

namespace kcm::app {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// A context nothing in these tests reads (the fakes ignore it).
struct FakeContext {
  Options options;
  cache::SharedInformerFactory informers{
      [](const api::GroupVersionResource&, const std::string&) { return nullptr; }};
  metrics::Registry registry;
  ControllerContext context{.options = options,
                            .informers = informers,
                            .client = {},
                            .recorder = {},
                            .metrics = registry};
};

ControllerDescriptor returns_controller(std::string_view name, std::atomic<int>* runs = nullptr) {
  return {name, [runs](const ControllerContext&) -> Result<std::unique_ptr<Controller>> {
            return make_controller([runs](std::stop_token stop) {
              if (runs) ++*runs;
              std::mutex mu;
              std::condition_variable_any cv;
              std::unique_lock lock(mu);
              cv.wait(lock, stop, [] { return false; });
            });
          }};
}

std::vector<std::string> resolved(std::vector<std::string> entries) {
  auto r = resolve_controllers(entries);
  EXPECT_TRUE(r.ok()) << r.error();
  return *r;
}

TEST(BuildControllers, BuildsOnlyEnabledAndSkipsNull) {
  FakeContext f;
  const std::vector<ControllerDescriptor> descriptors = {
      returns_controller("deployment-controller"),
      returns_controller("pod-counter-controller"),  // disabled by default
      {"replicaset-controller",
       [](const ControllerContext&) -> Result<std::unique_ptr<Controller>> {
         return std::unique_ptr<Controller>();
       }},
      returns_controller("job-controller"),
  };
  auto built = build_controllers(descriptors, resolved({"*", "-job"}), f.context);
  ASSERT_TRUE(built.ok()) << built.error();
  std::vector<std::string> names;
  for (const auto& c : *built)
    names.push_back(c.name);
  EXPECT_THAT(names, ElementsAre("deployment-controller"));

  built = build_controllers(descriptors, resolved({"pod-counter-controller"}), f.context);
  ASSERT_TRUE(built.ok());
  ASSERT_EQ(built->size(), 1u);
  EXPECT_EQ((*built)[0].name, "pod-counter-controller");
}

TEST(BuildControllers, AnInitErrorNamesTheController) {
  FakeContext f;
  const std::vector<ControllerDescriptor> descriptors = {
      {"replicaset-controller",
       [](const ControllerContext&) -> Result<std::unique_ptr<Controller>> {
         return fail("no client");
       }}};
  auto built = build_controllers(descriptors, resolved({"*"}), f.context);
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.error(), R"(error starting controller "replicaset-controller": no client)");
}

TEST(ControllerHealthChecks, OwnCheckOrPing) {
  std::vector<BuiltController> controllers;
  controllers.push_back({"a-controller", make_controller([](std::stop_token) {})});
  controllers.push_back(
      {"b-controller", make_controller([](std::stop_token) {}, HealthCheck([]() -> Result<void> {
                                         return fail("sick");
                                       }))});
  const auto checks = controller_health_checks(controllers);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[0].name, "a-controller");
  EXPECT_TRUE(checks[0].check().ok());
  EXPECT_EQ(checks[1].name, "b-controller");
  ASSERT_FALSE(checks[1].check().ok());
  EXPECT_EQ(checks[1].check().error(), "sick");
}

TEST(ControllerDebugHandlers, MountedUnderTheControllersName) {
  std::vector<BuiltController> controllers;
  controllers.push_back({"plain-controller", make_controller([](std::stop_token) {})});
  controllers.push_back(
      {"graph-controller", make_controller([](std::stop_token) {}, std::nullopt,
                                           [](std::string_view path, std::string_view) {
                                             HttpAnswer a;
                                             a.body = "seen " + std::string(path);
                                             return a;
                                           })});
  ControllerDebugHandlers handlers;
  ASSERT_TRUE(install_debug_handlers(controllers, handlers).ok());
  const auto a = handlers.serve("/debug/controllers/graph-controller/graph", "");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->body, "seen /graph");
  // No handler, no answer: the server's 404.
  EXPECT_FALSE(handlers.serve("/debug/controllers/plain-controller/graph", ""));
  EXPECT_FALSE(handlers.serve("/debug/graph-controller/graph", ""));
  // Installing the same controllers again names the duplicate.
  const auto again = install_debug_handlers(controllers, handlers);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error(), "a debug handler is already installed for graph-controller");
}

TEST(UnimplementedControllers, ListsEnabledNamesWithoutDescriptor) {
  const std::vector<ControllerDescriptor> descriptors = {
      returns_controller("deployment-controller"), returns_controller("replicaset-controller")};
  EXPECT_THAT(unimplemented_controllers(descriptors, resolved({"deployment", "replicaset"})),
              IsEmpty());
  EXPECT_THAT(unimplemented_controllers(descriptors, resolved({"deployment", "job", "cronjob"})),
              ElementsAre("cronjob-controller", "job-controller"));
}

TEST(RunControllers, RunsEachUntilStopAndWaitsForThem) {
  std::atomic<int> runs = 0;
  FakeContext f;
  auto built = build_controllers({returns_controller("deployment-controller", &runs),
                                  returns_controller("replicaset-controller", &runs)},
                                 resolved({"*"}), f.context);
  ASSERT_TRUE(built.ok());
  std::stop_source stop;
  std::vector<std::string> started, stopped;
  std::mutex mu;
  RunHooks hooks{.started =
                     [&](const std::string& n) {
                       std::lock_guard l(mu);
                       started.push_back(n);
                     },
                 .stopped =
                     [&](const std::string& n) {
                       std::lock_guard l(mu);
                       stopped.push_back(n);
                     }};
  std::thread stopper([&] {
    while (runs < 2)
      std::this_thread::yield();
    stop.request_stop();
  });
  EXPECT_TRUE(run_controllers(*built, stop.get_token(), std::chrono::seconds(5), hooks));
  stopper.join();
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(started.size(), 2u);
  EXPECT_EQ(stopped.size(), 2u);
}

TEST(RunControllers, ReturnsWhenAllEndOnTheirOwn) {
  std::vector<BuiltController> controllers;
  controllers.push_back({"a", make_controller([](std::stop_token) {})});
  std::stop_source never;
  EXPECT_TRUE(run_controllers(controllers, never.get_token(), std::chrono::seconds(1)));
}

TEST(RunControllers, ReportsAShutdownTimeout) {
  std::atomic<bool> release = false;
  std::vector<BuiltController> controllers;
  // Ignores stop until released: a controller that does not drain in time.
  controllers.push_back({"stuck", make_controller([&](std::stop_token) {
                           while (!release)
                             std::this_thread::sleep_for(std::chrono::milliseconds(5));
                         })});
  std::stop_source stop;
  stop.request_stop();
  EXPECT_FALSE(run_controllers(controllers, stop.get_token(), std::chrono::milliseconds(50)));
  // The thread was detached; let it finish before `controllers` goes away.
  release = true;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

}  // namespace
}  // namespace kcm::app
