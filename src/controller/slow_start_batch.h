// slowStartBatch (upstream replicaset): call `fn` `count` times in batches of
// initial, 2*initial, 4*initial, ... (the last batch takes what remains). A
// batch with any failure ends the run, so a controller whose creations all
// fail (quota, admission) sends 1 request rather than 500. The number of calls
// is therefore deterministic; only their order within a batch is not.
#pragma once

#include <algorithm>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "api/result.h"
#include "controller/parallel_calls.h"

namespace kcm::controller {

// upstream SlowStartInitialBatchSize.
inline constexpr int kSlowStartInitialBatchSize = 1;

template <class E>
struct SlowStartResult {
  int successes = 0;
  // The first failure of the last batch (in completion order), if any.
  std::optional<E> error;
};

// `calls` runs the calls of one batch in parallel (upstream starts one
// goroutine per call); nullptr runs them on the calling thread. The batches
// and the result do not depend on it.
template <class E>
SlowStartResult<E> slow_start_batch(int count, int initial_batch_size,
                                    const std::function<Result<void, E>()>& fn,
                                    ParallelCalls* calls = nullptr) {
  SlowStartResult<E> result;
  int remaining = count;
  for (int batch = std::min(remaining, initial_batch_size); batch > 0;
       batch = std::min(2 * batch, remaining)) {
    std::mutex mu;
    std::vector<E> errors;
    auto call = [&](std::size_t) {
      auto r = fn();
      if (!r.ok()) {
        const std::lock_guard lock(mu);
        errors.push_back(r.error());
      }
    };
    if (calls != nullptr) {
      calls->run(static_cast<std::size_t>(batch), call);
    } else {
      for (int i = 0; i < batch; ++i)
        call(static_cast<std::size_t>(i));
    }
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
