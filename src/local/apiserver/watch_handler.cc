// Watches: a chunked stream of {"type":...,"object":...} events, fed by the
// store in revision order, filtered by the request's selectors (an object
// that stops matching is sent as DELETED), with bookmarks and timeouts.
#include <fmt/format.h>

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>
#include <deque>
#include <mutex>
#include <random>

#include "local/apiserver/api_handler.h"
#include "local/apiserver/partial_object_metadata.h"
#include "local/apiserver/stored_codec.h"

namespace kcm::local::apiserver {

using namespace std::chrono_literals;
using namespace boost::asio::experimental::awaitable_operators;

namespace {

// Receives events on the store's thread and wakes the watch coroutine.
class WatchQueue final : public storage::WatchSink {
 public:
  WatchQueue(net::any_io_executor executor, std::weak_ptr<net::steady_timer> timer)
      : executor_(std::move(executor)), timer_(std::move(timer)) {}

  void deliver(const storage::Event& event) override {
    std::lock_guard lock(mu_);
    if (overflowed_) return;
    if (events_.size() >= kMaxQueuedEvents) {
      // A watcher this far behind is closed, as upstream does; its client
      // relists and watches again.
      overflowed_ = true;
      events_.clear();
    } else {
      events_.push_back(event);
    }
    if (!wake_pending_) {
      wake_pending_ = true;
      net::post(executor_, [timer = timer_] {
        if (auto t = timer.lock()) t->cancel();
      });
    }
  }

  // Checked right before sleeping, in the same strand turn: a wake-up posted
  // after this check runs after the wait is armed, so none is lost.
  bool has_pending() {
    std::lock_guard lock(mu_);
    return !events_.empty();
  }

  std::deque<storage::Event> take() {
    std::lock_guard lock(mu_);
    wake_pending_ = false;
    return std::exchange(events_, {});
  }

  bool overflowed() {
    std::lock_guard lock(mu_);
    return overflowed_;
  }

 private:
  net::any_io_executor executor_;
  std::weak_ptr<net::steady_timer> timer_;
  std::mutex mu_;
  static constexpr std::size_t kMaxQueuedEvents = 100000;
  std::deque<storage::Event> events_;
  bool wake_pending_ = false;
  bool overflowed_ = false;
};

std::string event_line(std::string_view type, std::string_view object_json) {
  std::string line;
  line.reserve(object_json.size() + 32);
  line += R"({"type":")";
  line += type;
  line += R"(","object":)";
  line += object_json;
  line += "}\n";
  return line;
}

std::string with_revision(const storage::StoredObject& object, std::uint64_t revision) {
  json::object o = parse_stored(object);
  api::ensure_object(o, "metadata")["resourceVersion"] = std::to_string(revision);
  return json::serialize(o);
}

// A bookmark: an empty object of the watched kind, or its
// PartialObjectMetadata when `partial_api_version` is given.
std::string bookmark_line(const registry::ResourceInfo& info, std::uint64_t revision,
                          bool initial_events_end, std::string_view partial_api_version) {
  json::object meta{{"resourceVersion", std::to_string(revision)}, {"creationTimestamp", nullptr}};
  if (initial_events_end) {
    meta["annotations"] = json::object{{"k8s.io/initial-events-end", "true"}};
  }
  json::object object{
      {"kind", info.kind}, {"apiVersion", info.api_version()}, {"metadata", std::move(meta)}};
  if (!partial_api_version.empty()) {
    object = as_partial_object_metadata(object, partial_api_version);
  }
  return event_line("BOOKMARK", json::serialize(object));
}

}  // namespace

net::awaitable<void> ApiHandler::watch(Call& call) {
  auto request = list_request(call);
  if (!request) {
    co_await reply_error(call.ex, request.error());
    co_return;
  }
  auto table = table_options(call);
  if (!table) {
    co_await reply_error(call.ex, table.error());
    co_return;
  }
  const ResourceInfo& info = *call.resource;
  const std::string rv = call.param("resourceVersion");
  const bool bookmarks = call.bool_param("allowWatchBookmarks").value_or(false);
  const std::optional<bool> send_initial = call.bool_param("sendInitialEvents");
  api::FieldErrors errs;
  // Given at all (upstream's pointer is not nil), whether true or false.
  if (send_initial) {
    if (request->resource_version_match != "NotOlderThan") {
      errs.push_back(api::forbidden("resourceVersionMatch",
                                    "sendInitialEvents requires setting resourceVersionMatch to "
                                    "NotOlderThan"));
    }
    if (!bookmarks) {
      errs.push_back(api::forbidden(
          "allowWatchBookmarks", "sendInitialEvents requires setting allowWatchBookmarks to true"));
    }
  } else if (!request->resource_version_match.empty()) {
    errs.push_back(api::forbidden("resourceVersionMatch",
                                  "resourceVersionMatch is forbidden for watch unless "
                                  "sendInitialEvents is provided"));
  }
  if (!errs.empty()) {
    // (Built outside the co_await: GCC 12 miscompiles braced lists in coroutine calls.)
    const api::Status invalid = api::invalid({"meta.k8s.io", "ListOptions"}, "", errs);
    co_await reply_error(call.ex, invalid);
    co_return;
  }
  std::optional<std::uint64_t> from;
  if (!rv.empty() && rv != "0") {
    if (rv.size() > 19 || rv.find_first_not_of("0123456789") != std::string::npos) {
      co_await reply_error(call.ex, api::bad_request("invalid resource version: " + rv));
      co_return;
    }
    from = std::stoull(rv);
  }
  // Initial state: rv unset or "0" (unless sendInitialEvents=false), or
  // sendInitialEvents=true.
  const bool initial_state = send_initial ? *send_initial : !from;
  if (initial_state) from.reset();
  std::chrono::seconds timeout(0);
  if (call.has_param("timeoutSeconds")) {
    const std::string t = call.param("timeoutSeconds");
    if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos) {
      co_await reply_error(call.ex, api::bad_request("invalid timeoutSeconds: " + t));
      co_return;
    }
    timeout = std::chrono::seconds(std::stoll(t));
  }
  if (timeout.count() == 0) {
    // Upstream closes idle watches after the minimum request timeout, randomized.
    static thread_local std::mt19937 rng{std::random_device{}()};
    timeout = std::chrono::seconds(1800 + std::uniform_int_distribution<int>(0, 1799)(rng));
  }
  std::string name_filter = call.info.name;  // the deprecated /watch/.../<name> form

  auto executor = co_await net::this_coro::executor;
  auto timer = std::make_shared<net::steady_timer>(executor);
  auto queue = std::make_shared<WatchQueue>(executor, timer);
  storage::Store::WatchOptions options;
  options.resource = rest_.resource_id(info);
  if (info.namespaced && !call.info.namespace_.empty())
    options.key_prefix = call.info.namespace_ + "/";
  options.from_revision = from;
  options.initial_state = initial_state;
  auto handle = rest_.store().watch(options, queue);

  const std::string_view content_type =
      *table ? "application/json;as=Table;v=v1;g=meta.k8s.io" : "application/json";
  // Events carry PartialObjectMetadata when asked for; a PartialObjectMetadataList
  // cannot be made of one object, so upstream sends those objects unconverted.
  const std::string partial_api_version = call.output.shape == OutputShape::kPartialObjectMetadata
                                              ? call.output.meta_api_version()
                                              : "";
  if (!co_await call.ex.start_stream(http::status::ok, content_type)) co_return;
  if (!handle) {
    const std::uint64_t compacted = rest_.store().compacted_revision(options.resource);
    api::Status expired =
        api::expired(fmt::format("too old resource version: {} ({})", from.value_or(0), compacted));
    co_await call.ex.write_chunk(event_line("ERROR", json::serialize(expired.to_json())));
    co_await call.ex.finish_stream();
    co_return;
  }

  const auto predicate = request->predicate;
  auto matches = [&](const storage::StoredObject& o) {
    if (!name_filter.empty() && o.name != name_filter) return false;
    return !predicate || predicate(o);
  };
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto next_bookmark = std::chrono::steady_clock::now() + 60s;
  std::uint64_t progress = (*handle)->start_revision();
  bool initial_end_pending = send_initial.value_or(false);

  // In Table mode each event carries a one-row Table; headers go out once.
  std::optional<printers::TableOptions> table_mode = *table;
  auto encode = [&](const storage::ObjectPtr& stored) -> std::string {
    const storage::ObjectPtr object = rest_.present(info, stored);
    if (!partial_api_version.empty()) {
      return json::serialize(
          as_partial_object_metadata(parse_stored(*object), partial_api_version));
    }
    if (!table_mode) return object->json;
    std::string out =
        render_table(call, *table_mode, {object.get()}, std::to_string(object->revision), "");
    table_mode->no_headers = true;
    return out;
  };
  // A previous state sent as DELETED carries the event's resourceVersion.
  auto encode_prev = [&](const storage::ObjectPtr& prev, std::uint64_t revision) {
    auto copy = std::make_shared<storage::StoredObject>(*prev);
    copy->json = with_revision(*prev, revision);
    copy->revision = revision;
    return encode(copy);
  };
  auto stream = [&]() -> net::awaitable<void> {
    for (;;) {
      if (queue->overflowed()) co_return;
      std::string chunk;
      for (const storage::Event& e : queue->take()) {
        progress = std::max(progress, e.revision);
        const bool now = e.type != storage::EventType::kDeleted && matches(*e.object);
        const bool before = e.prev && matches(*e.prev);
        if (e.type == storage::EventType::kDeleted) {
          if (before || matches(*e.object)) chunk += event_line("DELETED", encode(e.object));
        } else if (now && before) {
          chunk += event_line("MODIFIED", encode(e.object));
        } else if (now) {
          chunk += event_line("ADDED", encode(e.object));
        } else if (before) {
          chunk += event_line("DELETED", encode_prev(e.prev, e.revision));
        }
      }
      if (initial_end_pending) {
        initial_end_pending = false;
        chunk += bookmark_line(info, progress, true, partial_api_version);
      }
      const auto now = std::chrono::steady_clock::now();
      if (bookmarks && now >= next_bookmark) {
        chunk += bookmark_line(info, progress, false, partial_api_version);
        next_bookmark = now + 60s;
      }
      if (!chunk.empty() && !co_await call.ex.write_chunk(std::move(chunk))) co_return;
      if (now >= deadline) co_return;
      if (queue->has_pending() || queue->overflowed()) continue;
      timer->expires_at(bookmarks ? std::min(deadline, next_bookmark) : deadline);
      boost::system::error_code ec;
      co_await timer->async_wait(net::redirect_error(net::use_awaitable, ec));
    }
  };
  co_await (stream() || call.ex.wait_closed());
  handle->reset();  // unregister before the queue and timer go away
  co_await call.ex.finish_stream();
}

}  // namespace kcm::local::apiserver
