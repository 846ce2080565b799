#include "cache/wait.h"

#include <condition_variable>
#include <mutex>
#include <string>

#include "cache/log.h"

namespace kcm::cache {

namespace {
constexpr auto kSyncedPollPeriod = std::chrono::milliseconds(100);
}  // namespace

bool sleep_for(std::chrono::nanoseconds d, std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait_for(lock, stop, d, [] { return false; });
  return !stop.stop_requested();
}

bool wait_for_cache_sync(std::stop_token stop, const std::vector<InformerSynced>& checks) {
  while (true) {
    bool all = true;
    for (const auto& check : checks) {
      if (!check()) {
        all = false;
        break;
      }
    }
    if (all) return true;
    if (!sleep_for(kSyncedPollPeriod, stop)) {
      log(LogLevel::kDebug, "stop requested");
      return false;
    }
  }
}

bool wait_for_named_cache_sync(std::string_view controller_name, std::stop_token stop,
                               const std::vector<InformerSynced>& checks) {
  const std::string name(controller_name);
  log(LogLevel::kInfo, "Waiting for caches to sync for " + name);
  if (!wait_for_cache_sync(stop, checks)) {
    log(LogLevel::kError, "unable to sync caches for " + name);
    return false;
  }
  log(LogLevel::kInfo, "Caches are synced for " + name);
  return true;
}

}  // namespace kcm::cache
