#include "local/apiserver/api_handler.h"

#include <fmt/format.h>

#include <boost/url/parse.hpp>

#include "local/apiserver/body_codec.h"
#include "local/apiserver/discovery.h"
#include "local/apiserver/openapi.h"
#include "local/apiserver/partial_object_metadata.h"

namespace kcm::local::apiserver {

std::string ApiHandler::Call::param(std::string_view key) const {
  auto it = params.find(key);
  if (it == params.end()) return {};
  return std::string((*it).value);
}

bool ApiHandler::Call::has_param(std::string_view key) const {
  return params.find(key) != params.end();
}

std::optional<bool> ApiHandler::Call::bool_param(std::string_view key) const {
  auto it = params.find(key);
  if (it == params.end()) return std::nullopt;
  return query_bool((*it).value);
}

ApiHandler::ApiHandler(RestStore& rest, const registry::ResourceCatalog& catalog,
                       VersionInfo version, std::string server_address)
    : rest_(rest),
      catalog_(catalog),
      version_(std::move(version)),
      server_address_(std::move(server_address)),
      openapi_v2_(catalog.builtins()) {}

net::awaitable<void> ApiHandler::reply_json(Exchange& ex, int code, std::string body,
                                            std::string_view content_type) {
  co_await ex.respond(static_cast<http::status>(code), content_type, std::move(body));
}

net::awaitable<void> ApiHandler::reply_error(Exchange& ex, const api::Status& status) {
  Exchange::Headers headers;
  if (status.details && status.details->retry_after_seconds > 0) {
    headers.emplace_back("Retry-After", std::to_string(status.details->retry_after_seconds));
  }
  co_await ex.respond(static_cast<http::status>(status.code), "application/json",
                      json::serialize(status.to_json()), std::move(headers));
}

net::awaitable<void> ApiHandler::reply(Call& call, Result<WriteResult, api::Status> result,
                                       std::vector<std::string> warnings) {
  if (!result) {
    co_await reply_error(call.ex, result.error());
    co_return;
  }
  auto body =
      shape_object(call, result->body ? json::serialize(*result->body) : result->object->json);
  if (!body) {
    // Upstream converts after the write, so the write stands.
    co_await reply_error(call.ex, body.error());
    co_return;
  }
  Exchange::Headers headers;
  for (const auto& w : warnings)
    headers.emplace_back("Warning", "299 - " + api::go_quote(w));
  co_await call.ex.respond(static_cast<http::status>(result->code), "application/json",
                           std::move(*body), std::move(headers));
}

net::awaitable<void> ApiHandler::reply_shaped(Exchange& ex, Result<std::string, api::Status> body) {
  if (!body) {
    co_await reply_error(ex, body.error());
    co_return;
  }
  co_await reply_json(ex, 200, std::move(*body));
}

bool ApiHandler::is_custom_resource(const ResourceInfo& r) const {
  return catalog_.builtins().find(r.gvr.group, r.gvr.version, r.gvr.resource) == nullptr;
}

Result<std::string, api::Status> ApiHandler::shape_object(const Call& call,
                                                          std::string object_json) const {
  const OutputShape shape = call.output.shape;
  if (shape != OutputShape::kPartialObjectMetadata &&
      shape != OutputShape::kPartialObjectMetadataList) {
    return object_json;
  }
  json::object object = json::parse(object_json).as_object();
  const std::string_view kind = api::find_string(object, "kind").value_or("");
  if (kind == "Status") return object_json;
  if (shape == OutputShape::kPartialObjectMetadata) {
    return json::serialize(as_partial_object_metadata(object, call.output.meta_api_version()));
  }
  const ResourceInfo& r = *call.resource;
  const api::GroupVersion gv =
      api::GroupVersion::parse(api::find_string(object, "apiVersion").value_or(""));
  // Subresource bodies (a Scale) are built-in kinds even for custom resources.
  const bool own_kind = kind == r.kind && gv.group == r.gvr.group;
  return fail(partial_metadata_list_of_object(
      go_response_type(gv.group, kind, own_kind && is_custom_resource(r), false)));
}

Result<std::string, api::Status> ApiHandler::shape_list(
    const Call& call, std::uint64_t revision, std::string_view continue_token,
    std::optional<std::int64_t> remaining, const std::vector<storage::ObjectPtr>& items) const {
  const ResourceInfo& r = *call.resource;
  switch (call.output.shape) {
    case OutputShape::kPartialObjectMetadataList:
      return encode_partial_object_metadata_list(call.output.meta_api_version(), revision,
                                                 continue_token, remaining, items);
    case OutputShape::kPartialObjectMetadata:
      return fail(partial_metadata_of_list(
          go_response_type(r.gvr.group, r.kind, is_custom_resource(r), true)));
    case OutputShape::kObject:
    case OutputShape::kTable:
      break;
  }
  return encode_list(r.api_version(), r.kind + "List", revision, continue_token, remaining, items);
}

std::string ApiHandler::openapi(std::string_view path) {
  std::lock_guard lock(openapi_mu_);
  const std::uint64_t generation = catalog_.generation();
  if (openapi_docs_.empty() || generation != openapi_generation_) {
    const auto table = catalog_.snapshot();
    openapi_docs_.clear();
    json::object index = openapi_v3_index(*table).as_object();
    for (const auto& [gv, entry] : index.at("paths").as_object()) {
      openapi_docs_[std::string(gv)] = json::serialize(openapi_v3_document(*table, gv));
    }
    openapi_docs_[""] = json::serialize(index);
    openapi_generation_ = generation;
  }
  auto it = openapi_docs_.find(path);
  return it == openapi_docs_.end() ? std::string() : it->second;
}

net::awaitable<void> ApiHandler::handle(Exchange& ex) {
  const HttpRequest& req = ex.request();
  auto target = boost::urls::parse_origin_form(req.target());
  if (!target) {
    co_await reply_error(ex, api::bad_request("malformed request target"));
    co_return;
  }
  const std::string path = target->path();
  const auto params = target->params();
  auto watch_it = params.find("watch");
  const bool watch = watch_it != params.end() && query_bool((*watch_it).value);
  RequestInfo info = parse_request_info(std::string(req.method_string()), path, watch);
  if (!info.is_resource_request) {
    co_await handle_non_resource(ex, path);
    co_return;
  }
  Call call{ex, std::move(info), catalog_.snapshot(), nullptr, params};
  co_await handle_resource(call);
}

net::awaitable<void> ApiHandler::handle_non_resource(Exchange& ex, std::string_view path) {
  const HttpRequest& req = ex.request();
  const bool is_get = req.method() == http::verb::get || req.method() == http::verb::head;
  const std::string accept(req[http::field::accept]);
  const auto table = catalog_.snapshot();

  if (path == "/healthz" || path == "/livez" || path == "/readyz" ||
      path.starts_with("/healthz/") || path.starts_with("/livez/") ||
      path.starts_with("/readyz/")) {
    co_await ex.respond(http::status::ok, "text/plain; charset=utf-8", "ok");
    co_return;
  }
  if (!is_get && !(req.method() == http::verb::post && path == "/kcm-local/compact")) {
    // (Built outside the co_await: GCC 12 miscompiles braced lists in coroutine calls.)
    const api::Status not_allowed{"Failure",
                                  "the server does not allow this method on the requested "
                                  "resource",
                                  std::string(api::reason::kMethodNotAllowed), api::StatusDetails{},
                                  405};
    co_await reply_error(ex, not_allowed);
    co_return;
  }
  if (path == "/version") {
    json::object v{{"major", version_.major},
                   {"minor", version_.minor},
                   {"emulationMajor", version_.major},
                   {"emulationMinor", version_.minor},
                   {"minCompatibilityMajor", version_.major},
                   {"minCompatibilityMinor", version_.minor},
                   {"gitVersion", version_.git_version},
                   {"gitCommit", "0000000000000000000000000000000000000000"},
                   {"gitTreeState", "clean"},
                   {"buildDate", "2026-11-30T00:00:00Z"},
                   {"goVersion", "go1.23.0"},
                   {"compiler", "gc"},
                   {"platform", "linux/amd64"}};
    co_await reply_json(ex, 200, json::serialize(v));
    co_return;
  }
  if (path == "/api" || path == "/apis") {
    const std::string aggregated = aggregated_discovery_version(accept);
    if (!aggregated.empty()) {
      const std::string api_version = "apidiscovery.k8s.io/" + aggregated;
      co_await reply_json(
          ex, 200, json::serialize(aggregated_discovery(*table, path == "/api", api_version)),
          fmt::format("application/json;g=apidiscovery.k8s.io;v={};as=APIGroupDiscoveryList",
                      aggregated));
      co_return;
    }
    json::value doc = path == "/api" ? api_versions(server_address_) : api_group_list(*table);
    co_await reply_json(ex, 200, json::serialize(doc));
    co_return;
  }
  const auto parts = split_path(path);
  if (parts.size() == 2 && parts[0] == "api") {
    json::value doc = api_resource_list(*table, "", parts[1]);
    if (!doc.is_null()) {
      co_await reply_json(ex, 200, json::serialize(doc));
      co_return;
    }
  }
  if (parts.size() == 2 && parts[0] == "apis") {
    json::value doc = api_group(*table, parts[1]);
    if (!doc.is_null()) {
      co_await reply_json(ex, 200, json::serialize(doc));
      co_return;
    }
  }
  if (parts.size() == 3 && parts[0] == "apis") {
    json::value doc = api_resource_list(*table, parts[1], parts[2]);
    if (!doc.is_null()) {
      co_await reply_json(ex, 200, json::serialize(doc));
      co_return;
    }
  }
  if (path == "/openapi/v2") {
    openapi_v2::Reply r = openapi_v2_.get(accept, req[http::field::if_none_match],
                                          req[http::field::if_modified_since]);
    if (req.method() == http::verb::head) r.body.clear();
    co_await ex.respond(static_cast<http::status>(r.status), r.content_type, std::move(r.body),
                        std::move(r.headers));
    co_return;
  }
  if (path == "/openapi/v3") {
    co_await reply_json(ex, 200, openapi(""));
    co_return;
  }
  if (path.starts_with("/openapi/v3/")) {
    const std::string doc = openapi(path.substr(std::string_view("/openapi/v3/").size()));
    if (!doc.empty()) {
      co_await reply_json(ex, 200, doc);
      co_return;
    }
  }
  if (path == "/kcm-local/compact") {
    // kcm-local's own admin endpoint: forget the watch history, so that old
    // resourceVersions get 410 Gone (for testing clients' relist).
    rest_.store().compact_history();
    co_await reply_json(ex, 200, json::serialize(api::Status::success().to_json()));
    co_return;
  }
  co_await ex.respond(http::status::not_found, "text/plain; charset=utf-8", "404 page not found\n");
}

}  // namespace kcm::local::apiserver
