#include "api/field_error.h"

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <utility>

#include "api/utf8.h"

namespace kcm::api {

std::string_view cause_type(FieldErrorType type) {
  switch (type) {
    case FieldErrorType::kNotFound:
      return "FieldValueNotFound";
    case FieldErrorType::kRequired:
      return "FieldValueRequired";
    case FieldErrorType::kDuplicate:
      return "FieldValueDuplicate";
    case FieldErrorType::kInvalid:
      return "FieldValueInvalid";
    case FieldErrorType::kNotSupported:
      return "FieldValueNotSupported";
    case FieldErrorType::kForbidden:
      return "FieldValueForbidden";
    case FieldErrorType::kTooLong:
      return "FieldValueTooLong";
    case FieldErrorType::kTooMany:
      return "FieldValueTooMany";
    case FieldErrorType::kInternal:
      return "InternalError";
    case FieldErrorType::kTypeInvalid:
      return "FieldValueTypeInvalid";
  }
  return "FieldValueInvalid";
}

std::string_view describe(FieldErrorType type) {
  switch (type) {
    case FieldErrorType::kNotFound:
      return "Not found";
    case FieldErrorType::kRequired:
      return "Required value";
    case FieldErrorType::kDuplicate:
      return "Duplicate value";
    case FieldErrorType::kInvalid:
      return "Invalid value";
    case FieldErrorType::kNotSupported:
      return "Unsupported value";
    case FieldErrorType::kForbidden:
      return "Forbidden";
    case FieldErrorType::kTooLong:
      return "Too long";
    case FieldErrorType::kTooMany:
      return "Too many";
    case FieldErrorType::kInternal:
      return "Internal error";
    case FieldErrorType::kTypeInvalid:
      return "Invalid value";
  }
  return "Invalid value";
}

std::string go_quote(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const auto rune = decode_rune(s, i);
      if (!rune) {
        out += fmt::format("\\x{:02x}", c);  // an invalid byte, as Go prints it
        ++i;
      } else if ((rune->first >= 0x80 && rune->first <= 0x9F) || rune->first == 0xAD) {
        // Not printable (C1 controls, the soft hyphen): Go writes \u escapes.
        out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(rune->first));
        i += rune->second;
      } else {
        out.append(s.substr(i, rune->second));
        i += rune->second;
      }
      continue;
    }
    ++i;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\v':
        out += "\\v";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += fmt::format("\\x{:02x}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
  return out;
}

std::string go_value_string(const json::value& v) {
  switch (v.kind()) {
    case json::kind::string:
      return go_quote(v.get_string());
    case json::kind::null:
      return "null";
    case json::kind::bool_:
      return v.get_bool() ? "true" : "false";
    case json::kind::int64:
      return std::to_string(v.get_int64());
    case json::kind::uint64:
      return std::to_string(v.get_uint64());
    case json::kind::double_:
      return fmt::format("{}", v.get_double());
    default:
      return json::serialize(v);
  }
}

std::string FieldError::body() const {
  std::string s(describe(type));
  const bool omit = type == FieldErrorType::kRequired || type == FieldErrorType::kForbidden ||
                    type == FieldErrorType::kTooLong || type == FieldErrorType::kInternal ||
                    !bad_value.has_value();
  if (!omit) s += ": " + go_value_string(*bad_value);
  if (!detail.empty()) s += ": " + detail;
  return s;
}

std::string FieldError::message() const {
  return field + ": " + body();
}

FieldError required(std::string field, std::string detail) {
  return {FieldErrorType::kRequired, std::move(field), std::nullopt, std::move(detail)};
}
FieldError invalid(std::string field, json::value bad_value, std::string detail) {
  return {FieldErrorType::kInvalid, std::move(field), std::move(bad_value), std::move(detail)};
}
FieldError not_supported(std::string field, json::value bad_value,
                         const std::vector<std::string>& supported) {
  std::string detail;
  for (const auto& s : supported) {
    detail += detail.empty() ? "supported values: " : ", ";
    detail += go_quote(s);
  }
  return {FieldErrorType::kNotSupported, std::move(field), std::move(bad_value), detail};
}
FieldError forbidden(std::string field, std::string detail) {
  return {FieldErrorType::kForbidden, std::move(field), std::nullopt, std::move(detail)};
}
FieldError duplicate(std::string field, json::value bad_value) {
  return {FieldErrorType::kDuplicate, std::move(field), std::move(bad_value), {}};
}
FieldError too_long(std::string field, std::size_t max_length) {
  return {FieldErrorType::kTooLong, std::move(field), std::nullopt,
          fmt::format("may not be more than {} bytes", max_length)};
}
FieldError too_many(std::string field, std::int64_t actual, std::int64_t max) {
  return {FieldErrorType::kTooMany, std::move(field), json::value(actual),
          fmt::format("must have at most {} items", max)};
}
FieldError type_invalid(std::string field, json::value bad_value, std::string detail) {
  return {FieldErrorType::kTypeInvalid, std::move(field), std::move(bad_value), std::move(detail)};
}

std::string child(std::string_view parent, std::string_view name) {
  if (parent.empty()) return std::string(name);
  return fmt::format("{}.{}", parent, name);
}
std::string index(std::string_view parent, std::size_t i) {
  return fmt::format("{}[{}]", parent, i);
}
std::string key(std::string_view parent, std::string_view k) {
  return fmt::format("{}[{}]", parent, k);
}

}  // namespace kcm::api
