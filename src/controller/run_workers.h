// The shape every queue-driven controller's run() shares (upstream's
// Run(ctx, workers)): wait for the informers' caches, start the workers, wait
// for stop, shut the queue down and join the workers.
#pragma once

#include <functional>
#include <stop_token>
#include <string_view>
#include <vector>

#include "cache/wait.h"

namespace kcm::controller {

struct WorkerLoop {
  std::string_view controller;  // for the log lines
  std::vector<cache::InformerSynced> synced;
  // Runs once the caches synced, before the workers start. May be empty.
  std::function<void()> on_synced;
  // One item of work; false once the queue is shut down and drained.
  std::function<bool()> process_next;
  // Shuts the queue down so that every process_next() returns false in the end.
  std::function<void()> shut_down;
};

// Blocks until stop is requested. "Starting controller" and "Shutting down
// controller" are logged as upstream; when the caches never sync (stop came
// first) no worker starts. The workers are joined after shut_down().
void run_workers(const WorkerLoop& loop, int workers, std::stop_token stop);

}  // namespace kcm::controller
