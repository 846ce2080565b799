// The metav1.Status error object: what the API server answers on failure and
// what clients branch on (NotFound, Conflict, AlreadyExists, Expired, ...).
// Factory functions produce upstream's exact messages, reasons and details.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/field_error.h"
#include "api/group_version.h"
#include "api/json.h"

namespace kcm::api {

namespace reason {
inline constexpr std::string_view kUnauthorized = "Unauthorized";
inline constexpr std::string_view kForbidden = "Forbidden";
inline constexpr std::string_view kNotFound = "NotFound";
inline constexpr std::string_view kAlreadyExists = "AlreadyExists";
inline constexpr std::string_view kConflict = "Conflict";
inline constexpr std::string_view kGone = "Gone";
inline constexpr std::string_view kInvalid = "Invalid";
inline constexpr std::string_view kServerTimeout = "ServerTimeout";
inline constexpr std::string_view kTimeout = "Timeout";
inline constexpr std::string_view kTooManyRequests = "TooManyRequests";
inline constexpr std::string_view kBadRequest = "BadRequest";
inline constexpr std::string_view kMethodNotAllowed = "MethodNotAllowed";
inline constexpr std::string_view kNotAcceptable = "NotAcceptable";
inline constexpr std::string_view kRequestEntityTooLarge = "RequestEntityTooLarge";
inline constexpr std::string_view kUnsupportedMediaType = "UnsupportedMediaType";
inline constexpr std::string_view kInternalError = "InternalError";
inline constexpr std::string_view kExpired = "Expired";
inline constexpr std::string_view kServiceUnavailable = "ServiceUnavailable";
}  // namespace reason

struct StatusCause {
  std::string type;  // e.g. "FieldValueInvalid"
  std::string message;
  std::string field;
};

struct StatusDetails {
  std::string name;
  std::string group;
  std::string kind;  // plural resource for NotFound/Conflict..., Kind for Invalid
  std::string uid;
  std::vector<StatusCause> causes;
  std::int32_t retry_after_seconds = 0;
};

struct Status {
  std::string status = "Failure";  // "Success" or "Failure"
  std::string message;
  std::string reason;
  std::optional<StatusDetails> details;
  int code = 500;

  bool is(std::string_view r) const { return reason == r; }
  json::value to_json() const;
  static Status from_json(const json::value& v);
  static Status success();
};

Status not_found(const GroupResource& gr, std::string_view name);
Status already_exists(const GroupResource& gr, std::string_view name);
// `err` completes "Operation cannot be fulfilled on <gr> "<name>": <err>".
Status conflict(const GroupResource& gr, std::string_view name, std::string_view err);
// The optimistic-concurrency message upstream uses.
inline constexpr std::string_view kObjectModified =
    "the object has been modified; please apply your changes to the latest version and try "
    "again";
Status invalid(const GroupKind& gk, std::string_view name, const FieldErrors& errors);
Status bad_request(std::string message);
Status unauthorized(std::string message = "Unauthorized");
Status forbidden(const GroupResource& gr, std::string_view name, std::string_view err);
Status method_not_supported(const GroupResource& gr, std::string_view action);
Status expired(std::string message);
Status gone(std::string message);
Status internal_error(std::string_view err);
Status request_entity_too_large(std::string_view message);
Status unsupported_media_type(std::string message);
Status not_acceptable(std::string message);
Status too_many_requests(std::string message, int retry_after_seconds);
Status service_unavailable(std::string message);
Status timeout(std::string message, int retry_after_seconds);
// A 404 for paths that name no resource: "the server could not find the requested resource".
Status not_found_path();
// The 422 upstream answers for a JSON patch that cannot be applied.
Status unprocessable(std::string_view server_message);

}  // namespace kcm::api
