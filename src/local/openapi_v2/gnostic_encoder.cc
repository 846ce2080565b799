#include "local/openapi_v2/gnostic_encoder.h"

#include <fmt/format.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string_view>

#include "local/openapi_v2/extension_yaml.h"

namespace kcm::local::openapi_v2 {
namespace {

namespace pbio = google::protobuf::io;

enum WireType : std::uint32_t { kVarint = 0, kFixed64 = 1, kBytes = 2 };

// The bytes of one message under construction, in proto3 encoding.
class Message {
 public:
  void bytes(int field, std::string_view value) {
    write([&](pbio::CodedOutputStream& out) {
      out.WriteTag(tag(field, kBytes));
      out.WriteVarint64(value.size());
      out.WriteRaw(value.data(), static_cast<int>(value.size()));
    });
  }
  void string(int field, std::string_view value) {
    if (!value.empty()) bytes(field, value);
  }
  // `always`: a oneof member, written even when false.
  void boolean(int field, bool value, bool always = false) {
    if (!value && !always) return;
    write([&](pbio::CodedOutputStream& out) {
      out.WriteTag(tag(field, kVarint));
      out.WriteVarint64(value ? 1 : 0);
    });
  }
  void int64(int field, std::int64_t value) {
    if (value == 0) return;
    write([&](pbio::CodedOutputStream& out) {
      out.WriteTag(tag(field, kVarint));
      out.WriteVarint64(static_cast<std::uint64_t>(value));
    });
  }
  void dbl(int field, double value) {
    if (value == 0.0 && !std::signbit(value)) return;
    write([&](pbio::CodedOutputStream& out) {
      out.WriteTag(tag(field, kFixed64));
      out.WriteLittleEndian64(std::bit_cast<std::uint64_t>(value));
    });
  }
  std::string take() { return std::move(bytes_); }

 private:
  static std::uint32_t tag(int field, WireType type) {
    return (static_cast<std::uint32_t>(field) << 3) | type;
  }
  template <class F>
  void write(F&& f) {
    // The stream appends to bytes_ and trims it to what was written when destroyed.
    pbio::StringOutputStream sink(&bytes_);
    pbio::CodedOutputStream out(&sink);
    f(out);
  }

  std::string bytes_;
};

std::string member_path(std::string_view path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

std::string item_path(std::string_view path, std::size_t i) {
  return fmt::format("{}[{}]", path, i);
}

bool is_extension(std::string_view key) {
  return key.starts_with("x-");
}

// The members every non-body parameter and PrimitivesItems share.
constexpr std::array<std::string_view, 17> kPrimitiveMembers = {
    "type",      "format",           "items",    "collectionFormat", "default",
    "maximum",   "exclusiveMaximum", "minimum",  "exclusiveMinimum", "maxLength",
    "minLength", "pattern",          "maxItems", "minItems",         "uniqueItems",
    "enum",      "multipleOf"};

// Converts the document member by member. The first error is kept and ends
// the conversion (every step returns early once one is recorded).
class Encoder {
 public:
  Result<std::string> document(const json::value& v) {
    const json::object* o = object(v, "document");
    if (o == nullptr) return fail(*error_);
    const std::string_view path;
    check_members(*o, "document",
                  {"swagger", "info", "host", "basePath", "schemes", "consumes", "produces",
                   "paths", "definitions", "parameters", "responses"});
    Message m;
    put_string(m, *o, "swagger", 1, path);
    put_message(m, *o, "info", 2, path, &Encoder::info);
    put_string(m, *o, "host", 3, path);
    put_string(m, *o, "basePath", 4, path);
    put_strings(m, *o, "schemes", 5, path);
    put_strings(m, *o, "consumes", 6, path);
    put_strings(m, *o, "produces", 7, path);
    put_message(m, *o, "paths", 8, path, &Encoder::paths);
    put_message(m, *o, "definitions", 9, path, &Encoder::definitions);
    put_message(m, *o, "parameters", 10, path, &Encoder::parameter_definitions);
    put_message(m, *o, "responses", 11, path, &Encoder::response_definitions);
    put_extensions(m, *o, 16);
    if (error_) return fail(*error_);
    return m.take();
  }

 private:
  using Method = std::string (Encoder::*)(const json::value&, std::string_view);

  void error(std::string message) {
    if (!error_) error_ = std::move(message);
  }

  const json::object* object(const json::value& v, std::string_view path) {
    if (v.is_object()) return &v.get_object();
    error(fmt::format("{}: must be an object", path));
    return nullptr;
  }

  // Every member must be one the message models (or an extension, when the
  // message has vendor_extension).
  template <class Known>
  void check_members(const json::object& o, std::string_view path, const Known& known,
                     bool extensions = true) {
    for (const auto& [key, value] : o) {
      if (extensions && is_extension(key)) continue;
      if (std::find(std::begin(known), std::end(known), std::string_view(key)) == std::end(known)) {
        error(fmt::format("{}: \"{}\" is not supported", path, std::string_view(key)));
        return;
      }
    }
  }
  void check_members(const json::object& o, std::string_view path,
                     std::initializer_list<std::string_view> known, bool extensions = true) {
    check_members<std::initializer_list<std::string_view>>(o, path, known, extensions);
  }

  void put_string(Message& m, const json::object& o, std::string_view key, int field,
                  std::string_view path) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) return;
    if (!v->is_string()) return error(fmt::format("{}: must be a string", member_path(path, key)));
    m.string(field, v->get_string());
  }

  void put_strings(Message& m, const json::object& o, std::string_view key, int field,
                   std::string_view path) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) return;
    const bool ok =
        v->is_array() && std::all_of(v->get_array().begin(), v->get_array().end(),
                                     [](const json::value& e) { return e.is_string(); });
    if (!ok) return error(fmt::format("{}: must be an array of strings", member_path(path, key)));
    for (const auto& e : v->get_array())
      m.bytes(field, e.get_string());  // a repeated string keeps empty elements
  }

  void put_bool(Message& m, const json::object& o, std::string_view key, int field,
                std::string_view path) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) return;
    if (!v->is_bool()) return error(fmt::format("{}: must be a boolean", member_path(path, key)));
    m.boolean(field, v->get_bool());
  }

  void put_int64(Message& m, const json::object& o, std::string_view key, int field,
                 std::string_view path) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) return;
    if (v->is_int64()) return m.int64(field, v->get_int64());
    if (v->is_uint64() &&
        v->get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return m.int64(field, static_cast<std::int64_t>(v->get_uint64()));
    }
    error(fmt::format("{}: must be an integer", member_path(path, key)));
  }

  void put_double(Message& m, const json::object& o, std::string_view key, int field,
                  std::string_view path) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) return;
    if (!v->is_number()) return error(fmt::format("{}: must be a number", member_path(path, key)));
    m.dbl(field, v->to_number<double>());
  }

  // gnostic's Any: the value as YAML text (field 2); field 1 (a protobuf Any) stays unset.
  static std::string any(const json::value& v) {
    Message m;
    m.string(2, extension_yaml(v));
    return m.take();
  }

  static void put_any(Message& m, const json::object& o, std::string_view key, int field) {
    if (const json::value* v = o.if_contains(key)) m.bytes(field, any(*v));
  }

  void put_anys(Message& m, const json::object& o, std::string_view key, int field,
                std::string_view path) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) return;
    if (!v->is_array()) return error(fmt::format("{}: must be an array", member_path(path, key)));
    for (const auto& e : v->get_array())
      m.bytes(field, any(e));
  }

  // NamedAny{name = 1, value = 2} for every "x-" member, in document order.
  static void put_extensions(Message& m, const json::object& o, int field) {
    for (const auto& [key, value] : o) {
      if (!is_extension(key)) continue;
      Message named;
      named.string(1, key);
      named.bytes(2, any(value));
      m.bytes(field, named.take());
    }
  }

  void put_message(Message& m, const json::object& o, std::string_view key, int field,
                   std::string_view path, Method encode) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr || error_) return;
    std::string bytes = (this->*encode)(*v, member_path(path, key));
    if (!error_) m.bytes(field, bytes);
  }

  void put_messages(Message& m, const json::object& o, std::string_view key, int field,
                    std::string_view path, Method encode) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr || error_) return;
    const std::string where = member_path(path, key);
    if (!v->is_array()) return error(fmt::format("{}: must be an array", where));
    const json::array& a = v->get_array();
    for (std::size_t i = 0; i < a.size() && !error_; ++i) {
      std::string bytes = (this->*encode)(a[i], item_path(where, i));
      m.bytes(field, bytes);
    }
  }

  // A map of the document as gnostic's repeated Named<T>{name = 1, value = 2}
  // under `field` of `m`; "x-" members are left out when `skip_extensions`.
  void put_named(Message& m, const json::value& v, std::string_view path, int field, Method encode,
                 bool skip_extensions = false) {
    const json::object* o = object(v, path);
    if (o == nullptr) return;
    for (const auto& [key, value] : *o) {
      if (error_) return;
      if (skip_extensions && is_extension(key)) continue;
      Message named;
      named.string(1, key);
      named.bytes(2, (this->*encode)(value, member_path(path, key)));
      m.bytes(field, named.take());
    }
  }

  // Schema.type: TypeItem{repeated string value = 1}, from a string or an array.
  std::string type_item(const json::value& v, std::string_view path) {
    Message m;
    if (v.is_string()) {
      m.bytes(1, v.get_string());
    } else if (v.is_array() && std::all_of(v.get_array().begin(), v.get_array().end(),
                                           [](const json::value& e) { return e.is_string(); })) {
      for (const auto& e : v.get_array())
        m.bytes(1, e.get_string());
    } else {
      error(fmt::format("{}: must be a string or an array of strings", path));
    }
    return m.take();
  }

  // Schema.items: ItemsItem{repeated Schema schema = 1}, from a schema or an array of them.
  std::string items_item(const json::value& v, std::string_view path) {
    Message m;
    if (const auto* a = v.if_array()) {
      for (std::size_t i = 0; i < a->size() && !error_; ++i)
        m.bytes(1, schema((*a)[i], item_path(path, i)));
    } else {
      m.bytes(1, schema(v, path));
    }
    return m.take();
  }

  // Schema.additionalProperties: oneof {Schema schema = 1; bool boolean = 2}.
  std::string additional_properties(const json::value& v, std::string_view path) {
    Message m;
    if (v.is_bool()) {
      m.boolean(2, v.get_bool(), /*always=*/true);
    } else {
      m.bytes(1, schema(v, path));
    }
    return m.take();
  }

  // Properties and Definitions: {repeated NamedSchema additional_properties = 1}.
  std::string properties(const json::value& v, std::string_view path) {
    Message m;
    put_named(m, v, path, 1, &Encoder::schema);
    return m.take();
  }
  std::string definitions(const json::value& v, std::string_view path) {
    return properties(v, path);
  }

  std::string schema(const json::value& v, std::string_view path) {
    const json::object* o = object(v, path);
    if (o == nullptr) return {};
    check_members(*o, path,
                  {"$ref",
                   "format",
                   "title",
                   "description",
                   "default",
                   "multipleOf",
                   "maximum",
                   "exclusiveMaximum",
                   "minimum",
                   "exclusiveMinimum",
                   "maxLength",
                   "minLength",
                   "pattern",
                   "maxItems",
                   "minItems",
                   "uniqueItems",
                   "maxProperties",
                   "minProperties",
                   "required",
                   "enum",
                   "additionalProperties",
                   "type",
                   "items",
                   "allOf",
                   "properties",
                   "readOnly",
                   "example"});
    Message m;
    put_string(m, *o, "$ref", 1, path);
    put_string(m, *o, "format", 2, path);
    put_string(m, *o, "title", 3, path);
    put_string(m, *o, "description", 4, path);
    put_any(m, *o, "default", 5);
    put_double(m, *o, "multipleOf", 6, path);
    put_double(m, *o, "maximum", 7, path);
    put_bool(m, *o, "exclusiveMaximum", 8, path);
    put_double(m, *o, "minimum", 9, path);
    put_bool(m, *o, "exclusiveMinimum", 10, path);
    put_int64(m, *o, "maxLength", 11, path);
    put_int64(m, *o, "minLength", 12, path);
    put_string(m, *o, "pattern", 13, path);
    put_int64(m, *o, "maxItems", 14, path);
    put_int64(m, *o, "minItems", 15, path);
    put_bool(m, *o, "uniqueItems", 16, path);
    put_int64(m, *o, "maxProperties", 17, path);
    put_int64(m, *o, "minProperties", 18, path);
    put_strings(m, *o, "required", 19, path);
    put_anys(m, *o, "enum", 20, path);
    put_message(m, *o, "additionalProperties", 21, path, &Encoder::additional_properties);
    put_message(m, *o, "type", 22, path, &Encoder::type_item);
    put_message(m, *o, "items", 23, path, &Encoder::items_item);
    put_messages(m, *o, "allOf", 24, path, &Encoder::schema);
    put_message(m, *o, "properties", 25, path, &Encoder::properties);
    put_bool(m, *o, "readOnly", 27, path);
    put_any(m, *o, "example", 30);
    put_extensions(m, *o, 31);
    return m.take();
  }

  // The primitive members, numbered from `base` on in kPrimitiveMembers'
  // order, then vendor_extension.
  void put_primitive_members(Message& m, const json::object& o, std::string_view path, int base) {
    put_string(m, o, "type", base, path);
    put_string(m, o, "format", base + 1, path);
    put_message(m, o, "items", base + 2, path, &Encoder::primitives_items);
    put_string(m, o, "collectionFormat", base + 3, path);
    put_any(m, o, "default", base + 4);
    put_double(m, o, "maximum", base + 5, path);
    put_bool(m, o, "exclusiveMaximum", base + 6, path);
    put_double(m, o, "minimum", base + 7, path);
    put_bool(m, o, "exclusiveMinimum", base + 8, path);
    put_int64(m, o, "maxLength", base + 9, path);
    put_int64(m, o, "minLength", base + 10, path);
    put_string(m, o, "pattern", base + 11, path);
    put_int64(m, o, "maxItems", base + 12, path);
    put_int64(m, o, "minItems", base + 13, path);
    put_bool(m, o, "uniqueItems", base + 14, path);
    put_anys(m, o, "enum", base + 15, path);
    put_double(m, o, "multipleOf", base + 16, path);
    put_extensions(m, o, base + 17);
  }

  // PrimitivesItems: the primitive members from 1 on.
  std::string primitives_items(const json::value& v, std::string_view path) {
    const json::object* o = object(v, path);
    if (o == nullptr) return {};
    check_members(*o, path, kPrimitiveMembers);
    Message m;
    put_primitive_members(m, *o, path, 1);
    return m.take();
  }

  // The sub-schemas of NonBodyParameter: required = 1, in = 2, description = 3,
  // name = 4, (query and formData only) allowEmptyValue = 5, then the
  // primitive members.
  std::string non_body_sub_schema(const json::object& o, std::string_view path,
                                  bool allow_empty_value) {
    for (const auto& [key, value] : o) {
      const std::string_view k = key;
      const bool known = is_extension(k) || k == "required" || k == "in" || k == "description" ||
                         k == "name" || (allow_empty_value && k == "allowEmptyValue") ||
                         std::find(kPrimitiveMembers.begin(), kPrimitiveMembers.end(), k) !=
                             kPrimitiveMembers.end();
      if (!known) {
        error(fmt::format("{}: \"{}\" is not supported", path, k));
        return {};
      }
    }
    Message m;
    put_bool(m, o, "required", 1, path);
    put_string(m, o, "in", 2, path);
    put_string(m, o, "description", 3, path);
    put_string(m, o, "name", 4, path);
    if (allow_empty_value) put_bool(m, o, "allowEmptyValue", 5, path);
    put_primitive_members(m, o, path, allow_empty_value ? 6 : 5);
    return m.take();
  }

  // Parameter: oneof {BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2}.
  std::string parameter(const json::value& v, std::string_view path) {
    const json::object* o = object(v, path);
    if (o == nullptr) return {};
    const json::value* in = o->if_contains("in");
    if (in == nullptr || !in->is_string()) {
      error(fmt::format("{}: a parameter needs \"in\"", path));
      return {};
    }
    const std::string_view where = in->get_string();
    Message parameter;
    if (where == "body") {
      // BodyParameter{description = 1, name = 2, in = 3, required = 4, schema = 5,
      // vendor_extension = 6}.
      check_members(*o, path, {"description", "name", "in", "required", "schema"});
      Message body;
      put_string(body, *o, "description", 1, path);
      put_string(body, *o, "name", 2, path);
      put_string(body, *o, "in", 3, path);
      put_bool(body, *o, "required", 4, path);
      put_message(body, *o, "schema", 5, path, &Encoder::schema);
      put_extensions(body, *o, 6);
      parameter.bytes(1, body.take());
      return parameter.take();
    }
    // NonBodyParameter: oneof {header = 1, formData = 2, query = 3, path = 4}.
    int field = 0;
    if (where == "header") {
      field = 1;
    } else if (where == "formData") {
      field = 2;
    } else if (where == "query") {
      field = 3;
    } else if (where == "path") {
      field = 4;
    } else {
      error(fmt::format("{}.in: unknown parameter location \"{}\"", path, where));
      return {};
    }
    Message non_body;
    non_body.bytes(field, non_body_sub_schema(*o, path, field == 2 || field == 3));
    parameter.bytes(2, non_body.take());
    return parameter.take();
  }

  // JsonReference{_ref = 1, description = 2}.
  std::string json_reference(const json::object& o, std::string_view path) {
    check_members(o, path, {"$ref", "description"}, /*extensions=*/false);
    Message m;
    put_string(m, o, "$ref", 1, path);
    put_string(m, o, "description", 2, path);
    return m.take();
  }

  // ParametersItem: oneof {Parameter parameter = 1; JsonReference json_reference = 2}.
  std::string parameters_item(const json::value& v, std::string_view path) {
    const json::object* o = object(v, path);
    if (o == nullptr) return {};
    Message m;
    if (o->contains("$ref")) {
      m.bytes(2, json_reference(*o, path));
    } else {
      m.bytes(1, parameter(v, path));
    }
    return m.take();
  }

  // SchemaItem: oneof {Schema schema = 1; FileSchema file_schema = 2}.
  std::string schema_item(const json::value& v, std::string_view path) {
    if (const auto* type = api::find_path(v, {"type"}); type != nullptr && *type == "file") {
      error(fmt::format("{}: file schemas are not supported", path));
      return {};
    }
    Message m;
    m.bytes(1, schema(v, path));
    return m.take();
  }

  // Response{description = 1, schema = 2, headers = 3, examples = 4, vendor_extension = 5}.
  std::string response(const json::value& v, std::string_view path) {
    const json::object* o = object(v, path);
    if (o == nullptr) return {};
    check_members(*o, path, {"description", "schema"});
    Message m;
    put_string(m, *o, "description", 1, path);
    put_message(m, *o, "schema", 2, path, &Encoder::schema_item);
    put_extensions(m, *o, 5);
    return m.take();
  }

  // ResponseValue: oneof {Response response = 1; JsonReference json_reference = 2}.
  std::string response_value(const json::value& v, std::string_view path) {
    const json::object* o = object(v, path);
    if (o == nullptr) return {};
    Message m;
    if (o->contains("$ref")) {
      m.bytes(2, json_reference(*o, path));
    } else {
      m.bytes(1, response(v, path));
    }
    return m.take();
  }

  // Responses{repeated NamedResponseValue response_code = 1; vendor_extension = 2}.
  std::string responses(const json::value& v, std::string_view path) {
    Message m;
    put_named(m, v, path, 1, &Encoder::response_value, /*skip_extensions=*/true);
    if (const auto* o = v.if_object()) put_extensions(m, *o, 2);
    return m.take();
  }

  // Operation{tags = 1, summary = 2, description = 3, external_docs = 4,
  // operation_id = 5, produces = 6, consumes = 7, parameters = 8,
  // responses = 9, schemes = 10, deprecated = 11, security = 12,
  // vendor_extension = 13}.
  std::string operation(const json::value& v, std::string_view path) {
    const json::object* o = object(v, path);
    if (o == nullptr) return {};
    check_members(*o, path,
                  {"tags", "summary", "description", "operationId", "produces", "consumes",
                   "parameters", "responses", "schemes", "deprecated"});
    Message m;
    put_strings(m, *o, "tags", 1, path);
    put_string(m, *o, "summary", 2, path);
    put_string(m, *o, "description", 3, path);
    put_string(m, *o, "operationId", 5, path);
    put_strings(m, *o, "produces", 6, path);
    put_strings(m, *o, "consumes", 7, path);
    put_messages(m, *o, "parameters", 8, path, &Encoder::parameters_item);
    put_message(m, *o, "responses", 9, path, &Encoder::responses);
    put_strings(m, *o, "schemes", 10, path);
    put_bool(m, *o, "deprecated", 11, path);
    put_extensions(m, *o, 13);
    return m.take();
  }

  // PathItem{_ref = 1, get = 2, put = 3, post = 4, delete = 5, options = 6,
  // head = 7, patch = 8, parameters = 9, vendor_extension = 10}.
  std::string path_item(const json::value& v, std::string_view path) {
    const json::object* o = object(v, path);
    if (o == nullptr) return {};
    check_members(
        *o, path,
        {"$ref", "get", "put", "post", "delete", "options", "head", "patch", "parameters"});
    Message m;
    put_string(m, *o, "$ref", 1, path);
    int field = 2;
    for (std::string_view method : {"get", "put", "post", "delete", "options", "head", "patch"}) {
      put_message(m, *o, method, field++, path, &Encoder::operation);
    }
    put_messages(m, *o, "parameters", 9, path, &Encoder::parameters_item);
    put_extensions(m, *o, 10);
    return m.take();
  }

  // Paths{vendor_extension = 1; repeated NamedPathItem path = 2}.
  std::string paths(const json::value& v, std::string_view path) {
    Message m;
    if (const auto* o = v.if_object()) put_extensions(m, *o, 1);
    put_named(m, v, path, 2, &Encoder::path_item, /*skip_extensions=*/true);
    return m.take();
  }

  // Info{title = 1, version = 2, description = 3, terms_of_service = 4,
  // contact = 5, license = 6, vendor_extension = 7}.
  std::string info(const json::value& v, std::string_view path) {
    const json::object* o = object(v, path);
    if (o == nullptr) return {};
    check_members(*o, path, {"title", "version", "description", "termsOfService"});
    Message m;
    put_string(m, *o, "title", 1, path);
    put_string(m, *o, "version", 2, path);
    put_string(m, *o, "description", 3, path);
    put_string(m, *o, "termsOfService", 4, path);
    put_extensions(m, *o, 7);
    return m.take();
  }

  // ParameterDefinitions and ResponseDefinitions: {repeated Named<T> additional_properties = 1}.
  std::string parameter_definitions(const json::value& v, std::string_view path) {
    Message m;
    put_named(m, v, path, 1, &Encoder::parameter);
    return m.take();
  }
  std::string response_definitions(const json::value& v, std::string_view path) {
    Message m;
    put_named(m, v, path, 1, &Encoder::response);
    return m.take();
  }

  std::optional<std::string> error_;
};

}  // namespace

Result<std::string> encode_gnostic_document(const json::value& document) {
  return Encoder().document(document);
}

}  // namespace kcm::local::openapi_v2
