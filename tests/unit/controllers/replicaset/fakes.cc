#include "fakes.h"

#include <algorithm>

namespace kcm::controllers::replicaset::testing {

using client::WatchEvent;
using client::WatchEventType;
using NextResult = Result<std::optional<WatchEvent>, api::Status>;

namespace {

std::string key_of(const json::value& obj) {
  const auto ns = api::as_string_view(api::find_path(obj, {"metadata", "namespace"}));
  const auto name = api::as_string_view(api::find_path(obj, {"metadata", "name"}));
  return ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
}

}  // namespace

struct FakeResource::Channel {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<WatchEvent> queue;
  bool stopped = false;
  void push(const WatchEvent& e) {
    const std::lock_guard lock(mu);
    queue.push_back(e);
    cv.notify_all();
  }
};

namespace {

class FakeWatchStream : public client::WatchStream {
 public:
  explicit FakeWatchStream(std::shared_ptr<FakeResource::Channel> c) : c_(std::move(c)) {}
  ~FakeWatchStream() override { stop(); }
  NextResult next() override {
    std::unique_lock lock(c_->mu);
    c_->cv.wait(lock, [&] { return c_->stopped || !c_->queue.empty(); });
    if (c_->stopped) return std::optional<WatchEvent>();
    WatchEvent e = std::move(c_->queue.front());
    c_->queue.pop_front();
    return std::optional<WatchEvent>(std::move(e));
  }
  void stop() override {
    const std::lock_guard lock(c_->mu);
    c_->stopped = true;
    c_->cv.notify_all();
  }

 private:
  std::shared_ptr<FakeResource::Channel> c_;
};

}  // namespace

FakeResource::FakeResource() = default;
FakeResource::~FakeResource() = default;

json::value FakeResource::write_locked(json::value obj, WatchEventType type) {
  json::object& meta = api::ensure_object(obj.as_object(), "metadata");
  if (!api::find_string(meta, "uid")) {
    meta["uid"] = "uid-" + std::string(api::find_string(meta, "name").value_or(""));
  }
  meta["resourceVersion"] = std::to_string(++rv_);
  const std::string key = key_of(obj);
  if (type == WatchEventType::kDeleted) {
    objects_.erase(key);
  } else {
    objects_[key] = obj;
  }
  const WatchEvent event{type, obj};
  history_.emplace_back(rv_, event);
  std::erase_if(channels_, [&](const std::weak_ptr<Channel>& w) {
    auto c = w.lock();
    if (!c) return true;
    c->push(event);
    return false;
  });
  return obj;
}

json::value FakeResource::create(json::value obj) {
  const std::lock_guard lock(mu_);
  const bool exists = objects_.contains(key_of(obj));
  return write_locked(std::move(obj), exists ? WatchEventType::kModified : WatchEventType::kAdded);
}

json::value FakeResource::update(json::value obj) {
  return create(std::move(obj));
}

bool FakeResource::remove(const std::string& key) {
  const std::lock_guard lock(mu_);
  const auto it = objects_.find(key);
  if (it == objects_.end()) return false;
  write_locked(it->second, WatchEventType::kDeleted);
  return true;
}

std::optional<json::value> FakeResource::get(const std::string& key) const {
  const std::lock_guard lock(mu_);
  const auto it = objects_.find(key);
  if (it == objects_.end()) return std::nullopt;
  return it->second;
}

Result<cache::ListPage, api::Status> FakeResource::list(const client::ListOptions&) {
  const std::lock_guard lock(mu_);
  cache::ListPage page;
  for (const auto& [key, obj] : objects_)
    page.items.push_back(obj);
  page.resource_version = std::to_string(rv_);
  return page;
}

Result<std::unique_ptr<client::WatchStream>, api::Status> FakeResource::watch(
    const client::ListOptions& options) {
  const std::lock_guard lock(mu_);
  auto channel = std::make_shared<Channel>();
  const std::int64_t from =
      options.resource_version.empty() ? rv_ : std::stoll(options.resource_version);
  for (const auto& [rv, event] : history_) {
    if (rv > from) channel->push(event);
  }
  channels_.push_back(channel);
  return std::unique_ptr<client::WatchStream>(std::make_unique<FakeWatchStream>(channel));
}

Result<void, api::Status> FakePodControl::create_pod(std::string_view namespace_,
                                                     const json::object& pod, const json::object&) {
  std::shared_ptr<FakeResource> store;
  json::value stored;
  {
    const std::lock_guard lock(mu);
    ++create_calls_;
    if (create_limit != 0 && create_calls_ > create_limit) {
      return fail(api::internal_error("not creating pod, limit " + std::to_string(create_limit) +
                                      " already reached (create call " +
                                      std::to_string(create_calls_) + ")"));
    }
    created_.push_back(pod);
    if (create_error) return fail(*create_error);
    if (!pods) return {};
    store = pods;
    stored = pod;
    json::object& meta = stored.as_object()["metadata"].as_object();
    meta["name"] = std::string(api::find_string(meta, "generateName").value_or("")) +
                   std::to_string(create_calls_);
    meta["namespace"] = namespace_;
  }
  store->create(std::move(stored));
  return {};
}

Result<void, api::Status> FakePodControl::delete_pod(std::string_view, std::string_view name,
                                                     const json::object&) {
  const std::lock_guard lock(mu);
  deleted_.emplace_back(name);
  if (delete_error) return fail(*delete_error);
  return {};
}

Result<void, api::Status> FakePodControl::patch_pod(std::string_view, std::string_view name,
                                                    std::string_view patch) {
  const std::lock_guard lock(mu);
  patches_.push_back(std::string(name) + " " + std::string(patch));
  if (patch_error) return fail(*patch_error);
  return {};
}

std::vector<json::object> FakePodControl::created() const {
  const std::lock_guard lock(mu);
  return created_;
}
std::vector<std::string> FakePodControl::deleted() const {
  const std::lock_guard lock(mu);
  return deleted_;
}
std::vector<std::string> FakePodControl::patches() const {
  const std::lock_guard lock(mu);
  return patches_;
}
int FakePodControl::create_calls() const {
  const std::lock_guard lock(mu);
  return create_calls_;
}

Result<json::value, api::Status> FakeReplicaSetClient::get(std::string_view namespace_,
                                                           std::string_view name) {
  const std::lock_guard lock(mu);
  ++gets_;
  if (get_error) return fail(*get_error);
  if (get_override) return *get_override;
  auto obj = rss_->get(std::string(namespace_) + "/" + std::string(name));
  if (!obj) return fail(api::not_found({"apps", "replicasets"}, name));
  return *obj;
}

Result<void, api::Status> FakeReplicaSetClient::update_status(const json::value& rs) {
  const std::lock_guard lock(mu);
  updates_.push_back(rs);
  if (!update_errors.empty()) {
    api::Status err = update_errors.front();
    update_errors.pop_front();
    return fail(std::move(err));
  }
  rss_->update(rs);
  return {};
}

std::vector<json::value> FakeReplicaSetClient::status_updates() const {
  const std::lock_guard lock(mu);
  return updates_;
}

int FakeReplicaSetClient::gets() const {
  const std::lock_guard lock(mu);
  return gets_;
}

}  // namespace kcm::controllers::replicaset::testing
