// EventCorrelator (tools/record/events_cache.go): before an event is written
// it is aggregated with similar ones, counted against identical ones (so a
// repeat becomes a PATCH of count and lastTimestamp), and filtered by a
// per-object token bucket so a broken object cannot flood the API server.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "api/json.h"
#include "api/result.h"
#include "record/event.h"
#include "record/lru_cache.h"
#include "record/token_bucket.h"

namespace kcm::record {

// Upstream's defaults.
inline constexpr int kMaxLruCacheEntries = 4096;
inline constexpr int kDefaultAggregateMaxEvents = 10;
inline constexpr int kDefaultAggregateIntervalSeconds = 600;
inline constexpr int kDefaultSpamBurst = 25;
// 1/300 as the float32 upstream stores, so refills land on the same instants.
inline constexpr double kDefaultSpamQps = static_cast<double>(1.0f / 300.0f);

using NowFunc = std::function<std::chrono::system_clock::time_point()>;

// Source, involved object (with fieldPath), type, reason and message.
std::string event_key(const Event& event);
// Source, involved object (without fieldPath) and type.
std::string spam_key(const Event& event);
// The aggregate key (everything but the message) and the local key (the message).
std::pair<std::string, std::string> aggregate_by_reason(const Event& event);
// "(combined from similar events): <message>"
std::string aggregate_by_reason_message(const Event& event);

struct CorrelatorOptions {
  // Zero / empty members take the defaults above (populateDefaults).
  int lru_cache_size = 0;
  int burst_size = 0;
  double qps = 0;
  std::function<std::pair<std::string, std::string>(const Event&)> key_func;
  std::function<std::string(const Event&)> message_func;
  int max_events = 0;
  int max_interval_seconds = 0;
  NowFunc clock;
  std::function<std::string(const Event&)> spam_key_func;
};

struct CorrelateResult {
  Event event;
  // Set when the event repeats one already written: PATCH this instead of POST.
  std::optional<api::json::value> patch;
  bool skip = false;
};

class EventCorrelator {
 public:
  explicit EventCorrelator(CorrelatorOptions options = {});

  // Aggregate, then count, then spam-filter.
  CorrelateResult correlate(const Event& event);
  // Records the server's copy (name, resourceVersion, count) after a write.
  void update_state(const Event& event);

 private:
  struct AggregateRecord {
    std::set<std::string> local_keys;
    std::chrono::system_clock::time_point last_timestamp{};
    bool valid = false;
  };
  struct EventLog {
    std::int32_t count = 0;
    api::Time first_timestamp;
    std::string name;
    std::string resource_version;
  };
  struct SpamRecord {
    TokenBucket bucket;
  };

  std::pair<Event, std::string> aggregate(const Event& event);
  std::pair<Event, std::optional<api::json::value>> observe(const Event& event,
                                                            const std::string& key);
  bool filter(const Event& event);

  CorrelatorOptions options_;
  std::mutex mu_;
  LruCache<AggregateRecord> aggregates_;
  LruCache<EventLog> logs_;
  LruCache<SpamRecord> spam_;
};

}  // namespace kcm::record
