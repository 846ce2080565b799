#include "local/cluster/api_access.h"

#include <atomic>

#include "local/apiserver/pod_binding.h"

namespace kcm::local::cluster {
namespace {

std::optional<json::object> parse_object(const std::string& text) {
  std::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.get_object());
}

// The simulated components never read managedFields (kubelets and the
// scheduler do not either); the watch copies they keep drop them, which is
// about a third of a pod's parsed size and of its later copies.
std::optional<json::object> parse_watched_object(const std::string& text) {
  auto obj = parse_object(text);
  if (obj) {
    if (json::value* metadata = obj->if_contains("metadata"); metadata && metadata->is_object()) {
      metadata->get_object().erase("managedFields");
    }
  }
  return obj;
}

}  // namespace

ApiAccess::ApiAccess(apiserver::RestStore& rest, const registry::ResourceTable& table,
                     std::shared_ptr<Loop> loop)
    : rest_(rest), loop_(std::move(loop)) {
  infos_ = {table.find("", "v1", "pods"), table.find("", "v1", "nodes"),
            table.find("coordination.k8s.io", "v1", "leases"), table.find("", "v1", "events"),
            table.find("events.k8s.io", "v1", "events")};
}

const registry::ResourceInfo& ApiAccess::info(Kind kind) const {
  return *infos_[static_cast<std::size_t>(kind)];
}

apiserver::WriteDone ApiAccess::deliver(Done done) const {
  // Completions may run inline or on the log's thread: always hop to the loop.
  return [loop = loop_, done = std::move(done)](Result<apiserver::WriteResult, api::Status> r) {
    Outcome out = Written();
    if (!r) {
      out = fail(std::move(r).error());
    } else if (r->object && !r->body) {
      out = Written(std::move(r->object));
    }
    loop->post([done, out = std::move(out)]() mutable { done(std::move(out)); });
  };
}

json::object ApiAccess::Written::object() const {
  if (!stored_) return {};
  return parse_object(stored_->json).value_or(json::object());
}

std::optional<json::object> ApiAccess::get(Kind kind, std::string_view ns,
                                           std::string_view name) const {
  auto r = rest_.get(info(kind), ns, name);
  if (!r || !*r) return std::nullopt;
  return parse_object((*r)->json);
}

namespace {

apiserver::WriteOptions written_by(std::string_view manager) {
  apiserver::WriteOptions options;
  options.field_manager = std::string(manager);
  return options;
}

}  // namespace

void ApiAccess::create(Kind kind, std::string_view ns, json::object obj, Done done,
                       std::string_view manager) {
  rest_.create(info(kind), ns, std::move(obj), written_by(manager), deliver(std::move(done)));
}

void ApiAccess::update(Kind kind, std::string_view ns, std::string_view name, Mutation mutate,
                       Done done, std::string_view manager) {
  rest_.update_with(info(kind), ns, name, apiserver::Subresource::kNone, std::move(mutate),
                    written_by(manager), deliver(std::move(done)));
}

void ApiAccess::update_status(Kind kind, std::string_view ns, std::string_view name,
                              Mutation mutate, Done done, std::string_view manager) {
  rest_.update_with(info(kind), ns, name, apiserver::Subresource::kStatus, std::move(mutate),
                    written_by(manager), deliver(std::move(done)));
}

void ApiAccess::remove(Kind kind, std::string_view ns, std::string_view name,
                       const apiserver::DeleteOptions& options, Done done) {
  rest_.remove(info(kind), ns, name, options, deliver(std::move(done)));
}

void ApiAccess::bind(std::string_view ns, std::string_view name, json::object binding, Done done) {
  apiserver::create_pod_binding(rest_, info(Kind::kPods), ns, name, binding, {},
                                deliver(std::move(done)));
}

// Forwards store events to the loop; parsing happens there, off the store's path.
struct ApiAccess::Watch::Sink final : storage::WatchSink {
  Sink(std::shared_ptr<Loop> loop, WatchHandler handler)
      : loop(std::move(loop)), handler(std::make_shared<WatchHandler>(std::move(handler))) {}
  void deliver(const storage::Event& event) override {
    if (stopped.load()) return;
    const EventType type = event.type == storage::EventType::kAdded      ? EventType::kAdded
                           : event.type == storage::EventType::kModified ? EventType::kModified
                                                                         : EventType::kDeleted;
    loop->post([handler = handler, type, object = event.object] {
      if (auto obj = parse_watched_object(object->json)) (*handler)(type, std::move(*obj));
    });
  }
  std::shared_ptr<Loop> loop;
  std::shared_ptr<WatchHandler> handler;
  std::atomic<bool> stopped{false};
};

ApiAccess::Watch::~Watch() {
  if (sink_) sink_->stopped = true;
  handle_.reset();
}

Result<std::unique_ptr<ApiAccess::Watch>, std::string> ApiAccess::watch(Kind kind,
                                                                        WatchHandler handler) {
  auto w = std::make_unique<Watch>();
  w->sink_ = std::make_shared<Watch::Sink>(loop_, std::move(handler));
  storage::Store::WatchOptions options;
  options.resource = rest_.resource_id(info(kind));
  options.initial_state = true;
  auto handle = rest_.store().watch(options, w->sink_);
  if (!handle) {
    return fail(std::string("cannot watch ") + info(kind).gvr.resource + ": " +
                std::string(storage::to_string(handle.error())));
  }
  w->handle_ = std::move(*handle);
  return w;
}

}  // namespace kcm::local::cluster
