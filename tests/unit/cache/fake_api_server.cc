#include "fake_api_server.h"

#include <algorithm>

#include "api/labels.h"

namespace kcm::cache::testing {

using client::WatchEvent;
using client::WatchEventType;
using NextResult = Result<std::optional<WatchEvent>, api::Status>;

json::value make_object(const std::string& ns, const std::string& name,
                        const std::map<std::string, std::string>& labels) {
  json::object meta;
  meta["name"] = name;
  if (!ns.empty()) meta["namespace"] = ns;
  if (!labels.empty()) {
    json::object l;
    for (const auto& [k, v] : labels)
      l[k] = v;
    meta["labels"] = std::move(l);
  }
  json::object o;
  o["apiVersion"] = "v1";
  o["kind"] = "Pod";
  o["metadata"] = std::move(meta);
  o["spec"] = json::object{{"nodeName", "node-1"}};
  return o;
}

namespace {

std::string key_of(const json::value& obj) {
  const auto ns = api::as_string_view(api::find_path(obj, {"metadata", "namespace"}));
  const auto name = api::as_string_view(api::find_path(obj, {"metadata", "name"}));
  return ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
}

void set_rv(json::value& obj, std::int64_t rv) {
  obj.as_object()["metadata"].as_object()["resourceVersion"] = std::to_string(rv);
}

std::int64_t parse_rv(const std::string& s) {
  return s.empty() ? 0 : std::stoll(s);
}

api::Status expired(std::string message) {
  api::Status s = api::expired(std::move(message));
  return s;
}

}  // namespace

struct FakeApiServer::Channel {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<NextResult> queue;
  bool stopped = false;
  bool ended = false;  // a terminal entry is queued
  bool bookmarks = false;
  std::string selector;

  void push(NextResult r, bool terminal = false) {
    std::lock_guard lock(mu);
    if (ended || stopped) return;
    queue.push_back(std::move(r));
    if (terminal) ended = true;
    cv.notify_all();
  }
  bool open() {
    std::lock_guard lock(mu);
    return !ended && !stopped;
  }
};

namespace {

class FakeWatchStream : public client::WatchStream {
 public:
  explicit FakeWatchStream(std::shared_ptr<FakeApiServer::Channel> c) : c_(std::move(c)) {}
  ~FakeWatchStream() override { stop(); }
  NextResult next() override {
    std::unique_lock lock(c_->mu);
    c_->cv.wait(lock, [&] { return c_->stopped || !c_->queue.empty(); });
    if (c_->stopped) return std::optional<WatchEvent>();
    NextResult r = std::move(c_->queue.front());
    c_->queue.pop_front();
    return r;
  }
  void stop() override {
    std::lock_guard lock(c_->mu);
    c_->stopped = true;
    c_->cv.notify_all();
  }

 private:
  std::shared_ptr<FakeApiServer::Channel> c_;
};

}  // namespace

FakeApiServer::FakeApiServer() = default;
FakeApiServer::~FakeApiServer() = default;

std::vector<std::shared_ptr<FakeApiServer::Channel>> FakeApiServer::live_channels_locked() {
  std::vector<std::shared_ptr<Channel>> out;
  std::erase_if(channels_, [&](const std::weak_ptr<Channel>& w) {
    auto c = w.lock();
    if (!c || !c->open()) return true;
    out.push_back(std::move(c));
    return false;
  });
  return out;
}

bool FakeApiServer::selected(const client::ListOptions& options, const json::value& obj) const {
  if (options.label_selector.empty()) return true;
  auto sel = api::labels::parse(options.label_selector);
  if (!sel.ok()) return false;
  const json::value* labels = api::find_path(obj, {"metadata", "labels"});
  static const json::object kEmpty;
  return api::labels::matches(*sel, labels && labels->is_object() ? labels->get_object() : kEmpty);
}

void FakeApiServer::record_locked(WatchEventType type, const json::value& obj) {
  history_.push_back({rv_, type, obj});
  if (partitioned_) return;
  for (auto& c : live_channels_locked()) {
    client::ListOptions o;
    o.label_selector = c->selector;
    if (!selected(o, obj)) continue;
    c->push(std::optional<WatchEvent>(WatchEvent{type, obj}));
  }
}

json::value FakeApiServer::create(json::value obj) {
  return update(std::move(obj));
}

json::value FakeApiServer::update(json::value obj) {
  std::lock_guard lock(mu_);
  const std::string key = key_of(obj);
  auto it = objects_.find(key);
  const bool exists = it != objects_.end();
  auto& meta = obj.as_object()["metadata"].as_object();
  if (exists) {
    meta["uid"] = it->second.at("metadata").at("uid");
  } else if (!meta.contains("uid")) {
    meta["uid"] = "uid-" + std::to_string(next_uid_++);
  }
  ++rv_;
  set_rv(obj, rv_);
  objects_[key] = obj;
  record_locked(exists ? WatchEventType::kModified : WatchEventType::kAdded, obj);
  return obj;
}

bool FakeApiServer::remove(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mu_);
  auto it = objects_.find(ns.empty() ? name : ns + "/" + name);
  if (it == objects_.end()) return false;
  json::value obj = std::move(it->second);
  objects_.erase(it);
  ++rv_;
  set_rv(obj, rv_);
  record_locked(WatchEventType::kDeleted, obj);
  return true;
}

std::int64_t FakeApiServer::resource_version() const {
  std::lock_guard lock(mu_);
  return rv_;
}

std::map<std::string, json::value> FakeApiServer::objects() const {
  std::lock_guard lock(mu_);
  return objects_;
}

void FakeApiServer::compact() {
  std::lock_guard lock(mu_);
  compacted_rv_ = rv_;
  history_.clear();
}

void FakeApiServer::expire_continue_tokens() {
  std::lock_guard lock(mu_);
  snapshots_.clear();
}

void FakeApiServer::break_watches(const api::Status& error) {
  std::lock_guard lock(mu_);
  for (auto& c : live_channels_locked())
    c->push(fail(error), true);
}

void FakeApiServer::close_watches() {
  std::lock_guard lock(mu_);
  for (auto& c : live_channels_locked())
    c->push(std::optional<WatchEvent>(), true);
}

void FakeApiServer::send_bookmark() {
  std::lock_guard lock(mu_);
  json::value b = {{"kind", "Pod"},
                   {"apiVersion", "v1"},
                   {"metadata", {{"resourceVersion", std::to_string(rv_)}}}};
  for (auto& c : live_channels_locked()) {
    if (c->bookmarks) c->push(std::optional<WatchEvent>(WatchEvent{WatchEventType::kBookmark, b}));
  }
}

void FakeApiServer::fail_next_lists(const api::Status& error, int n) {
  std::lock_guard lock(mu_);
  for (int i = 0; i < n; ++i)
    list_failures_.push_back(error);
}

void FakeApiServer::fail_next_watches(const api::Status& error, int n) {
  std::lock_guard lock(mu_);
  for (int i = 0; i < n; ++i)
    watch_failures_.push_back(error);
}

void FakeApiServer::set_partitioned(bool v) {
  std::lock_guard lock(mu_);
  partitioned_ = v;
}

void FakeApiServer::set_supports_watch_list(bool v) {
  std::lock_guard lock(mu_);
  supports_watch_list_ = v;
}

std::vector<client::ListOptions> FakeApiServer::list_calls() const {
  std::lock_guard lock(mu_);
  return list_calls_;
}

std::vector<client::ListOptions> FakeApiServer::watch_calls() const {
  std::lock_guard lock(mu_);
  return watch_calls_;
}

std::size_t FakeApiServer::open_watches() const {
  std::lock_guard lock(mu_);
  std::size_t n = 0;
  for (const auto& w : channels_) {
    if (auto c = w.lock(); c && c->open()) ++n;
  }
  return n;
}

Result<ListPage, api::Status> FakeApiServer::list(const client::ListOptions& options) {
  std::lock_guard lock(mu_);
  list_calls_.push_back(options);
  if (partitioned_) {
    return fail(api::service_unavailable("dial tcp 127.0.0.1:6443: connect: connection refused"));
  }
  if (!list_failures_.empty()) {
    api::Status e = list_failures_.front();
    list_failures_.pop_front();
    return fail(e);
  }
  Snapshot* snap = nullptr;
  std::size_t offset = 0;
  Snapshot fresh;
  if (!options.continue_token.empty()) {
    const auto colon = options.continue_token.find(':');
    const std::int64_t id = std::stoll(options.continue_token.substr(0, colon));
    offset = std::stoul(options.continue_token.substr(colon + 1));
    auto it = snapshots_.find(id);
    if (it == snapshots_.end()) {
      return fail(
          expired("The provided continue parameter is too old to display a consistent "
                  "list result."));
    }
    snap = &it->second;
  } else {
    const std::int64_t want = parse_rv(options.resource_version);
    if (want > rv_) {
      api::Status s = api::timeout("Too large resource version: " + std::to_string(want) +
                                       ", current: " + std::to_string(rv_),
                                   1);
      s.details = api::StatusDetails{};
      s.details->causes.push_back({"ResourceVersionTooLarge", "Too large resource version", ""});
      return fail(s);
    }
    fresh.rv = rv_;
    for (const auto& [key, obj] : objects_) {
      if (selected(options, obj)) fresh.items.push_back(obj);
    }
    snap = &fresh;
  }
  ListPage page;
  page.resource_version = std::to_string(snap->rv);
  const std::size_t end =
      options.limit > 0
          ? std::min(snap->items.size(), offset + static_cast<std::size_t>(options.limit))
          : snap->items.size();
  page.items.assign(snap->items.begin() + static_cast<std::ptrdiff_t>(offset),
                    snap->items.begin() + static_cast<std::ptrdiff_t>(end));
  if (end < snap->items.size()) {
    std::int64_t id;
    if (snap == &fresh) {
      id = next_snapshot_++;
      snapshots_[id] = std::move(fresh);
    } else {
      id = std::stoll(options.continue_token.substr(0, options.continue_token.find(':')));
    }
    page.continue_token = std::to_string(id) + ":" + std::to_string(end);
  }
  return page;
}

Result<std::unique_ptr<client::WatchStream>, api::Status> FakeApiServer::watch(
    const client::ListOptions& options) {
  std::lock_guard lock(mu_);
  watch_calls_.push_back(options);
  if (partitioned_) {
    return fail(api::service_unavailable("dial tcp 127.0.0.1:6443: connect: connection refused"));
  }
  if (!watch_failures_.empty()) {
    api::Status e = watch_failures_.front();
    watch_failures_.pop_front();
    return fail(e);
  }
  const bool initial_events = options.send_initial_events.value_or(false);
  if (initial_events && !supports_watch_list_) {
    return fail(api::bad_request("sendInitialEvents is not supported"));
  }
  auto c = std::make_shared<Channel>();
  c->bookmarks = options.allow_watch_bookmarks;
  c->selector = options.label_selector;
  const std::int64_t from = parse_rv(options.resource_version);
  const bool synthetic =
      initial_events || options.resource_version.empty() || options.resource_version == "0";
  if (synthetic) {
    for (const auto& [key, obj] : objects_) {
      if (selected(options, obj))
        c->push(std::optional<WatchEvent>(WatchEvent{WatchEventType::kAdded, obj}));
    }
    if (initial_events) {
      json::value b = {{"kind", "Pod"},
                       {"apiVersion", "v1"},
                       {"metadata",
                        {{"resourceVersion", std::to_string(rv_)},
                         {"annotations", {{"k8s.io/initial-events-end", "true"}}}}}};
      c->push(std::optional<WatchEvent>(WatchEvent{WatchEventType::kBookmark, b}));
    }
  } else if (from < compacted_rv_) {
    api::Status s = expired("too old resource version: " + std::to_string(from) + " (" +
                            std::to_string(compacted_rv_) + ")");
    c->push(std::optional<WatchEvent>(WatchEvent{WatchEventType::kError, s.to_json()}));
  } else if (from > rv_) {
    api::Status s = api::timeout(
        "Too large resource version: " + std::to_string(from) + ", current: " + std::to_string(rv_),
        1);
    return fail(s);
  } else {
    for (const Event& e : history_) {
      if (e.rv > from && selected(options, e.object)) {
        c->push(std::optional<WatchEvent>(WatchEvent{e.type, e.object}));
      }
    }
  }
  channels_.push_back(c);
  return std::unique_ptr<client::WatchStream>(std::make_unique<FakeWatchStream>(c));
}

}  // namespace kcm::cache::testing
