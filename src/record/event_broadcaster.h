// EventBroadcaster (tools/record's eventBroadcasterImpl): recorders hand it
// events; it fans them out to watchers, each with its own bounded queue and
// thread: the sink writer (correlate, then create or patch with retries),
// structured logging, or any handler.
//
// A watcher whose queue is full misses the event, silently, as upstream's
// (watch.Broadcaster with DropIfChannelFull). Upstream logs "too many queued
// events" only when its distributing goroutine falls 1000 events behind; here
// the recording thread distributes the event itself, so nothing waits there.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>

#include "record/event.h"
#include "record/event_correlator.h"
#include "record/event_recorder.h"
#include "record/event_sink.h"
#include "record/logger.h"

namespace kcm::record {

// Upstream's limits.
inline constexpr std::size_t kMaxQueuedEvents = 1000;
inline constexpr int kMaxTriesPerEvent = 12;
inline constexpr std::chrono::nanoseconds kDefaultSleepDuration = std::chrono::seconds(10);

struct BroadcasterOptions {
  CorrelatorOptions correlator;
  // Between tries of a failed write; the first sleep is this times rand[0,1).
  std::chrono::nanoseconds sleep_duration = kDefaultSleepDuration;
  // Events each watcher may hold before new ones are dropped.
  std::size_t queue_length = kMaxQueuedEvents;
  Logger logger = stderr_logger();
  // Whether klog's -v admits a level (for start_structured_logging).
  VerbosityCheck verbose = log_verbosity();
};

// A running watcher; stop() ends it after the event in hand (idempotent).
class EventWatcher {
 public:
  virtual ~EventWatcher() = default;
  virtual void stop() = 0;
};

class EventBroadcaster {
 public:
  explicit EventBroadcaster(BroadcasterOptions options = {});
  ~EventBroadcaster();  // shutdown()
  EventBroadcaster(const EventBroadcaster&) = delete;
  EventBroadcaster& operator=(const EventBroadcaster&) = delete;

  // Runs `handler` on its own thread for every event recorded from now on.
  std::shared_ptr<EventWatcher> start_event_watcher(std::function<void(const Event&)> handler);
  // Correlates and writes every event to `sink` (12 tries, abandoning
  // events the server rejects).
  std::shared_ptr<EventWatcher> start_recording_to_sink(std::shared_ptr<EventSink> sink);
  // Logs "Event occurred" with the object, kind, type, reason and message at
  // klog's V(`verbosity`): upstream's controllers use 3, the controller
  // manager's own broadcaster 0. Events are not queued for it while -v is lower.
  std::shared_ptr<EventWatcher> start_structured_logging(int verbosity);

  // A recorder that stamps events with `source` (component and host) and
  // reads the time from `clock` (the system clock when empty). It stays
  // usable after the broadcaster is gone; its events are then dropped.
  std::shared_ptr<EventRecorder> new_recorder(EventSource source, NowFunc clock = {});

  // Stops every watcher: a write in progress is not retried, queued events
  // are abandoned with an error log. Recording afterwards logs an error.
  void shutdown();

  struct Core;

 private:
  using Handler = std::function<void(const Event&, std::stop_token)>;
  // A watcher running `handler`; `admits` (optional) is asked before each
  // event is queued for it.
  std::shared_ptr<EventWatcher> start_watcher(Handler handler, std::function<bool()> admits);

  std::shared_ptr<Core> core_;
};

// One write of a correlated event (recordEvent): PATCH when `patch` is set
// (and CREATE if the event is gone), CREATE otherwise. Returns true when the
// event is done with (written, or rejected for good), false to retry.
// On success the correlator learns the server's copy.
bool record_event(EventSink& sink, Event& event, const std::optional<api::json::value>& patch,
                  EventCorrelator& correlator, const Logger& logger);

}  // namespace kcm::record
