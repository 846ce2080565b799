#include "bench/collection_watch.h"

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <mutex>

namespace kcm::bench {

namespace json = boost::json;
using namespace std::chrono_literals;

struct CollectionWatch::State {
  std::string collection;
  Handler handler;
  std::unique_ptr<HttpsConnection> conn;
  std::atomic<bool> stopping{false};
  std::atomic<std::size_t> relists{0};
  mutable std::mutex mu;
  std::string last_error;
  std::string resource_version;
  std::promise<Result<void>> started;
  bool started_set = false;
  std::future<void> loop_done;

  void note_error(std::string e) {
    std::lock_guard lock(mu);
    last_error = std::move(e);
  }

  void set_started(Result<void> r) {
    if (started_set) return;
    started_set = true;
    started.set_value(std::move(r));
  }

  static std::string rv_of(const json::object& o) {
    const json::value* meta = o.if_contains("metadata");
    if (meta == nullptr || !meta->is_object()) return {};
    const json::value* rv = meta->get_object().if_contains("resourceVersion");
    return rv != nullptr && rv->is_string() ? std::string(rv->get_string()) : std::string();
  }

  // GET the collection; every item as kAdded.
  net::awaitable<Result<void>> list() {
    auto res = co_await conn->request(http::verb::get, collection);
    if (!res) co_return fail("list " + collection + ": " + res.error());
    if (res->status != 200) {
      co_return fail("list " + collection + ": HTTP " + std::to_string(res->status) + " " +
                     res->body.substr(0, 300));
    }
    boost::system::error_code ec;
    json::value v = json::parse(res->body, ec);
    if (ec || !v.is_object()) co_return fail("list " + collection + ": not a JSON object");
    resource_version = rv_of(v.get_object());
    if (const json::value* items = v.get_object().if_contains("items");
        items != nullptr && items->is_array()) {
      for (const auto& item : items->get_array()) {
        if (item.is_object()) handler(WatchEventType::kAdded, item.get_object());
      }
    }
    co_return Result<void>();
  }

  // Handles one line of the stream; false ends the stream (a 410 ERROR).
  bool on_line(std::string_view line, bool* gone) {
    if (line.empty()) return true;
    boost::system::error_code ec;
    json::value v = json::parse(line, ec);
    if (ec || !v.is_object()) {
      note_error("undecodable watch line: " + std::string(line.substr(0, 200)));
      return true;
    }
    const json::object& event = v.get_object();
    const json::value* type = event.if_contains("type");
    const json::value* object = event.if_contains("object");
    if (type == nullptr || !type->is_string() || object == nullptr || !object->is_object()) {
      return true;
    }
    const std::string_view t = type->get_string();
    const json::object& obj = object->get_object();
    if (t == "ERROR") {
      note_error("watch ERROR: " + json::serialize(obj).substr(0, 300));
      *gone = true;
      return false;
    }
    if (const std::string rv = rv_of(obj); !rv.empty()) resource_version = rv;
    if (t == "ADDED") {
      handler(WatchEventType::kAdded, obj);
    } else if (t == "MODIFIED") {
      handler(WatchEventType::kModified, obj);
    } else if (t == "DELETED") {
      handler(WatchEventType::kDeleted, obj);
    }
    return true;  // BOOKMARK: only the resourceVersion
  }

  net::awaitable<void> pause() {
    net::steady_timer timer(conn->executor(), 100ms);
    boost::system::error_code ec;
    co_await timer.async_wait(net::redirect_error(net::use_awaitable, ec));
  }

  net::awaitable<void> loop() {
    bool need_list = true;
    while (!stopping) {
      if (need_list) {
        auto listed = co_await list();
        if (stopping) co_return;
        if (!listed) {
          if (!started_set) {
            set_started(fail(listed.error()));
            co_return;
          }
          note_error(listed.error());
          co_await pause();
          continue;
        }
        need_list = false;
      }
      const std::string target =
          collection + "?watch=1&allowWatchBookmarks=true&resourceVersion=" + resource_version;
      auto opened = co_await conn->open_stream(target);
      if (stopping) co_return;
      if (!opened) {
        if (!started_set) {
          set_started(fail("watch " + collection + ": " + opened.error()));
          co_return;
        }
        note_error(opened.error());
        ++relists;
        need_list = true;  // e.g. 410: the resourceVersion is too old
        co_await pause();
        continue;
      }
      set_started(Result<void>());
      bool gone = false;
      auto read = co_await conn->read_lines(
          [&](std::string_view line) { return !stopping && on_line(line, &gone); });
      if (stopping) co_return;
      if (!read) {
        note_error(read.error());
        ++relists;
        need_list = true;
      } else if (gone) {
        ++relists;
        need_list = true;
      }
      conn->close();  // a stream stopped midway cannot carry further requests
    }
  }

  // The loop, with any exception turned into an error (so start() never hangs).
  net::awaitable<void> run() {
    try {
      co_await loop();
    } catch (const std::exception& e) {
      note_error(e.what());
      set_started(fail(std::string("watch ") + collection + ": " + e.what()));
    }
    set_started(fail("watch " + collection + " stopped"));
  }
};

CollectionWatch::CollectionWatch(std::shared_ptr<State> state) : state_(std::move(state)) {}

Result<std::unique_ptr<CollectionWatch>> CollectionWatch::start(ApiClient& api,
                                                                std::string collection,
                                                                Handler handler) {
  auto state = std::make_shared<State>();
  state->collection = std::move(collection);
  state->handler = std::move(handler);
  state->conn = std::make_unique<HttpsConnection>(api.make_strand(), api.tls(), api.endpoint());
  auto started = state->started.get_future();
  State* s = state.get();
  state->loop_done = net::co_spawn(state->conn->executor(), s->run(), net::use_future);
  auto ok = started.get();
  std::unique_ptr<CollectionWatch> watch(new CollectionWatch(state));  // private constructor
  if (!ok) {
    watch->stop();
    return fail(ok.error());
  }
  return watch;
}

CollectionWatch::~CollectionWatch() {
  stop();
}

void CollectionWatch::stop() {
  if (!state_ || !state_->loop_done.valid()) return;
  state_->stopping = true;
  HttpsConnection* conn = state_->conn.get();
  net::post(conn->executor(), [conn] { conn->close(); });
  try {
    state_->loop_done.get();
  } catch (const std::exception& e) {
    state_->note_error(e.what());
  }
}

std::size_t CollectionWatch::relists() const {
  return state_->relists;
}

std::string CollectionWatch::last_error() const {
  std::lock_guard lock(state_->mu);
  return state_->last_error;
}

}  // namespace kcm::bench
