#include "record/event_correlator.h"

#include <fmt/core.h>

namespace kcm::record {
namespace {

std::string join(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (const auto p : parts)
    out.append(p);
  return out;
}

CorrelatorOptions with_defaults(CorrelatorOptions o) {
  if (o.lru_cache_size == 0) o.lru_cache_size = kMaxLruCacheEntries;
  if (o.burst_size == 0) o.burst_size = kDefaultSpamBurst;
  if (o.qps == 0) o.qps = kDefaultSpamQps;
  if (!o.key_func) o.key_func = aggregate_by_reason;
  if (!o.message_func) o.message_func = aggregate_by_reason_message;
  if (o.max_events == 0) o.max_events = kDefaultAggregateMaxEvents;
  if (o.max_interval_seconds == 0) o.max_interval_seconds = kDefaultAggregateIntervalSeconds;
  if (!o.clock) o.clock = [] { return std::chrono::system_clock::now(); };
  if (!o.spam_key_func) o.spam_key_func = spam_key;
  return o;
}

}  // namespace

std::string event_key(const Event& e) {
  const auto& io = e.involved_object;
  return join({e.source.component, e.source.host, io.kind, io.namespace_, io.name, io.field_path,
               io.uid, io.api_version, e.type, e.reason, e.message});
}

std::string spam_key(const Event& e) {
  const auto& io = e.involved_object;
  return join({e.source.component, e.source.host, io.kind, io.namespace_, io.name, io.uid,
               io.api_version, e.type});
}

std::pair<std::string, std::string> aggregate_by_reason(const Event& e) {
  const auto& io = e.involved_object;
  return {join({e.source.component, e.source.host, io.kind, io.namespace_, io.name, io.uid,
                io.api_version, e.type, e.reason, e.reporting_controller, e.reporting_instance}),
          e.message};
}

std::string aggregate_by_reason_message(const Event& e) {
  return "(combined from similar events): " + e.message;
}

EventCorrelator::EventCorrelator(CorrelatorOptions options)
    : options_(with_defaults(std::move(options))),
      aggregates_(static_cast<std::size_t>(options_.lru_cache_size)),
      logs_(static_cast<std::size_t>(options_.lru_cache_size)),
      spam_(static_cast<std::size_t>(options_.lru_cache_size)) {}

CorrelateResult EventCorrelator::correlate(const Event& event) {
  std::lock_guard lock(mu_);
  auto [aggregated, key] = aggregate(event);
  auto [observed, patch] = observe(aggregated, key);
  if (filter(observed)) return CorrelateResult{Event{}, std::nullopt, true};
  return CorrelateResult{std::move(observed), std::move(patch), false};
}

void EventCorrelator::update_state(const Event& event) {
  std::lock_guard lock(mu_);
  logs_.put(event_key(event),
            EventLog{event.count, event.first_timestamp, event.name, event.resource_version});
}

std::pair<Event, std::string> EventCorrelator::aggregate(const Event& event) {
  const auto now = options_.clock();
  const std::string key = event_key(event);
  auto [aggregate_key, local_key] = options_.key_func(event);

  AggregateRecord record;
  if (const auto* found = aggregates_.get(aggregate_key)) record = *found;
  // A record unseen (or older than the interval) starts afresh.
  const auto max_interval = std::chrono::seconds(options_.max_interval_seconds);
  if (!record.valid || now - record.last_timestamp > max_interval) {
    record = AggregateRecord{{}, {}, true};
  }
  record.local_keys.insert(local_key);
  record.last_timestamp = now;
  const std::size_t distinct = record.local_keys.size();
  if (distinct >= static_cast<std::size_t>(options_.max_events)) {
    // Keep the set from growing past the threshold (upstream pops any one).
    record.local_keys.erase(record.local_keys.begin());
  }
  aggregates_.put(aggregate_key, record);

  if (distinct < static_cast<std::size_t>(options_.max_events)) return {event, key};

  // A fresh aggregate event; its cache key is the aggregate key so later
  // aggregates of the group count up on it. Upstream copies only these members.
  Event combined;
  combined.name = generate_event_name(event.involved_object.name, now);
  combined.namespace_ = event.namespace_;
  combined.count = 1;
  combined.first_timestamp = api::Time(now);
  combined.last_timestamp = api::Time(now);
  combined.involved_object = event.involved_object;
  combined.message = options_.message_func(event);
  combined.type = event.type;
  combined.reason = event.reason;
  combined.source = event.source;
  return {std::move(combined), std::move(aggregate_key)};
}

std::pair<Event, std::optional<api::json::value>> EventCorrelator::observe(const Event& incoming,
                                                                           const std::string& key) {
  Event event = incoming;
  std::optional<api::json::value> patch;
  if (const auto* last = logs_.get(key); last != nullptr && last->count > 0) {
    event.name = last->name;
    event.resource_version = last->resource_version;
    event.first_timestamp = last->first_timestamp;
    event.count = last->count + 1;
    // The two-way merge patch between the event with count, lastTimestamp and
    // message blanked and the event itself: exactly those three members
    // (keys sorted, as Go encodes the patch map).
    api::json::object p;
    p["count"] = event.count;
    const api::json::value last_ts = event.last_timestamp.to_json();
    if (last_ts != api::Time(std::chrono::system_clock::time_point{}).to_json()) {
      p["lastTimestamp"] = last_ts;
    }
    if (!event.message.empty()) p["message"] = event.message;
    patch = api::json::value(std::move(p));
  }
  logs_.put(key, EventLog{event.count, event.first_timestamp, event.name, event.resource_version});
  return {std::move(event), std::move(patch)};
}

bool EventCorrelator::filter(const Event& event) {
  const auto now = options_.clock();
  const std::string key = options_.spam_key_func(event);
  SpamRecord* record = spam_.get(key);
  if (record == nullptr) {
    spam_.put(key, SpamRecord{TokenBucket(options_.qps, options_.burst_size, now)});
    record = spam_.get(key);
  }
  return !record->bucket.try_accept(now);
}

}  // namespace kcm::record
