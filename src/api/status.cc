#include "api/status.h"

#include <fmt/format.h>

#include <set>

namespace kcm::api {

json::value Status::to_json() const {
  json::object o;
  o["kind"] = "Status";
  o["apiVersion"] = "v1";
  o["metadata"] = json::object();
  o["status"] = status;
  if (!message.empty()) o["message"] = message;
  if (!reason.empty()) o["reason"] = reason;
  if (details) {
    json::object d;
    if (!details->name.empty()) d["name"] = details->name;
    if (!details->group.empty()) d["group"] = details->group;
    if (!details->kind.empty()) d["kind"] = details->kind;
    if (!details->uid.empty()) d["uid"] = details->uid;
    if (!details->causes.empty()) {
      json::array causes;
      for (const auto& c : details->causes) {
        json::object co;
        if (!c.type.empty()) co["reason"] = c.type;
        if (!c.message.empty()) co["message"] = c.message;
        if (!c.field.empty()) co["field"] = c.field;
        causes.push_back(std::move(co));
      }
      d["causes"] = std::move(causes);
    }
    if (details->retry_after_seconds != 0) d["retryAfterSeconds"] = details->retry_after_seconds;
    o["details"] = std::move(d);
  }
  o["code"] = code;
  return o;
}

Status Status::from_json(const json::value& v) {
  Status s;
  const json::object* o = v.if_object();
  if (o == nullptr) return s;
  s.status = std::string(find_string(*o, "status").value_or("Failure"));
  s.message = std::string(find_string(*o, "message").value_or(""));
  s.reason = std::string(find_string(*o, "reason").value_or(""));
  s.code = static_cast<int>(find_int(*o, "code").value_or(0));
  if (const json::object* d = find_object(*o, "details")) {
    StatusDetails details;
    details.name = std::string(find_string(*d, "name").value_or(""));
    details.group = std::string(find_string(*d, "group").value_or(""));
    details.kind = std::string(find_string(*d, "kind").value_or(""));
    details.uid = std::string(find_string(*d, "uid").value_or(""));
    details.retry_after_seconds =
        static_cast<std::int32_t>(find_int(*d, "retryAfterSeconds").value_or(0));
    if (const json::array* causes = find_array(*d, "causes")) {
      for (const auto& c : *causes) {
        if (!c.is_object()) continue;
        const auto& co = c.get_object();
        details.causes.push_back({std::string(find_string(co, "reason").value_or("")),
                                  std::string(find_string(co, "message").value_or("")),
                                  std::string(find_string(co, "field").value_or(""))});
      }
    }
    s.details = std::move(details);
  }
  return s;
}

Status Status::success() {
  Status s;
  s.status = "Success";
  s.code = 200;
  return s;
}

namespace {

Status make(int code, std::string_view r, std::string message) {
  Status s;
  s.code = code;
  s.reason = std::string(r);
  s.message = std::move(message);
  return s;
}

StatusDetails resource_details(const GroupResource& gr, std::string_view name) {
  StatusDetails d;
  d.group = gr.group;
  d.kind = gr.resource;
  d.name = std::string(name);
  return d;
}

}  // namespace

Status not_found(const GroupResource& gr, std::string_view name) {
  Status s = make(404, reason::kNotFound, fmt::format("{} {} not found", gr.string(), go_quote(name)));
  s.details = resource_details(gr, name);
  return s;
}

Status already_exists(const GroupResource& gr, std::string_view name) {
  Status s = make(409, reason::kAlreadyExists,
                  fmt::format("{} {} already exists", gr.string(), go_quote(name)));
  s.details = resource_details(gr, name);
  return s;
}

Status conflict(const GroupResource& gr, std::string_view name, std::string_view err) {
  Status s = make(409, reason::kConflict,
                  fmt::format("Operation cannot be fulfilled on {} {}: {}", gr.string(),
                              go_quote(name), err));
  s.details = resource_details(gr, name);
  return s;
}

Status invalid(const GroupKind& gk, std::string_view name, const FieldErrors& errors) {
  Status s = make(422, reason::kInvalid, "");
  StatusDetails d;
  d.group = gk.group;
  d.kind = gk.kind;
  d.name = std::string(name);
  // Upstream's aggregate drops duplicate messages and prints one error bare,
  // several as "[a, b]".
  std::vector<std::string> messages;
  std::set<std::string> seen;
  for (const auto& e : errors) {
    d.causes.push_back({std::string(cause_type(e.type)), e.body(), e.field});
    std::string m = e.message();
    if (seen.insert(m).second) messages.push_back(std::move(m));
  }
  std::string head = fmt::format("{} {} is invalid", gk.string(), go_quote(name));
  if (messages.empty()) {
    s.message = head;
  } else if (messages.size() == 1) {
    s.message = head + ": " + messages[0];
  } else {
    s.message = fmt::format("{}: [{}]", head, fmt::join(messages, ", "));
  }
  s.details = std::move(d);
  return s;
}

Status bad_request(std::string message) {
  return make(400, reason::kBadRequest, std::move(message));
}

Status unauthorized(std::string message) {
  return make(401, reason::kUnauthorized, std::move(message));
}

Status forbidden(const GroupResource& gr, std::string_view name, std::string_view err) {
  std::string message;
  if (gr.resource.empty()) {
    message = fmt::format("forbidden: {}", err);
  } else if (name.empty()) {
    message = fmt::format("{} is forbidden: {}", gr.string(), err);
  } else {
    message = fmt::format("{} {} is forbidden: {}", gr.string(), go_quote(name), err);
  }
  Status s = make(403, reason::kForbidden, std::move(message));
  s.details = resource_details(gr, name);
  return s;
}

Status method_not_supported(const GroupResource& gr, std::string_view action) {
  Status s = make(405, reason::kMethodNotAllowed,
                  fmt::format("{} is not supported on resources of kind {}", action,
                              go_quote(gr.string())));
  s.details = resource_details(gr, "");
  return s;
}

Status expired(std::string message) { return make(410, reason::kExpired, std::move(message)); }
Status gone(std::string message) { return make(410, reason::kGone, std::move(message)); }

Status internal_error(std::string_view err) {
  Status s = make(500, reason::kInternalError, fmt::format("Internal error occurred: {}", err));
  StatusDetails d;
  d.causes.push_back({"", std::string(err), ""});
  s.details = std::move(d);
  return s;
}

Status request_entity_too_large(std::string_view message) {
  return make(413, reason::kRequestEntityTooLarge,
              fmt::format("Request entity too large: {}", message));
}

Status unsupported_media_type(std::string message) {
  return make(415, reason::kUnsupportedMediaType, std::move(message));
}

Status not_acceptable(std::string message) {
  return make(406, reason::kNotAcceptable, std::move(message));
}

Status too_many_requests(std::string message, int retry_after_seconds) {
  Status s = make(429, reason::kTooManyRequests, std::move(message));
  StatusDetails d;
  d.retry_after_seconds = retry_after_seconds;
  s.details = std::move(d);
  return s;
}

Status service_unavailable(std::string message) {
  return make(503, reason::kServiceUnavailable, std::move(message));
}

Status timeout(std::string message, int retry_after_seconds) {
  Status s = make(504, reason::kTimeout, fmt::format("Timeout: {}", message));
  StatusDetails d;
  d.retry_after_seconds = retry_after_seconds;
  s.details = std::move(d);
  return s;
}

Status not_found_path() {
  Status s = make(404, reason::kNotFound, "the server could not find the requested resource");
  s.details = StatusDetails{};
  return s;
}

Status unprocessable(std::string_view /*server_message*/) {
  // Upstream answers with NewGenericServerResponse(422, ...), which keeps only
  // its generic text; kubectl prints "The request is invalid: ...".
  Status s = make(422, reason::kInvalid,
                  "the server rejected our request due to an error in our request");
  s.details = StatusDetails{};
  return s;
}

}  // namespace kcm::api
