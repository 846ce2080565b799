// Field-level validation errors (upstream's field.Error / field.ErrorList).
// They become the `details.causes` of a 422 Invalid Status, which kubectl prints
// as "spec.replicas: Invalid value: -1: must be greater than or equal to 0".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/json.h"

namespace kcm::api {

enum class FieldErrorType {
  kNotFound,
  kRequired,
  kDuplicate,
  kInvalid,
  kNotSupported,
  kForbidden,
  kTooLong,
  kTooMany,
  kInternal,
  kTypeInvalid,
};

// "FieldValueInvalid", ...: the cause `type` on the wire.
std::string_view cause_type(FieldErrorType type);
// "Invalid value", ...: the human prefix of the message.
std::string_view describe(FieldErrorType type);

struct FieldError {
  FieldErrorType type;
  std::string field;                     // "spec.template.spec.containers[0].image"
  std::optional<json::value> bad_value;  // nullopt: not printed
  std::string detail;

  // The message without the field: "Invalid value: -1: must be ...".
  std::string body() const;
  // "field: body".
  std::string message() const;
};

using FieldErrors = std::vector<FieldError>;

FieldError required(std::string field, std::string detail = {});
FieldError invalid(std::string field, json::value bad_value, std::string detail);
FieldError not_supported(std::string field, json::value bad_value,
                         const std::vector<std::string>& supported);
FieldError forbidden(std::string field, std::string detail);
FieldError duplicate(std::string field, json::value bad_value);
FieldError too_long(std::string field, std::size_t max_length);
FieldError too_many(std::string field, std::int64_t actual, std::int64_t max);
FieldError type_invalid(std::string field, json::value bad_value, std::string detail);

// Go's %q for a string: double-quoted with escapes.
std::string go_quote(std::string_view s);
// A JSON value as upstream's messages print one: scalars with %v, strings
// with %q, lists and maps as compact JSON.
std::string go_value_string(const json::value& v);

// Joins paths the way upstream's field.Path prints: child("spec").index(0) => "spec[0]".
std::string child(std::string_view parent, std::string_view name);
std::string index(std::string_view parent, std::size_t i);
std::string key(std::string_view parent, std::string_view k);

}  // namespace kcm::api
