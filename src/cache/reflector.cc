#include "cache/reflector.h"

#include <condition_variable>
#include <map>
#include <optional>
#include <thread>

#include "cache/log.h"
#include "cache/wait.h"
#include "log/thread_name.h"

namespace kcm::cache {

namespace json = api::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::int64_t kDefaultPageSize = 500;

bool has_reason_or_code(const api::Status& s, std::string_view reason, int code) {
  // Like upstream's reasonAndCodeForError: the code counts only when the
  // reason is not one upstream knows.
  return s.reason == reason || (s.reason.empty() && s.code == code);
}

bool is_connection_refused(const api::Status& s) {
  return s.message.find("connection refused") != std::string::npos;
}

// upstream isWatchErrorRetriable.
bool is_watch_error_retriable(const api::Status& s) {
  return is_connection_refused(s) || is_too_many_requests(s);
}

api::Status with_prefix(api::Status s, std::string_view prefix) {
  s.message = std::string(prefix) + s.message;
  return s;
}

// A plain error (no API reason or code), like upstream's fmt.Errorf ones.
api::Status plain_error(std::string message) {
  api::Status s;
  s.message = std::move(message);
  s.code = 0;
  return s;
}

// Collects a streamed initial list (upstream's temporary store of watchList).
class TemporaryStore : public ReflectorStore {
 public:
  void add(ObjectPtr obj) override { put(std::move(obj)); }
  void update(ObjectPtr obj) override { put(std::move(obj)); }
  void remove(ObjectPtr obj) override { items_.erase(std::string(obj->key())); }
  void replace(std::vector<ObjectPtr> objects, const std::string&) override {
    items_.clear();
    for (auto& o : objects)
      put(std::move(o));
  }
  void resync() override {}
  std::vector<ObjectPtr> list() const {
    std::vector<ObjectPtr> out;
    out.reserve(items_.size());
    for (const auto& [k, v] : items_)
      out.push_back(v);
    return out;
  }

 private:
  void put(ObjectPtr obj) { items_[std::string(obj->key())] = std::move(obj); }
  std::map<std::string, ObjectPtr> items_;
};

// upstream RetryWithDeadline for watches ending with InternalError.
class RetryWithDeadline {
 public:
  explicit RetryWithDeadline(std::chrono::milliseconds max) : max_(max) {}
  void after(const api::Status* err) {
    if (err != nullptr && is_internal_error(*err)) {
      if (!failing_) first_error_ = Clock::now();
      failing_ = true;
    } else {
      failing_ = false;
    }
  }
  bool should_retry() const {
    return max_.count() > 0 && failing_ && Clock::now() - first_error_ < max_;
  }

 private:
  std::chrono::milliseconds max_;
  bool failing_ = false;
  Clock::time_point first_error_{};
};

}  // namespace

bool is_expired_error(const api::Status& s) {
  return s.reason == api::reason::kExpired || has_reason_or_code(s, api::reason::kGone, 410);
}

bool is_too_large_resource_version_error(const api::Status& s) {
  if (!has_reason_or_code(s, api::reason::kTimeout, 504)) return false;
  if (s.details) {
    for (const auto& c : s.details->causes) {
      if (c.type == "ResourceVersionTooLarge") return true;
    }
  }
  return s.message.find("Too large resource version") != std::string::npos;
}

bool is_too_many_requests(const api::Status& s) {
  return has_reason_or_code(s, api::reason::kTooManyRequests, 429);
}

bool is_internal_error(const api::Status& s) {
  return has_reason_or_code(s, api::reason::kInternalError, 500);
}

bool is_not_found(const api::Status& s) {
  return has_reason_or_code(s, api::reason::kNotFound, 404);
}

struct Reflector::WatchOutcome {
  enum Kind { kClosed, kStopped, kError, kInitialEventsEnd } kind = kClosed;
  api::Status error;
};

Reflector::Reflector(ListerWatcher& lw, ReflectorStore& store, ReflectorOptions options)
    : lw_(lw),
      store_(store),
      options_(std::move(options)),
      backoff_(options_.backoff),
      rng_(std::random_device{}()) {}

std::string Reflector::last_sync_resource_version() const {
  std::lock_guard lock(mu_);
  return last_sync_rv_;
}

void Reflector::set_last_sync_resource_version(std::string rv) {
  std::lock_guard lock(mu_);
  last_sync_rv_ = std::move(rv);
}

void Reflector::set_unavailable(bool unavailable) {
  std::lock_guard lock(mu_);
  last_sync_rv_unavailable_ = unavailable;
}

std::string Reflector::relist_resource_version() const {
  std::lock_guard lock(mu_);
  // After a 410 the RV is too old for the watch cache: a quorum read ("").
  if (last_sync_rv_unavailable_) return "";
  // Nothing synced yet: any state will do, served from the watch cache.
  if (last_sync_rv_.empty()) return "0";
  return last_sync_rv_;
}

std::string Reflector::rewatch_resource_version() const {
  std::lock_guard lock(mu_);
  if (last_sync_rv_unavailable_) return "";
  return last_sync_rv_;
}

std::int64_t Reflector::watch_timeout_seconds() {
  std::lock_guard lock(mu_);
  const double min_s = std::chrono::duration<double>(options_.min_watch_timeout).count();
  const double r = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
  return static_cast<std::int64_t>(min_s * (r + 1.0));
}

Result<ObjectPtr> Reflector::decode(json::value&& obj) const {
  if (options_.decode) return options_.decode(std::move(obj));
  return CachedObject::from_json(obj);
}

void Reflector::run(std::stop_token stop) {
  log(LogLevel::kDebug,
      "Starting reflector " + options_.type_description + " from " + options_.name);
  while (!stop.stop_requested()) {
    auto r = list_and_watch(stop);
    if (!r.ok()) {
      if (options_.watch_error_handler) {
        options_.watch_error_handler(r.error());
      } else if (is_expired_error(r.error())) {
        log(LogLevel::kDebug, options_.name + ": watch of " + options_.type_description +
                                  " closed with: " + r.error().message);
      } else {
        log(LogLevel::kError, options_.name + ": Failed to watch " + options_.type_description +
                                  ": " + r.error().message);
      }
    }
    // Sliding: the back-off runs after each attempt, whatever its outcome.
    if (!sleep_for(backoff_.next(), stop)) break;
  }
  log(LogLevel::kDebug,
      "Stopping reflector " + options_.type_description + " from " + options_.name);
}

Result<void, api::Status> Reflector::list_and_watch(std::stop_token stop) {
  std::unique_ptr<client::WatchStream> w;
  bool fallback_to_list = !options_.use_watch_list;
  if (options_.use_watch_list) {
    bool stopped = false;
    auto r = watch_list(stop, &stopped);
    if (stopped) return {};
    if (!r.ok()) {
      log(LogLevel::kWarning,
          options_.name +
              ": The watchlist request ended with an error, falling back to the "
              "standard LIST/WATCH semantics because making progress is better than "
              "deadlocking: " +
              r.error().message);
      fallback_to_list = true;
    } else {
      w = std::move(r).value();
    }
  }
  if (fallback_to_list) {
    auto r = list(stop);
    if (!r.ok()) return r;
  }
  if (stop.stop_requested()) {
    if (w) w->stop();
    return {};
  }
  return watch(std::move(w), stop);
}

Result<std::vector<ObjectPtr>, api::Status> Reflector::paged_list(client::ListOptions options,
                                                                  std::int64_t page_size,
                                                                  std::string* rv,
                                                                  bool* paginated) {
  if (options.limit == 0) options.limit = page_size;
  const std::string requested_rv = options.resource_version;
  const std::string requested_match = options.resource_version_match;
  std::vector<ObjectPtr> out;
  *paginated = false;
  auto decode_page = [&](ListPage& page) -> Result<void, api::Status> {
    out.reserve(out.size() + page.items.size());
    for (json::value& item : page.items) {
      auto obj = decode(std::move(item));
      if (!obj.ok()) return fail(plain_error("unable to sync list result: " + obj.error()));
      out.push_back(std::move(obj).value());
    }
    page.items.clear();
    *rv = page.resource_version;
    return {};
  };
  while (true) {
    auto page = lw_.list(options);
    if (!page.ok()) {
      // Only a continuation that expired mid-way falls back to one full list
      // at the requested RV (upstream's FullListIfExpired).
      if (page.error().reason != api::reason::kExpired || options.continue_token.empty()) {
        return fail(page.error());
      }
      options.limit = 0;
      options.continue_token.clear();
      options.resource_version = requested_rv;
      options.resource_version_match = requested_match;
      auto full = lw_.list(options);
      if (!full.ok()) return fail(full.error());
      out.clear();
      auto d = decode_page(*full);
      if (!d.ok()) return fail(d.error());
      return out;
    }
    auto d = decode_page(*page);
    if (!d.ok()) return fail(d.error());
    if (page->continue_token.empty()) return out;
    options.continue_token = page->continue_token;
    // A continued list may not name a resource version.
    options.resource_version.clear();
    options.resource_version_match.clear();
    *paginated = true;
  }
}

Result<void, api::Status> Reflector::list(std::stop_token stop) {
  client::ListOptions options;
  options.resource_version = relist_resource_version();

  std::int64_t page_size = kDefaultPageSize;
  bool paginated_before;
  {
    std::lock_guard lock(mu_);
    paginated_before = paginated_result_;
  }
  if (options_.page_size != 0) {
    page_size = options_.page_size;
  } else if (paginated_before) {
    // An earlier RV="0" list came back in pages: the server does not serve
    // lists from a watch cache, so keep paging.
  } else if (!options.resource_version.empty() && options.resource_version != "0") {
    // Unpaged, so a watch cache can serve a list at a given RV.
    page_size = 0;
  }

  std::string rv;
  bool paginated = false;
  auto items = paged_list(options, page_size, &rv, &paginated);
  if (!items.ok() &&
      (is_expired_error(items.error()) || is_too_large_resource_version_error(items.error()))) {
    set_unavailable(true);
    client::ListOptions retry;
    retry.resource_version = relist_resource_version();
    items = paged_list(retry, page_size, &rv, &paginated);
  }
  if (stop.stop_requested()) return {};
  if (!items.ok()) {
    if (is_not_found(items.error())) {
      // Unblock whoever waits for the sync: the server has none of these.
      store_.replace({}, "");
    }
    log(LogLevel::kWarning, options_.name + ": failed to list " + options_.type_description + ": " +
                                items.error().message);
    return fail(with_prefix(items.error(), "failed to list " + options_.type_description + ": "));
  }
  if (options.resource_version == "0" && paginated) {
    std::lock_guard lock(mu_);
    paginated_result_ = true;
  }
  set_unavailable(false);
  store_.replace(std::move(items).value(), rv);
  set_last_sync_resource_version(rv);
  return {};
}

Result<std::unique_ptr<client::WatchStream>, api::Status> Reflector::watch_list(
    std::stop_token stop, bool* stopped) {
  // Retriable errors back off (or forget the RV) and try again.
  auto retriable = [&](const api::Status& err) {
    if (is_watch_error_retriable(err)) {
      log(LogLevel::kInfo, options_.name + ": watch-list of " + options_.type_description +
                               " returned " + err.message + " - backing off");
      sleep_for(backoff_.next(), stop);
      return true;
    }
    if (is_expired_error(err) || is_too_large_resource_version_error(err)) {
      set_unavailable(true);
      return true;
    }
    return false;
  };

  std::string rv;
  TemporaryStore temporary;
  std::unique_ptr<client::WatchStream> w;
  while (true) {
    if (stop.stop_requested()) {
      *stopped = true;
      return std::unique_ptr<client::WatchStream>();
    }
    rv.clear();
    temporary = TemporaryStore();
    client::ListOptions options;
    options.resource_version = rewatch_resource_version();
    options.allow_watch_bookmarks = true;
    options.send_initial_events = true;
    options.resource_version_match = "NotOlderThan";
    options.timeout_seconds = watch_timeout_seconds();

    auto opened = lw_.watch(options);
    if (!opened.ok()) {
      if (retriable(opened.error())) continue;
      return fail(opened.error());
    }
    w = std::move(opened).value();
    WatchOutcome out = handle_watch(
        *w, temporary, [&](std::string v) { rv = std::move(v); }, true, stop);
    if (out.kind == WatchOutcome::kStopped) {
      w->stop();
      *stopped = true;
      return std::unique_ptr<client::WatchStream>();
    }
    if (out.kind == WatchOutcome::kError) {
      w->stop();
      if (retriable(out.error)) continue;
      return fail(out.error);
    }
    if (out.kind == WatchOutcome::kInitialEventsEnd) break;
    w->stop();  // closed before the initial events ended: start over
  }
  set_unavailable(false);
  store_.replace(temporary.list(), rv);
  set_last_sync_resource_version(rv);
  return w;
}

Reflector::WatchOutcome Reflector::handle_watch(client::WatchStream& w, ReflectorStore& store,
                                                const std::function<void(std::string)>& set_rv,
                                                bool exit_on_initial_events_end,
                                                std::stop_token stop) {
  const auto start = Clock::now();
  int event_count = 0;
  // A blocked next() returns once the stream is stopped.
  std::stop_callback on_stop(stop, [&w] { w.stop(); });
  while (true) {
    if (stop.stop_requested()) return {WatchOutcome::kStopped, {}};
    auto next = w.next();
    if (stop.stop_requested()) return {WatchOutcome::kStopped, {}};
    if (!next.ok()) return {WatchOutcome::kError, next.error()};
    if (!next->has_value()) break;
    client::WatchEvent& event = **next;
    if (event.type == client::WatchEventType::kError) {
      return {WatchOutcome::kError, api::Status::from_json(event.object)};
    }
    const json::value* rv_value =
        event.object.is_object() ? api::find_path(event.object, {"metadata", "resourceVersion"})
                                 : nullptr;
    if (!event.object.is_object()) {
      log(LogLevel::kError,
          options_.name + ": unable to understand watch event " + json::serialize(event.object));
      continue;
    }
    std::string rv(api::as_string_view(rv_value));
    bool initial_events_end = false;
    switch (event.type) {
      case client::WatchEventType::kAdded:
      case client::WatchEventType::kModified:
      case client::WatchEventType::kDeleted: {
        auto obj = decode(std::move(event.object));
        if (!obj.ok()) {
          log(LogLevel::kError,
              options_.name + ": unable to process watch event object: " + obj.error());
          break;
        }
        if (event.type == client::WatchEventType::kAdded) {
          store.add(std::move(obj).value());
        } else if (event.type == client::WatchEventType::kModified) {
          store.update(std::move(obj).value());
        } else {
          store.remove(std::move(obj).value());
        }
        break;
      }
      case client::WatchEventType::kBookmark: {
        // A bookmark only moves the resource version on.
        const json::value* a =
            api::find_path(event.object, {"metadata", "annotations", kInitialEventsEndAnnotation});
        initial_events_end = api::as_string_view(a) == "true";
        break;
      }
      case client::WatchEventType::kError:
        break;
    }
    set_rv(std::move(rv));
    ++event_count;
    if (exit_on_initial_events_end && initial_events_end) {
      return {WatchOutcome::kInitialEventsEnd, {}};
    }
  }
  if (Clock::now() - start < std::chrono::seconds(1) && event_count == 0) {
    return {WatchOutcome::kError,
            plain_error("very short watch: " + options_.name +
                        ": Unexpected watch close - watch lasted less than a second and no items "
                        "received")};
  }
  return {WatchOutcome::kClosed, {}};
}

Result<void, api::Status> Reflector::watch(std::unique_ptr<client::WatchStream> w,
                                           std::stop_token stop) {
  // Periodic resync beside the watch (upstream startResync).
  std::jthread resyncer;
  if (options_.resync_period.count() > 0) {
    // Ends when watch() returns (the jthread's own stop).
    resyncer = std::jthread([this](std::stop_token own) {
      log::set_thread_name("resync");
      while (true) {
        std::mutex mu;
        std::condition_variable_any cv;
        std::unique_lock lock(mu);
        cv.wait_for(lock, own, options_.resync_period, [] { return false; });
        if (own.stop_requested()) return;
        if (!options_.should_resync || options_.should_resync()) store_.resync();
      }
    });
  }

  RetryWithDeadline retry(options_.max_internal_error_retry_duration);
  while (true) {
    if (stop.stop_requested()) {
      if (w) w->stop();
      return {};
    }
    if (!w) {
      client::ListOptions options;
      options.resource_version = last_sync_resource_version();
      // Hanging watches end by themselves within the timeout.
      options.timeout_seconds = watch_timeout_seconds();
      options.allow_watch_bookmarks = true;
      auto opened = lw_.watch(options);
      if (!opened.ok()) {
        if (is_watch_error_retriable(opened.error())) {
          log(LogLevel::kDebug, options_.name + ": watch of " + options_.type_description +
                                    " returned " + opened.error().message + " - backing off");
          if (!sleep_for(backoff_.next(), stop)) return {};
          continue;
        }
        return fail(opened.error());
      }
      w = std::move(opened).value();
    }
    WatchOutcome out = handle_watch(
        *w, store_, [this](std::string rv) { set_last_sync_resource_version(std::move(rv)); },
        false, stop);
    w->stop();
    w.reset();
    retry.after(out.kind == WatchOutcome::kError ? &out.error : nullptr);
    if (out.kind == WatchOutcome::kStopped) return {};
    if (out.kind == WatchOutcome::kError) {
      const api::Status& err = out.error;
      if (is_expired_error(err)) {
        // The RV stays usable: the re-list asks for data at least as new as it.
        log(LogLevel::kDebug, options_.name + ": watch of " + options_.type_description +
                                  " closed with: " + err.message);
      } else if (is_too_many_requests(err)) {
        log(LogLevel::kInfo, options_.name + ": watch of " + options_.type_description +
                                 " returned 429 - backing off");
        if (!sleep_for(backoff_.next(), stop)) return {};
        continue;
      } else if (is_internal_error(err) && retry.should_retry()) {
        log(LogLevel::kInfo, options_.name + ": retrying watch of " + options_.type_description +
                                 " internal error: " + err.message);
        continue;
      } else {
        log(LogLevel::kWarning, options_.name + ": watch of " + options_.type_description +
                                    " ended with: " + err.message);
      }
      return {};  // re-list
    }
    // A normal close (timeoutSeconds): watch again from the last RV.
  }
}

}  // namespace kcm::cache
