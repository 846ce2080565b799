// The HTTP handler of kcm-local's API server: routes a request to discovery,
// version, health, OpenAPI, or a resource verb on the REST store, and writes
// upstream-shaped answers (objects, lists, Status errors, watch streams).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/url/params_view.hpp>
#include <map>
#include <mutex>
#include <string>

#include "local/apiserver/http_server.h"
#include "local/apiserver/output_negotiation.h"
#include "local/apiserver/request_info.h"
#include "local/apiserver/rest_store.h"
#include "local/openapi_v2/service.h"
#include "local/printers/table.h"
#include "local/registry/resource_catalog.h"

namespace kcm::local::apiserver {

struct VersionInfo {
  std::string major = "1";
  std::string minor = "32";
  std::string git_version = "v1.32.4+kcm-local";
};

class ApiHandler {
 public:
  ApiHandler(RestStore& rest, const registry::ResourceCatalog& catalog, VersionInfo version,
             std::string server_address);

  net::awaitable<void> handle(Exchange& ex);
  void set_server_address(std::string address) { server_address_ = std::move(address); }

 private:
  // A resource request, decoded.
  struct Call {
    Exchange& ex;
    RequestInfo info;
    // The served resources when the request came in; keeps `resource` alive.
    std::shared_ptr<const registry::ResourceTable> table;
    const ResourceInfo* resource = nullptr;
    boost::urls::params_view params;
    // The response shape the Accept header asked for (set once the resource is known).
    OutputFormat output;
    std::string param(std::string_view key) const;
    bool has_param(std::string_view key) const;
    // A boolean parameter as upstream reads one (query_bool); nullopt when absent.
    std::optional<bool> bool_param(std::string_view key) const;
  };

  net::awaitable<void> handle_non_resource(Exchange& ex, std::string_view path);
  net::awaitable<void> handle_resource(Call& call);
  net::awaitable<void> get(Call& call);
  net::awaitable<void> list(Call& call);
  net::awaitable<void> watch(Call& call);
  net::awaitable<void> create(Call& call);
  net::awaitable<void> update(Call& call);
  net::awaitable<void> patch(Call& call);
  // PATCH with application/apply-patch+yaml: server-side apply, which creates
  // the object when it does not exist.
  net::awaitable<void> server_side_apply(Call& call, WriteOptions options);
  net::awaitable<void> remove(Call& call);
  net::awaitable<void> remove_collection(Call& call);
  net::awaitable<void> scale(Call& call);
  net::awaitable<void> binding(Call& call);
  // POST of an access or identity review (ResourceInfo::review).
  net::awaitable<void> review(Call& call);
  // GET pods/NAME/log, and its query checked as upstream's PodLogOptions.
  net::awaitable<void> pod_log(Call& call);
  Result<void, api::Status> check_pod_log_options(const Call& call) const;

  // Writes a REST store result: the object (or the given body) in the
  // negotiated shape, or the Status, with `warnings` as Warning headers.
  net::awaitable<void> reply(Call& call, Result<WriteResult, api::Status> result,
                             std::vector<std::string> warnings = {});
  // One object's JSON in the negotiated shape: as is (also for Tables, which
  // only get, list and watch render), its PartialObjectMetadata, or 406 when a
  // list was asked for. Status bodies are never converted.
  Result<std::string, api::Status> shape_object(const Call& call, std::string object_json) const;
  // A list of the resource's objects in the negotiated shape (Tables aside).
  Result<std::string, api::Status> shape_list(const Call& call, std::uint64_t revision,
                                              std::string_view continue_token,
                                              std::optional<std::int64_t> remaining,
                                              const std::vector<storage::ObjectPtr>& items) const;
  // Type-checks a create/update body against the kind's schema (upstream's
  // decoder): type errors are 400; unknown and duplicate fields are 400 under
  // fieldValidation=Strict and warnings under Warn.
  Result<std::vector<std::string>, api::Status> check_body(const Call& call,
                                                           const WriteOptions& options,
                                                           std::string_view content_type,
                                                           std::string_view body) const;
  net::awaitable<void> reply_error(Exchange& ex, const api::Status& status);
  // 200 with `body`, or the error that shaping it gave (shape_object / shape_list).
  net::awaitable<void> reply_shaped(Exchange& ex, Result<std::string, api::Status> body);
  net::awaitable<void> reply_json(Exchange& ex, int code, std::string body,
                                  std::string_view content_type = "application/json");

  // Whether `r` comes from a CustomResourceDefinition (not one of the built-ins).
  bool is_custom_resource(const ResourceInfo& r) const;

  Result<WriteOptions, api::Status> write_options(const Call& call) const;
  // A create's options and body, decoded and type-checked (with the warnings
  // fieldValidation=Warn gives).
  struct CreateBody {
    WriteOptions options;
    json::object object;
    std::vector<std::string> warnings;
  };
  Result<CreateBody, api::Status> create_body(const Call& call) const;
  // The Table options when the negotiated shape is a Table, else nullopt.
  Result<std::optional<printers::TableOptions>, api::Status> table_options(const Call& call) const;
  // One object, or a list, rendered as a Table.
  std::string render_table(const Call& call, const printers::TableOptions& options,
                           const std::vector<const storage::StoredObject*>& objects,
                           std::string_view resource_version,
                           std::string_view continue_token) const;
  Result<ListRequest, api::Status> list_request(const Call& call) const;

  // An OpenAPI v3 document ("api/v1"; "" for the index; empty when not
  // served), rebuilt when the served resources change.
  std::string openapi(std::string_view path);
  std::mutex openapi_mu_;
  std::uint64_t openapi_generation_ = 0;
  std::map<std::string, std::string, std::less<>> openapi_docs_;  // empty: not built

  RestStore& rest_;
  const registry::ResourceCatalog& catalog_;
  VersionInfo version_;
  std::string server_address_;
  // GET /openapi/v2 (JSON or gnostic protobuf), built on first use.
  openapi_v2::Service openapi_v2_;
};

}  // namespace kcm::local::apiserver
