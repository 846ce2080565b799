#include "record/event_broadcaster.h"

#include <fmt/core.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <random>
#include <stop_token>
#include <thread>
#include <vector>

#include "log/thread_name.h"

namespace kcm::record {
namespace {

// What a watcher's thread runs for each event (EventBroadcaster::Handler).
using Handler = std::function<void(const Event&, std::stop_token)>;

// Sleeps `d` of real time unless `stop` is requested first (then false).
bool sleep_for(std::chrono::nanoseconds d, std::stop_token stop) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  cv.wait_for(lock, stop, d, [] { return false; });
  return !stop.stop_requested();
}

double random_unit() {
  static std::mutex mu;
  static std::mt19937_64 engine{std::random_device{}()};
  std::lock_guard lock(mu);
  return std::uniform_real_distribution<double>(0.0, 1.0)(engine);
}

std::string klog_ref(const ObjectReference& ref) {
  return ref.namespace_.empty() ? ref.name : ref.namespace_ + "/" + ref.name;
}

}  // namespace

class WatcherImpl;

struct EventBroadcaster::Core {
  explicit Core(BroadcasterOptions o) : options(std::move(o)) {}

  // ActionOrDrop: queues `event` for every watcher without blocking (a full
  // watcher misses it); an error after shutdown.
  Result<void> distribute(Event event);
  void remove(const WatcherImpl* watcher);

  const BroadcasterOptions options;
  std::mutex mu;
  bool stopped = false;
  std::vector<std::shared_ptr<WatcherImpl>> watchers;
};

class WatcherImpl : public EventWatcher {
 public:
  // `admits` (when set) is asked before queueing: a watcher that would ignore
  // the event takes no room and no wake-up for it.
  WatcherImpl(std::weak_ptr<EventBroadcaster::Core> core, std::size_t capacity, Logger logger,
              std::function<bool()> admits = {})
      : core_(std::move(core)),
        capacity_(capacity),
        logger_(std::move(logger)),
        admits_(std::move(admits)) {}
  ~WatcherImpl() override { halt(); }

  void start(Handler handler) {
    thread_ = std::jthread([this, handler = std::move(handler)](std::stop_token st) {
      log::set_thread_name("events");
      run(st, handler);
    });
  }

  // Queues `event` unless the queue is full (then it is dropped for this
  // watcher, silently, as upstream's DropIfChannelFull).
  void push(const std::shared_ptr<const Event>& event) {
    if (admits_ && !admits_()) return;
    {
      std::lock_guard lock(mu_);
      if (halted_ || queue_.size() >= capacity_) return;
      queue_.push_back(event);
    }
    cv_.notify_one();
  }

  void stop() override {
    if (auto core = core_.lock()) core->remove(this);
    halt();
  }

  // Ends the thread (after the event in hand) and waits for it.
  void halt() {
    {
      std::lock_guard lock(mu_);
      halted_ = true;
    }
    thread_.request_stop();
    cv_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }

 private:
  void run(std::stop_token st, const Handler& handler) {
    while (true) {
      std::shared_ptr<const Event> event;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, st, [this] { return !queue_.empty(); });
        if (st.stop_requested()) {
          if (!queue_.empty()) {
            logger_(Severity::kError,
                    fmt::format("Unable to write {} queued events (broadcaster is shut down)",
                                queue_.size()));
            queue_.clear();
          }
          return;
        }
        event = std::move(queue_.front());
        queue_.pop_front();
      }
      handler(*event, st);
    }
  }

  std::weak_ptr<EventBroadcaster::Core> core_;
  const std::size_t capacity_;
  const Logger logger_;
  const std::function<bool()> admits_;
  std::mutex mu_;
  std::condition_variable_any cv_;
  // One immutable copy of each event, shared by every watcher's queue.
  std::deque<std::shared_ptr<const Event>> queue_;
  bool halted_ = false;
  std::jthread thread_;  // last: joined before the members it uses go away
};

Result<void> EventBroadcaster::Core::distribute(Event event) {
  auto shared = std::make_shared<const Event>(std::move(event));
  std::lock_guard lock(mu);
  if (stopped) return fail("broadcaster already stopped");
  for (const auto& w : watchers)
    w->push(shared);
  return {};
}

void EventBroadcaster::Core::remove(const WatcherImpl* watcher) {
  std::lock_guard lock(mu);
  std::erase_if(watchers, [watcher](const auto& w) { return w.get() == watcher; });
}

namespace {

class RecorderImpl : public EventRecorder {
 public:
  RecorderImpl(std::shared_ptr<EventBroadcaster::Core> core, EventSource source, NowFunc clock)
      : core_(std::move(core)), source_(std::move(source)), clock_(std::move(clock)) {}

  void event(const ObjectReference& object, std::string_view type, std::string_view reason,
             std::string_view message) override {
    generate(object, {}, type, reason, message);
  }
  void annotated_event(const ObjectReference& object, const api::StringMap& annotations,
                       std::string_view type, std::string_view reason,
                       std::string_view message) override {
    generate(object, annotations, type, reason, message);
  }
  void event(const api::Object& object, std::string_view type, std::string_view reason,
             std::string_view message) override {
    auto ref = ObjectReference::from_object(object);
    if (!ref) {
      log(Severity::kError,
          fmt::format("Could not construct reference, will not report event: {} object={:?} "
                      "eventType={:?} reason={:?} message={:?}",
                      ref.error(), object.key(), type, reason, message));
      return;
    }
    generate(*ref, {}, type, reason, message);
  }

 private:
  void log(Severity s, std::string_view m) const {
    if (core_->options.logger) core_->options.logger(s, m);
  }

  void generate(const ObjectReference& ref, const api::StringMap& annotations,
                std::string_view type, std::string_view reason, std::string_view message) {
    if (!is_valid_event_type(type)) {
      log(Severity::kError, fmt::format("Unsupported event type eventType={:?}", type));
      return;
    }
    const auto now = clock_ ? clock_() : std::chrono::system_clock::now();
    Event e;
    e.name = generate_event_name(ref.name, now);
    e.namespace_ = ref.namespace_.empty() ? "default" : ref.namespace_;
    e.annotations = annotations;
    e.involved_object = ref;
    e.reason = std::string(reason);
    e.message = std::string(message);
    e.first_timestamp = api::Time(now);
    e.last_timestamp = api::Time(now);
    e.count = 1;
    e.type = std::string(type);
    e.source = source_;
    e.reporting_instance = source_.host;
    e.reporting_controller = source_.component;

    if (auto sent = core_->distribute(std::move(e)); !sent) {
      log(Severity::kError,
          fmt::format("Unable to record event (will not retry!): {}", sent.error()));
    }
  }

  std::shared_ptr<EventBroadcaster::Core> core_;
  const EventSource source_;
  const NowFunc clock_;
};

}  // namespace

EventBroadcaster::EventBroadcaster(BroadcasterOptions options)
    : core_(std::make_shared<Core>(std::move(options))) {}

EventBroadcaster::~EventBroadcaster() {
  shutdown();
}

std::shared_ptr<EventWatcher> EventBroadcaster::start_event_watcher(
    std::function<void(const Event&)> handler) {
  return start_watcher(
      [handler = std::move(handler)](const Event& e, std::stop_token) { handler(e); }, {});
}

std::shared_ptr<EventWatcher> EventBroadcaster::start_watcher(Handler handler,
                                                              std::function<bool()> admits) {
  auto watcher = std::make_shared<WatcherImpl>(core_, core_->options.queue_length,
                                               core_->options.logger, std::move(admits));
  watcher->start(std::move(handler));
  std::lock_guard lock(core_->mu);
  if (core_->stopped) {
    watcher->halt();
    return watcher;
  }
  core_->watchers.push_back(watcher);
  return watcher;
}

std::shared_ptr<EventWatcher> EventBroadcaster::start_recording_to_sink(
    std::shared_ptr<EventSink> sink) {
  // The correlator belongs to this watcher alone (one per sink, as upstream).
  auto correlator = std::make_shared<EventCorrelator>(core_->options.correlator);
  auto write = [sink = std::move(sink), correlator, sleep = core_->options.sleep_duration,
                logger = core_->options.logger](const Event& event, std::stop_token stop) {
    CorrelateResult result = correlator->correlate(event);
    if (result.skip) return;
    for (int tries = 0;;) {
      if (record_event(*sink, result.event, result.patch, *correlator, logger)) return;
      if (++tries >= kMaxTriesPerEvent) {
        logger(Severity::kError,
               fmt::format("Unable to write event (retry limit exceeded!) event={}",
                           describe(result.event)));
        return;
      }
      // The first sleep is randomised so clients do not retry in step after an outage.
      auto delay = sleep;
      if (tries == 1) {
        delay = std::chrono::nanoseconds(
            static_cast<std::int64_t>(static_cast<double>(delay.count()) * random_unit()));
      }
      if (!sleep_for(delay, stop)) {
        logger(Severity::kError,
               fmt::format("Unable to write event (broadcaster is shut down) event={}",
                           describe(result.event)));
        return;
      }
    }
  };
  return start_watcher(std::move(write), {});
}

std::shared_ptr<EventWatcher> EventBroadcaster::start_structured_logging(int verbosity) {
  auto log_event = [logger = core_->options.logger](const Event& e, std::stop_token) {
    const auto& io = e.involved_object;
    logger(Severity::kInfo, fmt::format("Event occurred object={:?} fieldPath={:?} kind={:?} "
                                        "apiVersion={:?} type={:?} reason={:?} message={:?}",
                                        klog_ref(io), io.field_path, io.kind, io.api_version,
                                        e.type, e.reason, e.message));
  };
  return start_watcher(std::move(log_event), [verbose = core_->options.verbose, verbosity] {
    return verbose(verbosity);
  });
}

std::shared_ptr<EventRecorder> EventBroadcaster::new_recorder(EventSource source, NowFunc clock) {
  return std::make_shared<RecorderImpl>(core_, std::move(source), std::move(clock));
}

void EventBroadcaster::shutdown() {
  std::vector<std::shared_ptr<WatcherImpl>> watchers;
  {
    std::lock_guard lock(core_->mu);
    core_->stopped = true;
    watchers.swap(core_->watchers);
  }
  for (const auto& w : watchers)
    w->halt();
}

bool record_event(EventSink& sink, Event& event, const std::optional<api::json::value>& patch,
                  EventCorrelator& correlator, const Logger& logger) {
  const bool update_existing = event.count > 1 && patch.has_value();
  std::optional<Result<api::json::value, SinkError>> written;
  if (update_existing) written.emplace(sink.patch(event.namespace_, event.name, *patch));
  // The event may have been deleted since: create it afresh.
  const bool gone = written && !written->ok() &&
                    written->error().kind == SinkError::Kind::kStatus &&
                    written->error().status.code == 404;
  if (!update_existing || gone) {
    event.resource_version.clear();
    written.emplace(sink.create(event.to_json()));
  }
  if (written->ok()) {
    auto stored = Event::from_json(written->value());
    if (stored) {
      correlator.update_state(*stored);
      return true;
    }
    // Like upstream's UnexpectedObjectError: the answer matched nothing known; retry.
    logger(Severity::kError,
           fmt::format("Unable to write event (may retry after sleeping): unexpected answer: {} "
                       "event={}",
                       stored.error(), describe(event)));
    return false;
  }
  const SinkError& err = written->error();
  switch (err.kind) {
    case SinkError::Kind::kRequestConstruction:
      logger(Severity::kError,
             fmt::format("Unable to construct event (will not retry!): {} event={}",
                         err.status.message, describe(event)));
      return true;
    case SinkError::Kind::kStatus: {
      bool terminating = false;
      if (err.status.details) {
        for (const auto& c : err.status.details->causes) {
          terminating = terminating || c.type == "NamespaceTerminating";
        }
      }
      const bool expected = err.status.is(api::reason::kAlreadyExists) || terminating;
      logger(expected ? Severity::kDebug : Severity::kError,
             fmt::format("Server rejected event (will not retry!): {} event={}", err.status.message,
                         describe(event)));
      return true;
    }
    case SinkError::Kind::kTransport:
      break;
  }
  logger(Severity::kError,
         fmt::format("Unable to write event (may retry after sleeping): {} event={}",
                     err.status.message, describe(event)));
  return false;
}

}  // namespace kcm::record
