// Resource verbs: get, list, create, update, patch, delete, deletecollection
// and the subresources (status, scale, binding, finalize).
#include <fmt/format.h>

#include <algorithm>

#include "api/fields.h"
#include "api/label_selector.h"
#include "api/labels.h"
#include "api/patch/json_patch.h"
#include "api/patch/merge_patch.h"
#include "api/patch/strategic_merge_patch.h"
#include "api/schema/decode_check.h"
#include "api/schema/registry.h"
#include "api/schema/type_patch_schema.h"
#include "api/yaml.h"
#include "local/apiserver/api_handler.h"
#include "local/apiserver/await_result.h"
#include "local/apiserver/body_codec.h"
#include "local/apiserver/field_managers.h"
#include "local/apiserver/ids.h"
#include "local/apiserver/pod_binding.h"
#include "local/apiserver/stored_codec.h"
#include "local/printers/custom_columns.h"
#include "local/printers/printers.h"
#include "local/protobuf/decode.h"

namespace kcm::local::apiserver {

namespace {

constexpr std::string_view kTableContentType = "application/json;as=Table;v=v1;g=meta.k8s.io";

std::optional<std::int64_t> parse_int(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::int64_t v = 0;
  bool neg = false;
  std::size_t i = 0;
  if (s[0] == '-') {
    neg = true;
    i = 1;
  }
  if (i == s.size()) return std::nullopt;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9' || v > (INT64_MAX - 9) / 10) return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return neg ? -v : v;
}

// A DeleteOptions body; typed clients (kubectl drain) send it as protobuf.
Result<json::value, api::Status> decode_delete_options(const ResourceInfo& resource,
                                                       std::string_view content_type,
                                                       std::string_view body) {
  if (media_type(content_type) == protobuf::kProtobufMediaType) {
    const api::schema::Type* type =
        api::schema::Registry::builtin().find("meta/v1", "DeleteOptions");
    const api::GroupVersionKind gvk{resource.gvr.group, resource.gvr.version, "DeleteOptions"};
    if (type == nullptr) return fail(api::internal_error("no schema for DeleteOptions"));
    return protobuf::decode_protobuf_object(body, gvk, *type);
  }
  return decode_body(content_type, body);
}

// check_body for kinds without a built-in type definition (custom
// resources): the fields their schema does not declare are unknown fields.
Result<std::vector<std::string>, api::Status> check_custom_body(const ResourceInfo& resource,
                                                                const WriteOptions& options,
                                                                std::string_view content_type,
                                                                std::string_view body) {
  if (options.field_validation == WriteOptions::FieldValidation::kIgnore) {
    return std::vector<std::string>();
  }
  auto decoded = decode_body(content_type, body);
  if (!decoded || !decoded->is_object()) return std::vector<std::string>();  // reported elsewhere
  auto unknown = resource.strategy->unknown_fields(decoded->get_object());
  if (!unknown || unknown->empty()) return std::vector<std::string>();
  std::vector<std::string> messages;
  for (const auto& path : *unknown)
    messages.push_back(fmt::format("unknown field {}", api::go_quote(path)));
  if (options.field_validation == WriteOptions::FieldValidation::kStrict) {
    return fail(api::bad_request(api::schema::cannot_handle_message(
        resource.kind, resource.gvr.version, api::schema::strict_decoding_message(messages))));
  }
  return messages;
}

// upstream crdHandler's answer to a create while the CRD is being deleted.
api::Status terminating_create_refused() {
  return api::Status{"Failure",
                     "create not allowed while custom resource definition is terminating",
                     std::string(api::reason::kMethodNotAllowed), api::StatusDetails{}, 405};
}

}  // namespace

Result<WriteOptions, api::Status> ApiHandler::write_options(const Call& call) const {
  WriteOptions options;
  if (call.has_param("dryRun")) {
    const std::string dry = call.param("dryRun");
    if (dry != "All") {
      return fail(api::bad_request(fmt::format(
          "dryRun: Unsupported value: {}: supported values: \"All\"", api::go_quote(dry))));
    }
    options.dry_run = true;
  }
  const std::string& verb = call.info.verb;
  const char* options_kind = verb == "create"  ? "CreateOptions"
                             : verb == "patch" ? "PatchOptions"
                                               : "UpdateOptions";
  const std::string manager = call.param("fieldManager");
  if (auto errs = fieldmanager::validate_field_manager(manager); !errs.empty()) {
    return fail(api::invalid({"meta.k8s.io", options_kind}, "", errs));
  }
  options.field_manager =
      manager_or_user_agent(manager, call.ex.request()[http::field::user_agent]);
  const std::string v = call.param("fieldValidation");
  const auto validation = api::schema::parse_field_validation(v);
  if (!validation) return fail(api::schema::invalid_field_validation(options_kind, v));
  switch (*validation) {
    case api::schema::FieldValidation::kIgnore:
      options.field_validation = WriteOptions::FieldValidation::kIgnore;
      break;
    case api::schema::FieldValidation::kWarn:
      options.field_validation = WriteOptions::FieldValidation::kWarn;
      break;
    case api::schema::FieldValidation::kStrict:
      options.field_validation = WriteOptions::FieldValidation::kStrict;
      break;
  }
  return options;
}

Result<std::vector<std::string>, api::Status> ApiHandler::check_body(const Call& call,
                                                                     const WriteOptions& options,
                                                                     std::string_view content_type,
                                                                     std::string_view body) const {
  const api::GroupVersionKind gvk = call.resource->gvk();
  if (api::schema::Registry::builtin().root(gvk) == nullptr) {
    return check_custom_body(*call.resource, options, content_type, body);
  }
  api::schema::FieldValidation validation = api::schema::FieldValidation::kWarn;
  if (options.field_validation == WriteOptions::FieldValidation::kIgnore) {
    validation = api::schema::FieldValidation::kIgnore;
  } else if (options.field_validation == WriteOptions::FieldValidation::kStrict) {
    validation = api::schema::FieldValidation::kStrict;
  }
  const std::string media = media_type(content_type);
  // Protobuf bodies were checked field by field as they were decoded.
  if (media == protobuf::kProtobufMediaType) return std::vector<std::string>();
  api::schema::BodyCheck check;
  if (media == "application/yaml") {
    auto value = api::parse_yaml(body);
    if (!value) return std::vector<std::string>();  // decode_object reports it
    check = api::schema::check_request_body(json::serialize(*value), gvk, validation, true);
  } else {
    check = api::schema::check_request_body(body, gvk, validation);
  }
  if (check.error) return fail(*check.error);
  return std::move(check.warnings);
}

Result<std::optional<printers::TableOptions>, api::Status> ApiHandler::table_options(
    const Call& call) const {
  if (call.output.shape != OutputShape::kTable) return std::optional<printers::TableOptions>();
  printers::TableOptions options;
  options.version = call.output.meta_version == "v1beta1" ? printers::TableVersion::kV1beta1
                                                          : printers::TableVersion::kV1;
  auto include = printers::parse_include_object(call.param("includeObject"));
  if (!include) return fail(api::bad_request(include.error()));
  options.include_object = *include;
  return std::optional<printers::TableOptions>(options);
}

std::string ApiHandler::render_table(const Call& call, const printers::TableOptions& options,
                                     const std::vector<const storage::StoredObject*>& objects,
                                     std::string_view resource_version,
                                     std::string_view continue_token) const {
  const ResourceInfo& r = *call.resource;
  std::vector<json::object> parsed;
  parsed.reserve(objects.size());
  for (const auto* o : objects)
    parsed.push_back(parse_stored(*o));
  std::vector<const json::object*> pointers;
  for (const auto& o : parsed)
    pointers.push_back(&o);
  const auto now = std::chrono::system_clock::now();
  if (!r.printer_columns.empty()) {
    std::vector<printers::CustomColumn> columns;
    for (const auto& c : r.printer_columns)
      columns.push_back({c.name, c.type, c.format, c.description, c.priority, c.json_path});
    // The CRD's columns were validated; upstream falls back to the default
    // printer when one still cannot be used.
    if (auto printer = printers::CustomColumnsPrinter::create(columns)) {
      return json::serialize(
          (*printer)->to_table(pointers, options, resource_version, continue_token, now));
    }
  }
  const printers::TablePrinter* printer = printers::find_printer(r.gvr.group, r.kind);
  if (printer == nullptr) printer = &printers::default_printer();
  return json::serialize(
      printers::to_table(*printer, pointers, options, resource_version, continue_token, now));
}

Result<ListRequest, api::Status> ApiHandler::list_request(const Call& call) const {
  ListRequest request;
  request.namespace_ = call.info.namespace_;
  const ResourceInfo& info = *call.resource;
  auto label_selector = api::labels::parse(call.param("labelSelector"));
  if (!label_selector) return fail(api::bad_request(label_selector.error()));
  auto field_selector = api::fields::parse(call.param("fieldSelector"));
  if (!field_selector) return fail(api::bad_request(field_selector.error()));
  std::vector<std::string_view> supported(info.selectable_fields.begin(),
                                          info.selectable_fields.end());
  if (auto ok = api::fields::check_supported_fields(*field_selector, supported); !ok) {
    return fail(api::bad_request(ok.error()));
  }
  if (!label_selector->empty() || !field_selector->empty()) {
    request.has_selector = true;
    auto labels = std::make_shared<api::labels::Selector>(std::move(*label_selector));
    auto fields = std::make_shared<api::fields::Selector>(std::move(*field_selector));
    const ResourceInfo* resource = &info;
    request.predicate = [labels, fields, resource](const storage::StoredObject& o) {
      if (!labels->empty() && !api::labels::matches(*labels, o.labels)) return false;
      if (fields->empty()) return true;
      return api::fields::matches(
          *fields, [&](std::string_view field) { return stored_field(*resource, o, field); });
    };
  }
  if (call.has_param("limit")) {
    auto limit = parse_int(call.param("limit"));
    if (!limit) {
      return fail(api::bad_request(fmt::format("invalid limit: {}", call.param("limit"))));
    }
    if (*limit > 0) request.limit = static_cast<std::size_t>(*limit);
  }
  request.continue_token = call.param("continue");
  request.resource_version = call.param("resourceVersion");
  request.resource_version_match = call.param("resourceVersionMatch");
  if (!request.resource_version_match.empty() && request.resource_version_match != "NotOlderThan" &&
      request.resource_version_match != "Exact") {
    return fail(api::bad_request(
        fmt::format("resourceVersionMatch: Unsupported value: {}: supported values: \"Exact\", "
                    "\"NotOlderThan\"",
                    api::go_quote(request.resource_version_match))));
  }
  return request;
}

net::awaitable<void> ApiHandler::handle_resource(Call& call) {
  const RequestInfo& info = call.info;
  const ResourceInfo* resource = call.table->find(info.group, info.version, info.resource);
  // A namespaced kind needs a namespace except to list/watch across all of
  // them; a cluster-scoped kind never has one.
  const bool across = info.namespace_.empty() && (info.verb == "list" || info.verb == "watch");
  if (resource == nullptr || (!resource->namespaced && !info.namespace_.empty()) ||
      (resource->namespaced && info.namespace_.empty() && !across) || info.parts.size() > 3 ||
      (!info.subresource.empty() && resource->subresource(info.subresource) == nullptr)) {
    co_await reply_error(call.ex, api::not_found_path());
    co_return;
  }
  call.resource = resource;
  // Only the object itself and its status have a table convertor upstream.
  OutputRestrictions restrictions;
  restrictions.table = info.subresource.empty() || info.subresource == "status";
  auto output = negotiate_output(call.ex.request()[http::field::accept], restrictions);
  if (!output) {
    co_await reply_error(call.ex, output.error());
    co_return;
  }
  call.output = std::move(*output);
  const std::string& verb = info.verb;
  if (!info.subresource.empty()) {
    const auto* sub = resource->subresource(info.subresource);
    const bool allowed = std::find(sub->verbs.begin(), sub->verbs.end(), verb) != sub->verbs.end();
    if (!allowed) {
      co_await reply_error(call.ex, api::method_not_supported(resource->group_resource(), verb));
      co_return;
    }
    if (info.subresource == "scale") {
      co_await scale(call);
    } else if (info.subresource == "binding") {
      co_await binding(call);
    } else if (info.subresource == "log") {
      co_await pod_log(call);
    } else if (verb == "get") {
      co_await get(call);
    } else if (verb == "update") {
      co_await update(call);
    } else {
      co_await patch(call);
    }
    co_return;
  }
  if (!resource->has_verb(verb)) {
    co_await reply_error(call.ex, api::method_not_supported(resource->group_resource(), verb));
    co_return;
  }
  if (resource->review) {
    co_await review(call);  // "create", the one verb a review has
  } else if (verb == "get") {
    co_await get(call);
  } else if (verb == "list") {
    co_await list(call);
  } else if (verb == "watch") {
    co_await watch(call);
  } else if (verb == "create") {
    co_await create(call);
  } else if (verb == "update") {
    co_await update(call);
  } else if (verb == "patch") {
    co_await patch(call);
  } else if (verb == "delete") {
    co_await remove(call);
  } else if (verb == "deletecollection") {
    co_await remove_collection(call);
  } else {
    co_await reply_error(call.ex, api::method_not_supported(resource->group_resource(), verb));
  }
}

net::awaitable<void> ApiHandler::get(Call& call) {
  auto table = table_options(call);
  if (!table) {
    co_await reply_error(call.ex, table.error());
    co_return;
  }
  auto object = rest_.get(*call.resource, call.info.namespace_, call.info.name);
  if (!object) {
    co_await reply_error(call.ex, object.error());
    co_return;
  }
  if (*table && (call.info.subresource.empty() || call.info.subresource == "status")) {
    // (Built outside the co_await: GCC 12 miscompiles braced lists in coroutine calls.)
    const std::vector<const storage::StoredObject*> one = {object->get()};
    std::string body = render_table(call, **table, one, std::to_string((*object)->revision), "");
    co_await reply_json(call.ex, 200, std::move(body), kTableContentType);
    co_return;
  }
  auto body = shape_object(call, (*object)->json);
  co_await reply_shaped(call.ex, std::move(body));
}

net::awaitable<void> ApiHandler::list(Call& call) {
  auto request = list_request(call);
  if (!request) {
    co_await reply_error(call.ex, request.error());
    co_return;
  }
  auto result = rest_.list(*call.resource, *request);
  if (!result) {
    co_await reply_error(call.ex, result.error());
    co_return;
  }
  auto table = table_options(call);
  if (!table) {
    co_await reply_error(call.ex, table.error());
    co_return;
  }
  if (*table) {
    std::vector<const storage::StoredObject*> objects;
    for (const auto& item : result->items)
      objects.push_back(item.get());
    co_await reply_json(call.ex, 200,
                        render_table(call, **table, objects, std::to_string(result->revision),
                                     result->continue_token),
                        kTableContentType);
    co_return;
  }
  auto body = shape_list(call, result->revision, result->continue_token,
                         result->remaining_item_count, result->items);
  co_await reply_shaped(call.ex, std::move(body));
}

net::awaitable<void> ApiHandler::create(Call& call) {
  if (call.resource->terminating) {
    // (Built outside the co_await: GCC 12 miscompiles braced lists in coroutine calls.)
    const api::Status refused = terminating_create_refused();
    co_await reply_error(call.ex, refused);
    co_return;
  }
  auto body = create_body(call);
  if (!body) {
    co_await reply_error(call.ex, body.error());
    co_return;
  }
  auto result = co_await await_result<Result<WriteResult, api::Status>>([&](auto done) {
    rest_.create(*call.resource, call.info.namespace_, std::move(body->object), body->options,
                 done);
  });
  co_await reply(call, std::move(result), std::move(body->warnings));
}

Result<ApiHandler::CreateBody, api::Status> ApiHandler::create_body(const Call& call) const {
  auto options = write_options(call);
  if (!options) return fail(std::move(options).error());
  const auto& req = call.ex.request();
  auto obj = decode_object(*call.resource, call.resource->gvk(), req[http::field::content_type],
                           req.body());
  if (!obj) return fail(std::move(obj).error());
  auto warnings = check_body(call, *options, req[http::field::content_type], req.body());
  if (!warnings) return fail(std::move(warnings).error());
  return CreateBody{std::move(*options), std::move(*obj), std::move(*warnings)};
}

net::awaitable<void> ApiHandler::update(Call& call) {
  auto options = write_options(call);
  if (!options) {
    co_await reply_error(call.ex, options.error());
    co_return;
  }
  const auto& req = call.ex.request();
  const ResourceInfo& r = *call.resource;
  if (call.info.subresource == "finalize") {
    // Namespaces: only spec.finalizers change through finalize.
    auto obj = decode_object(r, r.gvk(), req[http::field::content_type], req.body());
    if (!obj) {
      co_await reply_error(call.ex, obj.error());
      co_return;
    }
    json::value finalizers = json::array();
    if (const json::object* spec = api::find_object(*obj, "spec")) {
      if (const json::value* f = spec->if_contains("finalizers")) finalizers = *f;
    }
    auto result = co_await await_result<Result<WriteResult, api::Status>>([&](auto done) {
      rest_.update_with(
          r, "", call.info.name, Subresource::kFinalize,
          [finalizers](const json::object& current) -> Result<json::object, api::Status> {
            json::object next = current;
            api::ensure_object(next, "spec")["finalizers"] = finalizers;
            return next;
          },
          *options, done);
    });
    co_await reply(call, std::move(result));
    co_return;
  }
  auto obj = decode_object(r, r.gvk(), req[http::field::content_type], req.body());
  if (!obj) {
    co_await reply_error(call.ex, obj.error());
    co_return;
  }
  auto warnings = check_body(call, *options, req[http::field::content_type], req.body());
  if (!warnings) {
    co_await reply_error(call.ex, warnings.error());
    co_return;
  }
  const Subresource sub =
      call.info.subresource == "status" ? Subresource::kStatus : Subresource::kNone;
  auto result = co_await await_result<Result<WriteResult, api::Status>>([&](auto done) {
    rest_.update(r, call.info.namespace_, call.info.name, sub, std::move(*obj), *options, done);
  });
  co_await reply(call, std::move(result), std::move(*warnings));
}

namespace {

// A non-apply patch with the force parameter.
api::Status force_without_apply() {
  return api::invalid({"meta.k8s.io", "PatchOptions"}, "",
                      {api::forbidden("force", "may not be specified for non-apply patch")});
}

// Applies a patch of `media` type to `current`. Unsupported types are 415.
Result<json::value, api::Status> apply_patch(std::string_view media, std::string_view body,
                                             const json::value& current,
                                             const api::GroupVersionKind& gvk) {
  if (media == "application/json-patch+json") {
    auto patch = api::JsonPatch::parse(body);
    if (!patch) return fail(api::to_status(patch.error()));
    if (patch->size() > api::kMaxJsonPatchOperations) {
      return fail(api::request_entity_too_large(api::too_many_operations_message(patch->size())));
    }
    auto result = patch->apply(current);
    if (!result) return fail(api::to_status(result.error()));
    return std::move(*result);
  }
  if (media == "application/merge-patch+json") {
    std::string error;
    auto patch = api::parse_json(body, &error);
    if (!patch) return fail(api::bad_request(fmt::format("error decoding patch: {}", error)));
    auto result = api::apply_merge_patch(current, *patch);
    if (!result) return fail(api::bad_request(result.error()));
    return std::move(*result);
  }
  if (media == "application/strategic-merge-patch+json") {
    const api::PatchSchema* schema = api::schema::PatchSchemas::builtin().of(gvk);
    if (schema == nullptr) {
      return fail(api::unsupported_media_type(
          "the body of the request was in an unknown format - accepted media types include: "
          "application/json-patch+json, application/merge-patch+json, "
          "application/apply-patch+yaml"));
    }
    std::string error;
    auto patch = api::parse_json(body, &error);
    if (!patch) return fail(api::bad_request(fmt::format("error decoding patch: {}", error)));
    auto result = api::apply_strategic_merge_patch(current, *patch, *schema);
    if (!result) return fail(api::to_status(result.error()));
    // Upstream's typed decoding drops the directive keys and nulls SMP leaves.
    drop_nulls(*result, /*drop_directives=*/true);
    return std::move(*result);
  }
  return fail(api::unsupported_media_type(fmt::format(
      "the server does not support patch type {}; supported types: application/json-patch+json, "
      "application/merge-patch+json, application/strategic-merge-patch+json",
      api::go_quote(media))));
}

// The Status of a failed apply, as upstream's handlers report each kind of failure.
api::Status apply_failure_status(const fieldmanager::ApplyFailure& f, std::string_view ns,
                                 std::string_view name, const api::GroupVersionKind& gvk) {
  using fieldmanager::ApplyFailure;
  switch (f.code) {
    case ApplyFailure::kConflict: {
      api::StatusDetails details;
      for (const fieldmanager::Conflict& c : f.conflicts) {
        details.causes.push_back({"FieldManagerConflict", "conflict with " + c.manager.printed(),
                                  fieldmanager::to_string(c.path)});
      }
      return api::Status{"Failure", fieldmanager::conflict_message(f.conflicts),
                         std::string(api::reason::kConflict), std::move(details), 409};
    }
    case ApplyFailure::kBadRequest:
      return api::bad_request(f.message);
    case ApplyFailure::kTypedPatch:
      // A plain error upstream: 500 with no reason.
      return api::Status{
          "Failure",
          fmt::format("failed to create typed patch object ({}/{}; {}/{}, Kind={}): {}", ns, name,
                      gvk.group, gvk.version, gvk.kind, f.message),
          "", std::nullopt, 500};
    case ApplyFailure::kInternal:
      break;
  }
  return api::Status{"Failure", f.message, "", std::nullopt, 500};
}

}  // namespace

// What an apply request carries: the configuration and whether it forces.
struct ApplyRequest {
  std::shared_ptr<const json::object> config;
  bool force = false;
};

// `force`: the parameter, read as every query boolean (query_bool).
Result<ApplyRequest, api::Status> read_apply_request(const api::GroupVersionKind& expected,
                                                     std::string_view field_manager, bool force,
                                                     std::string_view body) {
  if (field_manager.empty()) {
    return fail(api::invalid({"meta.k8s.io", "PatchOptions"}, "",
                             {api::required("fieldManager", "is required for apply patch")}));
  }
  ApplyRequest out;
  out.force = force;
  auto parsed = api::parse_yaml(body);
  if (!parsed)
    return fail(api::bad_request(fmt::format("error decoding YAML: {}", parsed.error())));
  if (!parsed->is_object()) {
    return fail(api::bad_request("error decoding YAML: the configuration is not an object"));
  }
  out.config = std::make_shared<const json::object>(std::move(parsed->get_object()));
  const std::string_view api_version = api::find_string(*out.config, "apiVersion").value_or("");
  const std::string_view kind = api::find_string(*out.config, "kind").value_or("");
  if (api_version != expected.api_version() || kind != expected.kind) {
    const std::string gv = api_version.find('/') == std::string_view::npos
                               ? "/" + std::string(api_version)
                               : std::string(api_version);
    return fail(api::bad_request(fmt::format("invalid object type: {}, Kind={}", gv, kind)));
  }
  return out;
}

// An apply that creates: refused when the configuration names a uid.
Result<void, api::Status> check_apply_create(const ResourceInfo& r, std::string_view name,
                                             const json::object& config) {
  const json::object* meta = api::find_object(config, "metadata");
  const std::string_view uid =
      meta != nullptr ? api::find_string(*meta, "uid").value_or("") : std::string_view();
  if (uid.empty()) return {};
  api::Status s = api::conflict(r.group_resource(), name, "");
  s.message = fmt::format(
      "uid mismatch: the provided object specified uid {}, and no existing object was found", uid);
  return fail(std::move(s));
}

net::awaitable<void> ApiHandler::server_side_apply(Call& call, WriteOptions options) {
  const ResourceInfo& r = *call.resource;
  const api::GroupVersionKind gvk = r.gvk();
  auto request =
      read_apply_request(gvk, call.param("fieldManager"), call.bool_param("force").value_or(false),
                         call.ex.request().body());
  if (!request) {
    co_await reply_error(call.ex, request.error());
    co_return;
  }
  auto config = request->config;
  const bool force = request->force;
  const Subresource sub =
      call.info.subresource == "status" ? Subresource::kStatus : Subresource::kNone;
  auto manager = rest_.field_manager(r, sub);
  options.fields_recorded = true;
  const std::string now = rfc3339_now();
  const std::string ns = call.info.namespace_;
  const std::string name = call.info.name;
  auto warnings = std::make_shared<std::vector<std::string>>();
  // The applied object, checked as a PUT body is.
  auto applied = [this, &call, config, manager, options, force, now, ns, name, gvk,
                  warnings](const json::object& live) -> Result<json::object, api::Status> {
    auto out = manager->apply(live, *config, options.field_manager, force, now);
    if (!out) return fail(apply_failure_status(out.error(), ns, name, gvk));
    const std::string got = api::metadata_string(*out, "name");
    if (got != name) {
      return fail(api::bad_request(fmt::format(
          "the name of the object ({}) does not match the name on the URL ({})", got, name)));
    }
    (*out)["apiVersion"] = gvk.api_version();
    (*out)["kind"] = gvk.kind;
    auto checked = check_body(call, options, "application/json", json::serialize(*out));
    if (!checked) return fail(std::move(checked).error());
    *warnings = std::move(*checked);
    return std::move(*out);
  };
  auto result = co_await await_result<Result<WriteResult, api::Status>>(
      [&](auto done) { rest_.update_with(r, ns, name, sub, applied, options, done); });
  if (!result && result.error().is(api::reason::kNotFound) && sub == Subresource::kNone) {
    // Apply creates what does not exist yet.
    json::object live = manager->zero();
    json::object& meta = api::ensure_object(live, "metadata");
    meta["name"] = name;
    if (r.namespaced) meta["namespace"] = ns;
    if (auto ok = check_apply_create(r, name, *config); !ok) {
      co_await reply_error(call.ex, ok.error());
      co_return;
    }
    auto obj = applied(live);
    if (!obj) {
      co_await reply_error(call.ex, obj.error());
      co_return;
    }
    result = co_await await_result<Result<WriteResult, api::Status>>(
        [&](auto done) { rest_.create(r, ns, std::move(*obj), options, done); });
  }
  co_await reply(call, std::move(result), std::move(*warnings));
}

net::awaitable<void> ApiHandler::patch(Call& call) {
  auto options = write_options(call);
  if (!options) {
    co_await reply_error(call.ex, options.error());
    co_return;
  }
  const auto& req = call.ex.request();
  const ResourceInfo& r = *call.resource;
  const std::string media = media_type(req[http::field::content_type]);
  if (media == "application/apply-patch+yaml") {
    co_await server_side_apply(call, std::move(*options));
    co_return;
  }
  if (call.has_param("force")) {
    co_await reply_error(call.ex, force_without_apply());
    co_return;
  }
  auto body = std::make_shared<std::string>(req.body());
  const Subresource sub =
      call.info.subresource == "status" ? Subresource::kStatus : Subresource::kNone;
  const api::GroupVersionKind gvk = r.gvk();
  // The patched object goes through the same decoder checks as a PUT body.
  auto warnings = std::make_shared<std::vector<std::string>>();
  const WriteOptions opts = *options;
  auto result = co_await await_result<Result<WriteResult, api::Status>>([&](auto done) {
    rest_.update_with(
        r, call.info.namespace_, call.info.name, sub,
        [this, &call, media, body, gvk, warnings,
         opts](const json::object& current) -> Result<json::object, api::Status> {
          auto patched = apply_patch(media, *body, json::value(current), gvk);
          if (!patched) return fail(std::move(patched).error());
          if (!patched->is_object()) {
            return fail(api::bad_request("the patch result is not a JSON object"));
          }
          json::object obj = std::move(patched->get_object());
          obj["apiVersion"] = gvk.api_version();
          obj["kind"] = gvk.kind;
          auto checked = check_body(call, opts, "application/json", json::serialize(obj));
          if (!checked) return fail(std::move(checked).error());
          *warnings = std::move(*checked);
          return obj;
        },
        *options, done);
  });
  co_await reply(call, std::move(result), std::move(*warnings));
}

net::awaitable<void> ApiHandler::remove(Call& call) {
  const auto& req = call.ex.request();
  DeleteOptions options;
  if (!req.body().empty()) {
    auto body = decode_delete_options(*call.resource, req[http::field::content_type], req.body());
    if (!body) {
      co_await reply_error(call.ex, body.error());
      co_return;
    }
    auto parsed = parse_delete_options(*body);
    if (!parsed) {
      co_await reply_error(call.ex, parsed.error());
      co_return;
    }
    options = std::move(*parsed);
  }
  // Query parameters are the other way to pass the same options.
  if (call.has_param("gracePeriodSeconds")) {
    auto g = parse_int(call.param("gracePeriodSeconds"));
    if (!g) {
      co_await reply_error(call.ex, api::bad_request("gracePeriodSeconds: invalid integer"));
      co_return;
    }
    options.grace_period_seconds = *g;
  }
  if (call.has_param("propagationPolicy"))
    options.propagation_policy = call.param("propagationPolicy");
  if (auto orphan = call.bool_param("orphanDependents")) options.orphan_dependents = *orphan;
  auto write = write_options(call);
  if (!write) {
    co_await reply_error(call.ex, write.error());
    co_return;
  }
  options.dry_run = options.dry_run || write->dry_run;
  auto result = co_await await_result<Result<WriteResult, api::Status>>([&](auto done) {
    rest_.remove(*call.resource, call.info.namespace_, call.info.name, options, done);
  });
  co_await reply(call, std::move(result));
}

net::awaitable<void> ApiHandler::remove_collection(Call& call) {
  auto request = list_request(call);
  if (!request) {
    co_await reply_error(call.ex, request.error());
    co_return;
  }
  request->limit = 0;
  request->continue_token.clear();
  auto listed = rest_.list(*call.resource, *request);
  if (!listed) {
    co_await reply_error(call.ex, listed.error());
    co_return;
  }
  DeleteOptions options;
  const auto& req = call.ex.request();
  if (!req.body().empty()) {
    auto body = decode_delete_options(*call.resource, req[http::field::content_type], req.body());
    if (!body) {
      co_await reply_error(call.ex, body.error());
      co_return;
    }
    auto parsed = parse_delete_options(*body);
    if (!parsed) {
      co_await reply_error(call.ex, parsed.error());
      co_return;
    }
    options = std::move(*parsed);
  }
  std::vector<storage::ObjectPtr> deleted;
  for (const auto& item : listed->items) {
    auto result = co_await await_result<Result<WriteResult, api::Status>>([&](auto done) {
      rest_.remove(*call.resource, item->namespace_, item->name, options, done);
    });
    if (!result) {
      if (result.error().code == 404) continue;  // gone meanwhile
      co_await reply_error(call.ex, result.error());
      co_return;
    }
    deleted.push_back(result->object);
  }
  auto body = shape_list(call, rest_.store().visible_revision(), "", std::nullopt, deleted);
  co_await reply_shaped(call.ex, std::move(body));
}

namespace {

// The members of a simple JSON path (".spec.replicas" -> spec, replicas),
// the only form scale subresource paths may take.
std::vector<std::string> path_members(std::string_view path) {
  std::vector<std::string> out;
  if (path.starts_with('.')) path.remove_prefix(1);
  while (!path.empty()) {
    const auto dot = path.find('.');
    out.emplace_back(path.substr(0, dot));
    if (dot == std::string_view::npos) break;
    path.remove_prefix(dot + 1);
  }
  return out;
}

const json::value* value_at(const json::object& obj, std::string_view path) {
  const json::object* o = &obj;
  const json::value* v = nullptr;
  for (const auto& member : path_members(path)) {
    if (o == nullptr) return nullptr;
    v = o->if_contains(member);
    if (v == nullptr) return nullptr;
    o = v->if_object();
  }
  return v;
}

void set_at(json::object& obj, std::string_view path, json::value value) {
  const auto members = path_members(path);
  if (members.empty()) return;
  json::object* o = &obj;
  for (std::size_t i = 0; i + 1 < members.size(); ++i)
    o = &api::ensure_object(*o, members[i]);
  (*o)[members.back()] = std::move(value);
}

// Where a kind keeps what its Scale shows: a custom resource's declared
// paths, else the built-in workloads' spec.replicas, status.replicas and
// spec.selector.
registry::ScalePaths scale_paths(const ResourceInfo& r) {
  if (r.scale_paths) return *r.scale_paths;
  return {".spec.replicas", ".status.replicas", ""};
}

// The autoscaling/v1 Scale of a Deployment, a ReplicaSet or a custom resource.
json::object to_scale(const ResourceInfo& r, const json::object& obj) {
  json::object meta;
  if (const json::object* m = api::find_object(obj, "metadata")) {
    for (const char* k : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
      if (const json::value* v = m->if_contains(k)) meta[k] = *v;
    }
  }
  const registry::ScalePaths paths = scale_paths(r);
  auto int_at = [&obj](std::string_view path, std::int64_t absent) {
    const json::value* v = value_at(obj, path);
    if (v != nullptr && v->is_int64()) return v->get_int64();
    if (v != nullptr && v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
    return absent;
  };
  // Built-in workloads default spec.replicas to 1; custom resources read 0.
  const std::int64_t spec_replicas = int_at(paths.spec_replicas, r.scale_paths ? 0 : 1);
  const std::int64_t status_replicas = int_at(paths.status_replicas, 0);
  std::string selector;
  if (r.scale_paths) {
    if (!paths.label_selector.empty()) {
      if (const json::value* v = value_at(obj, paths.label_selector); v && v->is_string()) {
        selector = std::string(v->get_string());
      }
    }
  } else if (const json::object* spec = api::find_object(obj, "spec")) {
    auto parsed = api::label_selector_from_json(spec->if_contains("selector"));
    if (parsed) selector = api::format_label_selector(*parsed);
  }
  json::object status{{"replicas", status_replicas}};
  if (!selector.empty()) status["selector"] = selector;
  return {{"kind", "Scale"},
          {"apiVersion", "autoscaling/v1"},
          {"metadata", std::move(meta)},
          {"spec", json::object{{"replicas", spec_replicas}}},
          {"status", std::move(status)}};
}

// A write through /scale: the Scale it shows of the parent, the Scale the
// request makes of it, and the parent that Scale makes, managed fields
// included (tracked on the Scale, as upstream: fieldmanager/scale_fields.h).
struct ScaleWrite {
  const ResourceInfo& r;
  const fieldmanager::FieldManager& scale_manager;
  fieldmanager::ReplicasPaths paths;
  std::string ns;
  std::string name;
  std::string field_manager;
  std::string now;

  // Upstream tracks a custom resource's Scale with the CRD's types, which
  // have none for it (kubernetes/kubernetes#116311): a PUT or patch through
  // its /scale leaves the Scale without managed fields, so nobody owns the
  // replicas afterwards, and an apply fails.
  bool typed() const { return r.structural_schema == nullptr; }

  // The Scale a PUT body or a patch gives, with its managed fields.
  Result<json::object, api::Status> updated(const json::object& scale,
                                            Result<json::value, api::Status> next) const {
    if (!next) return fail(std::move(next).error());
    if (!next->is_object()) return fail(api::bad_request("Scale must be an object"));
    json::object out = std::move(next->get_object());
    if (!typed() || !scale_manager.update(scale, out, field_manager, now)) {
      api::ensure_object(out, "metadata").erase("managedFields");
    }
    return out;
  }

  Result<json::object, api::Status> applied(const json::object& scale,
                                            const ApplyRequest& request) const {
    if (!typed()) {
      return fail(apply_failure_status({{},
                                        fieldmanager::ApplyFailure::kTypedPatch,
                                        "no corresponding type for autoscaling/v1, Kind=Scale"},
                                       ns, name, scale_kind()));
    }
    auto out = scale_manager.apply(scale, *request.config, field_manager, request.force, now);
    if (!out) return fail(apply_failure_status(out.error(), ns, name, scale_kind()));
    return std::move(*out);
  }

  // `current` with the replicas of `next` and, from the managed fields of
  // `next`, its own (`parent`: current's, decoded).
  Result<json::object, api::Status> parent_after(
      const json::object& current, const std::vector<fieldmanager::ManagerEntry>& parent,
      const json::object& next) const {
    const json::object* spec = api::find_object(next, "spec");
    const std::int64_t replicas = spec ? api::find_int(*spec, "replicas").value_or(0) : 0;
    if (replicas < 0) {
      return fail(api::invalid({scale_kind().group, scale_kind().kind}, name,
                               {api::invalid("spec.replicas", json::value(replicas),
                                             "must be greater than or equal to 0")}));
    }
    const std::string uid = api::metadata_string(next, "uid");
    const std::string current_uid = api::metadata_string(current, "uid");
    if (!uid.empty() && uid != current_uid) {
      return fail(api::conflict({r.gvr.group, r.gvr.resource + "/scale"}, name,
                                fmt::format("Precondition failed: UID in precondition: {}, UID "
                                            "in object meta: {}",
                                            uid, current_uid)));
    }
    json::object out = current;
    set_at(out, scale_paths(r).spec_replicas, replicas);
    // The Scale's resourceVersion is a precondition on the object.
    json::object& meta = api::ensure_object(out, "metadata");
    meta.erase("resourceVersion");
    if (auto rv = api::metadata_string(next, "resourceVersion"); !rv.empty()) {
      meta["resourceVersion"] = rv;
    }
    auto scale_entries = fieldmanager::decode_managed_fields(next);
    fieldmanager::encode_managed_fields(
        out, fieldmanager::parent_entries(
                 parent, scale_entries ? *scale_entries : std::vector<fieldmanager::ManagerEntry>{},
                 r.api_version(), paths));
    return out;
  }
};

}  // namespace

net::awaitable<void> ApiHandler::scale(Call& call) {
  const ResourceInfo& r = *call.resource;
  const std::string& verb = call.info.verb;
  if (verb == "get") {
    auto object = rest_.get(r, call.info.namespace_, call.info.name);
    if (!object) {
      co_await reply_error(call.ex, object.error());
      co_return;
    }
    auto body = shape_object(call, json::serialize(to_scale(r, parse_stored(**object))));
    co_await reply_shaped(call.ex, std::move(body));
    co_return;
  }
  auto options = write_options(call);
  if (!options) {
    co_await reply_error(call.ex, options.error());
    co_return;
  }
  const auto& req = call.ex.request();
  const std::string media = media_type(req[http::field::content_type]);
  const bool is_update = verb == "update";
  std::optional<ApplyRequest> apply;
  if (media == "application/apply-patch+yaml") {
    auto request = read_apply_request(scale_kind(), call.param("fieldManager"),
                                      call.bool_param("force").value_or(false), req.body());
    if (!request) {
      co_await reply_error(call.ex, request.error());
      co_return;
    }
    apply = std::move(*request);
  } else if (call.has_param("force")) {
    co_await reply_error(call.ex, force_without_apply());
    co_return;
  }
  auto body = std::make_shared<std::string>(req.body());
  options->fields_recorded = true;
  ScaleWrite write{r,
                   rest_.scale_field_manager(),
                   replicas_paths(r),
                   call.info.namespace_,
                   call.info.name,
                   options->field_manager,
                   rfc3339_now()};
  auto result = co_await await_result<Result<WriteResult, api::Status>>([&](auto done) {
    rest_.update_with(
        r, call.info.namespace_, write.name, Subresource::kNone,
        [&write, &apply, media, body,
         is_update](const json::object& current) -> Result<json::object, api::Status> {
          json::object scale = to_scale(write.r, current);
          auto parent = fieldmanager::decode_managed_fields(current);
          if (!parent) return fail(api::internal_error(parent.error()));
          fieldmanager::encode_managed_fields(scale,
                                              fieldmanager::scale_entries(*parent, write.paths));
          Result<json::object, api::Status> next_scale =
              apply ? write.applied(scale, *apply)
                    : write.updated(scale, is_update ? decode_body(media, *body, &scale_kind())
                                                     : apply_patch(media, *body, json::value(scale),
                                                                   scale_kind()));
          if (!next_scale) return fail(std::move(next_scale).error());
          return write.parent_after(current, *parent, *next_scale);
        },
        *options, done);
  });
  if (result && result->object && !result->body) {
    result->body = json::value(to_scale(r, parse_stored(*result->object)));
  }
  co_await reply(call, std::move(result));
}

net::awaitable<void> ApiHandler::binding(Call& call) {
  const auto& req = call.ex.request();
  const api::GroupVersionKind binding_kind{"", "v1", "Binding"};
  auto body = decode_body(req[http::field::content_type], req.body(), &binding_kind);
  if (!body || !body->is_object()) {
    const api::Status error = body ? api::bad_request("Binding must be an object") : body.error();
    co_await reply_error(call.ex, error);
    co_return;
  }
  auto options = write_options(call);
  if (!options) {
    co_await reply_error(call.ex, options.error());
    co_return;
  }
  // The same path kcm-local's scheduler binds through (pod_binding.h).
  auto result = co_await await_result<Result<WriteResult, api::Status>>([&](auto done) {
    create_pod_binding(rest_, *call.resource, call.info.namespace_, call.info.name,
                       body->get_object(), *options, done);
  });
  co_await reply(call, std::move(result));
}

}  // namespace kcm::local::apiserver
