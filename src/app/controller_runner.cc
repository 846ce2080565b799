#include "app/controller_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "app/controller_names.h"
#include "log/log.h"
#include "log/thread_name.h"

namespace kcm::app {

Result<std::vector<BuiltController>> build_controllers(
    const std::vector<ControllerDescriptor>& descriptors,
    const std::vector<std::string>& resolved_controllers, const ControllerContext& context) {
  std::vector<BuiltController> built;
  for (const ControllerDescriptor& descriptor : descriptors) {
    if (!is_controller_enabled(descriptor.name, resolved_controllers)) {
      log::info("Warning: controller is disabled", {{"controller", descriptor.name}});
      continue;
    }
    log::info("Starting controller", {{"controller", descriptor.name}});
    auto controller = descriptor.init(context);
    if (!controller.ok())
      return fail(
          fmt::format("error starting controller \"{}\": {}", descriptor.name, controller.error()));
    if (!*controller) {
      log::info("Warning: skipping controller", {{"controller", descriptor.name}});
      continue;
    }
    built.push_back({std::string(descriptor.name), std::move(*controller)});
  }
  return built;
}

std::vector<NamedHealthCheck> controller_health_checks(
    const std::vector<BuiltController>& controllers) {
  std::vector<NamedHealthCheck> checks;
  for (const BuiltController& c : controllers) {
    if (auto check = c.controller->health_check())
      checks.push_back({c.name, std::move(*check)});
    else
      checks.push_back(ping_check(c.name));
  }
  return checks;
}

Result<void> install_debug_handlers(const std::vector<BuiltController>& controllers,
                                    ControllerDebugHandlers& handlers) {
  for (const BuiltController& c : controllers) {
    if (DebugHandler h = c.controller->debug_handler()) {
      if (auto ok = handlers.add(c.name, std::move(h)); !ok) return ok;
    }
  }
  return {};
}

std::vector<std::string> unimplemented_controllers(
    const std::vector<ControllerDescriptor>& descriptors,
    const std::vector<std::string>& resolved_controllers) {
  std::vector<std::string> missing;
  for (const ControllerName& known : known_controllers()) {
    if (!is_controller_enabled(known.name, resolved_controllers)) continue;
    const bool built = std::any_of(descriptors.begin(), descriptors.end(),
                                   [&](const auto& d) { return d.name == known.name; });
    if (!built) missing.emplace_back(known.name);
  }
  return missing;
}

bool run_controllers(std::vector<BuiltController>& controllers, std::stop_token stop,
                     std::chrono::nanoseconds shutdown_timeout, const RunHooks& hooks) {
  // Shared with the threads: after a shutdown timeout they outlive this call.
  struct State {
    std::mutex mu;
    std::condition_variable_any cv;
    std::set<std::string> running;
  };
  const auto state = std::make_shared<State>();
  std::vector<std::thread> threads;
  for (BuiltController& c : controllers) {
    {
      const std::lock_guard lock(state->mu);
      state->running.insert(c.name);
    }
    threads.emplace_back([state, hooks, stop, controller = c.controller.get(), name = c.name] {
      log::set_thread_name(name);
      if (hooks.started) hooks.started(name);
      controller->run(stop);
      if (hooks.stopped) hooks.stopped(name);
      const std::lock_guard lock(state->mu);
      state->running.erase(name);
      state->cv.notify_all();
    });
    log::info("Started controller", {{"controller", c.name}});
  }

  std::unique_lock lock(state->mu);
  // Until stop, or until every controller returned on its own.
  state->cv.wait(lock, stop, [&] { return state->running.empty(); });
  const auto deadline = std::chrono::steady_clock::now() + shutdown_timeout;
  const auto report_every =
      shutdown_timeout.count() > 0
          ? std::chrono::duration_cast<std::chrono::nanoseconds>(shutdown_timeout / 3)
          : std::chrono::nanoseconds(std::chrono::seconds(5));
  while (!state->running.empty()) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    const auto wake = std::min(deadline, now + report_every);
    if (state->cv.wait_until(lock, wake, [&] { return state->running.empty(); })) break;
    if (std::chrono::steady_clock::now() < deadline) {
      std::string names;
      for (const std::string& n : state->running)
        names += (names.empty() ? "" : ", ") + n;
      log::info("Still waiting for some controllers to shut down", {{"controllers", names}});
    }
  }
  const bool all_stopped = state->running.empty();
  lock.unlock();
  if (!all_stopped) {
    log::error("Controller shutdown timeout reached");
    for (std::thread& t : threads)
      t.detach();
    return false;
  }
  for (std::thread& t : threads)
    t.join();
  return true;
}

}  // namespace kcm::app
