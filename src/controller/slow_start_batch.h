// slowStartBatch (upstream replicaset): call `fn` `count` times in batches of
// initial, 2*initial, 4*initial, ... (the last batch takes what remains). A
// batch with any failure ends the run, so a controller whose creations all
// fail (quota, admission) sends 1 request rather than 500. The number of calls
// is therefore deterministic; only their order within a batch is not.
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "api/result.h"

namespace kcm::controller {

// upstream SlowStartInitialBatchSize.
inline constexpr int kSlowStartInitialBatchSize = 1;

template <class E>
struct SlowStartResult {
  int successes = 0;
  // The first failure of the last batch (in completion order), if any.
  std::optional<E> error;
};

// `parallelism` bounds how many calls of one batch run at once (upstream
// starts one goroutine per call); 1 runs them on the calling thread. The
// batches and the result do not depend on it.
template <class E>
SlowStartResult<E> slow_start_batch(int count, int initial_batch_size,
                                    const std::function<Result<void, E>()>& fn,
                                    int parallelism = 1) {
  SlowStartResult<E> result;
  int remaining = count;
  for (int batch = std::min(remaining, initial_batch_size); batch > 0;
       batch = std::min(2 * batch, remaining)) {
    std::mutex mu;
    std::vector<E> errors;
    auto call = [&] {
      auto r = fn();
      if (!r.ok()) {
        const std::lock_guard lock(mu);
        errors.push_back(r.error());
      }
    };
    const int workers = std::clamp(parallelism, 1, batch);
    if (workers == 1) {
      for (int i = 0; i < batch; ++i)
        call();
    } else {
      std::atomic<int> next{0};
      std::vector<std::jthread> threads;
      threads.reserve(static_cast<std::size_t>(workers));
      for (int w = 0; w < workers; ++w) {
        threads.emplace_back([&] {
          while (next.fetch_add(1) < batch)
            call();
        });
      }
    }  // the jthreads join here
    result.successes += batch - static_cast<int>(errors.size());
    if (!errors.empty()) {
      result.error = std::move(errors.front());
      return result;
    }
    remaining -= batch;
  }
  return result;
}

}  // namespace kcm::controller
