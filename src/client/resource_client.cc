#include "client/resource_client.h"

#include <atomic>

#include "client/watch_decoder.h"

namespace kcm::client {

namespace json = boost::json;

namespace {

void add_write_params(QueryParams* params, const std::vector<std::string>& dry_run,
                      const std::string& field_manager, const std::string& field_validation) {
  for (const auto& d : dry_run)
    params->emplace_back("dryRun", d);
  if (!field_manager.empty()) params->emplace_back("fieldManager", field_manager);
  if (!field_validation.empty()) params->emplace_back("fieldValidation", field_validation);
}

std::string object_name(const json::value& object) {
  const auto* name = api::find_path(object, {"metadata", "name"});
  return std::string(api::as_string_view(name));
}

api::Status name_required() {
  return client_error("name is required");
}

// client-go's watch ErrorReporter: a decoding failure as a 500 InternalError Status.
api::Status watch_decoding_error(const std::string& cause) {
  const std::string message = "unable to decode an event from the watch stream: " + cause;
  api::Status s;
  s.code = 500;
  s.reason = api::reason::kInternalError;
  std::string quoted = "\"";
  for (const char c : message) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  quoted += '"';
  s.message = "an error on the server (" + quoted + ") has prevented the request from succeeding";
  api::StatusDetails details;
  details.causes.push_back({"UnexpectedServerResponse", message, ""});
  details.causes.push_back({"ClientWatchDecoding", message, ""});
  s.details = std::move(details);
  return s;
}

class HttpWatchStream final : public WatchStream {
 public:
  explicit HttpWatchStream(std::unique_ptr<ResponseStream> body) : body_(std::move(body)) {}
  ~HttpWatchStream() override { body_->cancel(); }

  Result<std::optional<WatchEvent>, api::Status> next() override {
    while (!done_) {
      auto event = decoder_.next();
      if (!event) {
        done_ = true;
        return fail(watch_decoding_error(event.error()));
      }
      if (*event) return std::move(*event);
      auto piece = body_->read();
      // A dropped or cancelled connection ends the watch like the server's close.
      if (!piece || !*piece) break;
      decoder_.feed(**piece);
    }
    done_ = true;
    return std::optional<WatchEvent>();
  }

  void stop() override { body_->cancel(); }

 private:
  std::unique_ptr<ResponseStream> body_;
  WatchDecoder decoder_;
  bool done_ = false;
};

}  // namespace

std::string_view content_type(PatchType type) {
  switch (type) {
    case PatchType::kJson:
      return "application/json-patch+json";
    case PatchType::kMerge:
      return "application/merge-patch+json";
    case PatchType::kStrategicMerge:
      return "application/strategic-merge-patch+json";
    case PatchType::kApply:
      return "application/apply-patch+yaml";
  }
  return "application/json-patch+json";
}

json::value to_json(const DeleteOptions& options) {
  json::object o;
  o["kind"] = "DeleteOptions";
  o["apiVersion"] = "v1";
  if (options.grace_period_seconds) o["gracePeriodSeconds"] = *options.grace_period_seconds;
  if (options.preconditions) {
    json::object p;
    if (options.preconditions->uid) p["uid"] = *options.preconditions->uid;
    if (options.preconditions->resource_version) {
      p["resourceVersion"] = *options.preconditions->resource_version;
    }
    o["preconditions"] = std::move(p);
  }
  if (options.propagation_policy) o["propagationPolicy"] = *options.propagation_policy;
  if (!options.dry_run.empty()) {
    json::array a;
    for (const auto& d : options.dry_run)
      a.emplace_back(d);
    o["dryRun"] = std::move(a);
  }
  return o;
}

QueryParams list_params(const ListOptions& o, bool watch) {
  QueryParams p;
  if (!o.label_selector.empty()) p.emplace_back("labelSelector", o.label_selector);
  if (!o.field_selector.empty()) p.emplace_back("fieldSelector", o.field_selector);
  if (watch) p.emplace_back("watch", "true");
  if (o.allow_watch_bookmarks) p.emplace_back("allowWatchBookmarks", "true");
  if (!o.resource_version.empty()) p.emplace_back("resourceVersion", o.resource_version);
  if (!o.resource_version_match.empty()) {
    p.emplace_back("resourceVersionMatch", o.resource_version_match);
  }
  if (o.timeout_seconds) p.emplace_back("timeoutSeconds", std::to_string(*o.timeout_seconds));
  if (o.limit > 0) p.emplace_back("limit", std::to_string(o.limit));
  if (!o.continue_token.empty()) p.emplace_back("continue", o.continue_token);
  if (o.send_initial_events) {
    p.emplace_back("sendInitialEvents", *o.send_initial_events ? "true" : "false");
  }
  return p;
}

std::unique_ptr<WatchStream> make_watch_stream(std::unique_ptr<ResponseStream> body) {
  return std::make_unique<HttpWatchStream>(std::move(body));
}

AcceptTypes metadata_only() {
  return {.object = std::string(kPartialObjectMetadataJson),
          .list = std::string(kPartialObjectMetadataListJson)};
}

ResourceClient::ResourceClient(std::shared_ptr<RestClient> client,
                               api::GroupVersionResource resource, std::string ns,
                               AcceptTypes accept)
    : client_(std::move(client)),
      resource_(std::move(resource)),
      namespace_(std::move(ns)),
      accept_(std::move(accept)) {}

ResourceClient ResourceClient::in_namespace(std::string ns) const {
  return ResourceClient(client_, resource_, std::move(ns), accept_);
}

Request ResourceClient::base(std::string verb, bool list) const {
  Request r;
  r.verb = std::move(verb);
  r.group_version = {resource_.group, resource_.version};
  if (!namespace_.empty()) r.namespace_name = namespace_;
  r.resource = resource_.resource;
  const std::string& accept = list ? accept_.list : accept_.object;
  if (!accept.empty()) r.headers.emplace_back("Accept", accept);
  return r;
}

Result<json::value, api::Status> ResourceClient::get(std::string_view name,
                                                     const GetOptions& options,
                                                     std::string_view subresource) {
  if (name.empty()) return fail(name_required());
  Request r = base("GET");
  r.name = std::string(name);
  r.subresource = std::string(subresource);
  if (!options.resource_version.empty()) {
    r.params.emplace_back("resourceVersion", options.resource_version);
  }
  return client_->send_json(r);
}

Result<cache::ListPage, api::Status> ResourceClient::list(const ListOptions& options) {
  Request r = base("GET", true);
  r.params = list_params(options, false);
  auto value = client_->send_json(r);
  if (!value) return fail(std::move(value).error());
  auto* list = value->if_object();
  if (list == nullptr) return fail(client_error("the list response is not a JSON object"));
  cache::ListPage page;
  if (const auto* meta = api::find_object(*list, "metadata")) {
    page.resource_version = std::string(api::find_string(*meta, "resourceVersion").value_or(""));
    page.continue_token = std::string(api::find_string(*meta, "continue").value_or(""));
  }
  std::string item_kind(api::find_string(*list, "kind").value_or(""));
  if (item_kind.ends_with("List")) item_kind.resize(item_kind.size() - 4);
  const std::string api_version(api::find_string(*list, "apiVersion").value_or(""));
  if (auto* items = list->if_contains("items"); items && items->is_array()) {
    page.items.reserve(items->get_array().size());
    for (auto& item : items->get_array()) {
      if (auto* o = item.if_object()) {
        if (!o->contains("kind") && !o->contains("apiVersion")) {
          (*o)["kind"] = item_kind;
          (*o)["apiVersion"] = api_version;
        }
      }
      page.items.push_back(std::move(item));
    }
  }
  return page;
}

Result<cache::ListPage, api::Status> ResourceClient::list_all(const ListOptions& options) {
  ListOptions page_options = options;
  cache::ListPage all;
  for (bool first = true;; first = false) {
    auto page = list(page_options);
    if (!page) return fail(std::move(page).error());
    if (first) all.resource_version = page->resource_version;
    for (auto& item : page->items)
      all.items.push_back(std::move(item));
    if (page->continue_token.empty()) return all;
    // Later pages carry the continue token alone (the server rejects a
    // resourceVersion alongside it).
    page_options.continue_token = page->continue_token;
    page_options.resource_version.clear();
    page_options.resource_version_match.clear();
  }
}

Result<std::unique_ptr<WatchStream>, api::Status> ResourceClient::watch(
    const ListOptions& options) {
  Request r = base("GET");
  r.params = list_params(options, true);
  auto body = client_->stream(r);
  if (!body) return fail(std::move(body).error());
  return make_watch_stream(std::move(*body));
}

Result<Request, api::Status> ResourceClient::create_request(const json::value& object,
                                                            const CreateOptions& options,
                                                            std::string_view subresource) const {
  Request r = base("POST");
  if (!subresource.empty()) {
    r.name = object_name(object);
    if (r.name.empty()) return fail(name_required());
    r.subresource = std::string(subresource);
  }
  add_write_params(&r.params, options.dry_run, options.field_manager, options.field_validation);
  r.body = api::to_json_string(object);
  return r;
}

Result<json::value, api::Status> ResourceClient::create(const json::value& object,
                                                        const CreateOptions& options,
                                                        std::string_view subresource) {
  auto r = create_request(object, options, subresource);
  if (!r) return fail(std::move(r).error());
  return client_->send_json(*r);
}

Result<WrittenMeta, api::Status> ResourceClient::create_for_meta(const json::value& object,
                                                                 const CreateOptions& options) {
  auto r = create_request(object, options, "");
  if (!r) return fail(std::move(r).error());
  return client_->send_for_meta(*r);
}

Result<Request, api::Status> ResourceClient::update_request(const json::value& object,
                                                            const UpdateOptions& options,
                                                            std::string_view subresource) const {
  Request r = base("PUT");
  r.name = object_name(object);
  if (r.name.empty()) return fail(name_required());
  r.subresource = std::string(subresource);
  add_write_params(&r.params, options.dry_run, options.field_manager, options.field_validation);
  r.body = api::to_json_string(object);
  return r;
}

Result<json::value, api::Status> ResourceClient::update(const json::value& object,
                                                        const UpdateOptions& options,
                                                        std::string_view subresource) {
  auto r = update_request(object, options, subresource);
  if (!r) return fail(std::move(r).error());
  return client_->send_json(*r);
}

Result<json::value, api::Status> ResourceClient::update_status(const json::value& object,
                                                               const UpdateOptions& options) {
  return update(object, options, "status");
}

Result<void, api::Status> ResourceClient::update_status_outcome(const json::value& object,
                                                                const UpdateOptions& options) {
  auto r = update_request(object, options, "status");
  if (!r) return fail(std::move(r).error());
  return client_->send_for_error(*r);
}

Result<WrittenMeta, api::Status> ResourceClient::update_status_for_meta(
    const json::value& object, const UpdateOptions& options) {
  auto r = update_request(object, options, "status");
  if (!r) return fail(std::move(r).error());
  return client_->send_for_meta(*r);
}

Result<json::value, api::Status> ResourceClient::patch(std::string_view name, PatchType type,
                                                       std::string_view data,
                                                       const PatchOptions& options,
                                                       std::string_view subresource) {
  if (name.empty()) return fail(name_required());
  Request r = base("PATCH");
  r.name = std::string(name);
  r.subresource = std::string(subresource);
  add_write_params(&r.params, options.dry_run, options.field_manager, options.field_validation);
  if (options.force) r.params.emplace_back("force", *options.force ? "true" : "false");
  r.body = std::string(data);
  r.content_type = std::string(content_type(type));
  return client_->send_json(r);
}

Result<void, api::Status> ResourceClient::delete_object(std::string_view name,
                                                        const DeleteOptions& options,
                                                        std::string_view subresource) {
  if (name.empty()) return fail(name_required());
  Request r = base("DELETE");
  r.name = std::string(name);
  r.subresource = std::string(subresource);
  r.body = api::to_json_string(to_json(options));
  return client_->send_for_error(r);
}

Result<json::value, api::Status> ResourceClient::delete_collection(
    const DeleteOptions& options, const ListOptions& list_options) {
  Request r = base("DELETE", true);
  r.params = list_params(list_options, false);
  r.body = api::to_json_string(to_json(options));
  return client_->send_json(r);
}

}  // namespace kcm::client
