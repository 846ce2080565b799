#include "api/json.h"

#include <fmt/format.h>

#include "api/json_parse.h"

namespace kcm::api {

std::optional<json::value> parse_json(std::string_view text, std::string* error,
                                      json::storage_ptr sp) {
  const json::parse_options options = json_parse_options();
  // The parser's working stack starts here rather than on the heap.
  unsigned char stack[2048];
  json::stream_parser parser({}, options, stack, sizeof stack);
  parser.reset(std::move(sp));
  boost::system::error_code ec;
  std::size_t consumed = parser.write_some(text.data(), text.size(), ec);
  if (!ec && consumed < text.size()) {
    // Trailing data after a complete value: only whitespace is allowed and
    // write_some already skipped it, so anything left is an error.
    ec = json::error::extra_data;
  }
  if (!ec) parser.finish(ec);
  if (ec) {
    if (error != nullptr) {
      *error = json_parse_error(consumed, ec);
    }
    return std::nullopt;
  }
  return parser.release();
}

json::parse_options json_parse_options() {
  json::parse_options options;
  options.max_depth = kJsonMaxDepth;
  return options;
}

std::string json_parse_error(std::size_t consumed, const boost::system::error_code& ec) {
  return fmt::format("invalid JSON at byte {}: {}", consumed, ec.message());
}

std::string to_json_string(const json::value& v) {
  return json::serialize(v);
}

const json::value* find(const json::object& o, std::string_view key) {
  return o.if_contains(key);
}

const json::value* find_path(const json::value& v, std::initializer_list<std::string_view> path) {
  const json::value* cur = &v;
  for (std::string_view key : path) {
    const json::object* o = cur->if_object();
    if (o == nullptr) return nullptr;
    cur = o->if_contains(key);
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

const json::object* find_object(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr ? v->if_object() : nullptr;
}

const json::array* find_array(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr ? v->if_array() : nullptr;
}

std::optional<std::string_view> find_string(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  const json::string& s = v->get_string();
  return std::string_view(s.data(), s.size());
}

std::optional<std::int64_t> find_int(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64() && v->get_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
    return static_cast<std::int64_t>(v->get_uint64());
  }
  return std::nullopt;
}

std::optional<bool> find_bool(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_bool()) return std::nullopt;
  return v->get_bool();
}

json::object& ensure_object(json::object& o, std::string_view key) {
  json::value& v = o[key];
  if (!v.is_object()) v = json::object();
  return v.get_object();
}

std::string_view as_string_view(const json::value* v) {
  if (v == nullptr || !v->is_string()) return {};
  const json::string& s = v->get_string();
  return std::string_view(s.data(), s.size());
}

std::string_view json_type_name(const json::value& v) {
  return v.is_bool() ? "boolean" : go_json_type_name(v);
}

std::string_view go_json_type_name(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return "null";
    case json::kind::bool_:
      return "bool";
    case json::kind::string:
      return "string";
    case json::kind::array:
      return "array";
    case json::kind::object:
      return "object";
    default:
      return "number";
  }
}

bool is_empty_value(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return true;
    case json::kind::bool_:
      return !v.get_bool();
    case json::kind::int64:
      return v.get_int64() == 0;
    case json::kind::uint64:
      return v.get_uint64() == 0;
    case json::kind::double_:
      return v.get_double() == 0;
    case json::kind::string:
      return v.get_string().empty();
    case json::kind::array:
      return v.get_array().empty();
    case json::kind::object:
      return v.get_object().empty();
  }
  return false;
}

}  // namespace kcm::api
