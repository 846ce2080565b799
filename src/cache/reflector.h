// The reflector: lists a resource, then watches it from the list's
// resourceVersion, writing every change into a ReflectorStore (the informer's
// delta queue); re-lists after 410 Gone and other watch failures with
// upstream's back-off (client-go tools/cache/reflector.go; spec §6.1).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "cache/backoff.h"
#include "cache/delta.h"
#include "cache/lister_watcher.h"

namespace kcm::cache {

// Turns a listed or watched object into its cached form (the informer's
// transform and codec). An error skips a watched object and fails a list.
using ObjectDecoder = std::function<Result<ObjectPtr>(api::json::value&& obj)>;

// The annotation of the bookmark that ends a streamed initial list.
inline constexpr std::string_view kInitialEventsEndAnnotation = "k8s.io/initial-events-end";

struct ReflectorOptions {
  std::string name = "reflector";            // for logs, e.g. "pods"
  std::string type_description = "objects";  // upstream's expected type name, e.g. "*v1.Pod"
  // How often to ask should_resync() (0: never).
  std::chrono::milliseconds resync_period{0};
  std::function<bool()> should_resync;  // empty: always
  // upstream WatchListPageSize: 0 picks 500 or none (see list()).
  std::int64_t page_size = 0;
  // Streaming initial list (sendInitialEvents); falls back to LIST on errors.
  bool use_watch_list = false;
  // Watches ask for a random timeoutSeconds in [min, 2*min).
  std::chrono::milliseconds min_watch_timeout = std::chrono::minutes(5);
  Backoff::Options backoff;
  // How long watches that end with 500 InternalError are retried without a re-list.
  std::chrono::milliseconds max_internal_error_retry_duration{0};
  ObjectDecoder decode;  // empty: CachedObject::from_json without compression
  // Called when a list-and-watch attempt fails (empty: upstream's default logging).
  std::function<void(const api::Status& error)> watch_error_handler;
};

class Reflector {
 public:
  // `lw` and `store` must outlive the reflector.
  Reflector(ListerWatcher& lw, ReflectorStore& store, ReflectorOptions options);

  // List-and-watch until stop is requested, backing off between attempts.
  void run(std::stop_token stop);
  // One attempt: list (or stream the initial list), then watch until the
  // watch fails. Returns normally when stopped or when a re-list is due.
  Result<void, api::Status> list_and_watch(std::stop_token stop);

  std::string last_sync_resource_version() const;
  const ReflectorOptions& options() const { return options_; }

 private:
  struct WatchOutcome;

  Result<void, api::Status> list(std::stop_token stop);
  // The watch kept open after a streamed list, null when stopped.
  Result<std::unique_ptr<client::WatchStream>, api::Status> watch_list(std::stop_token stop,
                                                                       bool* stopped);
  Result<void, api::Status> watch(std::unique_ptr<client::WatchStream> w, std::stop_token stop);
  WatchOutcome handle_watch(client::WatchStream& w, ReflectorStore& store,
                            const std::function<void(std::string)>& set_rv,
                            bool exit_on_initial_events_end, std::stop_token stop);
  Result<std::vector<ObjectPtr>, api::Status> paged_list(client::ListOptions options,
                                                         std::int64_t page_size, std::string* rv,
                                                         bool* paginated);

  std::string relist_resource_version() const;
  std::string rewatch_resource_version() const;
  void set_last_sync_resource_version(std::string rv);
  void set_unavailable(bool unavailable);
  std::int64_t watch_timeout_seconds();
  Result<ObjectPtr> decode(api::json::value&& obj) const;

  ListerWatcher& lw_;
  ReflectorStore& store_;
  const ReflectorOptions options_;
  Backoff backoff_;

  mutable std::mutex mu_;
  std::string last_sync_rv_;
  bool last_sync_rv_unavailable_ = false;
  bool paginated_result_ = false;
  std::mt19937_64 rng_;
};

// API error classes the reflector branches on (upstream apierrors predicates).
bool is_expired_error(const api::Status& s);  // 410 Gone or Expired
bool is_too_large_resource_version_error(const api::Status& s);
bool is_too_many_requests(const api::Status& s);
bool is_internal_error(const api::Status& s);
bool is_not_found(const api::Status& s);

}  // namespace kcm::cache
