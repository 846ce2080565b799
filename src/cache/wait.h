// Waiting with cancellation (upstream wait.Until/PollImmediateUntil as the
// informer machinery uses them) and WaitForCacheSync.
#pragma once

#include <chrono>
#include <functional>
#include <stop_token>
#include <string_view>
#include <vector>

namespace kcm::cache {

// Sleeps for `d` or until stop is requested; false when stopped.
bool sleep_for(std::chrono::nanoseconds d, std::stop_token stop);

using InformerSynced = std::function<bool()>;

// upstream WaitForCacheSync: checks at once, then every 100ms, until every
// check passes (true) or stop is requested (false).
bool wait_for_cache_sync(std::stop_token stop, const std::vector<InformerSynced>& checks);
// upstream WaitForNamedCacheSync: the same, logging "Waiting for caches to sync for
// <name>", then "Caches are synced for <name>" or "unable to sync caches for <name>".
bool wait_for_named_cache_sync(std::string_view controller_name, std::stop_token stop,
                               const std::vector<InformerSynced>& checks);

}  // namespace kcm::cache
