#include "controller/run_workers.h"

#include <chrono>
#include <thread>

#include "log/log.h"
#include "log/thread_name.h"

namespace kcm::controller {

void run_workers(const WorkerLoop& loop, int workers, std::stop_token stop) {
  log::info("Starting controller", {{"controller", loop.controller}});
  {
    // Declared before the shut-down below runs, so joined after it.
    std::vector<std::jthread> threads;
    if (cache::wait_for_named_cache_sync(loop.controller, stop, loop.synced)) {
      if (loop.on_synced) loop.on_synced();
      for (int i = 0; i < workers; ++i) {
        threads.emplace_back([&loop] {
          log::set_thread_name(loop.controller);
          while (loop.process_next()) {
          }
        });
      }
      while (cache::sleep_for(std::chrono::hours(1), stop)) {
      }
    }
    log::info("Shutting down controller", {{"controller", loop.controller}});
    // Workers finish the item they hold, then process_next() ends them.
    loop.shut_down();
  }
}

}  // namespace kcm::controller
