#include "local/apiserver/body_codec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "api/go_json_syntax.h"
#include "api/yaml.h"
#include "local/protobuf/decode.h"

namespace kcm::local::apiserver {

std::string media_type(std::string_view content_type) {
  std::string_view m = content_type.substr(0, content_type.find(';'));
  while (!m.empty() && m.back() == ' ')
    m.remove_suffix(1);
  while (!m.empty() && m.front() == ' ')
    m.remove_prefix(1);
  std::string out(m);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

namespace {

constexpr std::string_view kAccepted =
    "the body of the request was in an unknown format - accepted media types include: "
    "application/json, application/yaml, application/vnd.kubernetes.protobuf";

// Upstream's summary of a body in decode errors: the first bytes, quoted.
std::string summarize(std::string_view body) {
  constexpr std::size_t kMax = 30;
  if (body.size() <= kMax) return fmt::format("{}", api::go_quote(body));
  return fmt::format("{}...", api::go_quote(body.substr(0, kMax)));
}

}  // namespace

Result<json::value, api::Status> decode_body(std::string_view content_type, std::string_view body,
                                             const api::GroupVersionKind* protobuf_kind) {
  const std::string media = media_type(content_type);
  if (media == protobuf::kProtobufMediaType && protobuf_kind != nullptr) {
    return protobuf::decode_protobuf_object(body, *protobuf_kind);
  }
  if (media.empty() || media == "application/json" || media == "*/*") {
    std::string error;
    auto v = api::parse_json(body, &error);
    if (!v) return fail(api::bad_request(error));
    return std::move(*v);
  }
  if (media == "application/yaml" || media == "application/x-yaml" || media == "text/yaml") {
    auto v = api::parse_yaml(body);
    if (!v) return fail(api::bad_request(v.error()));
    return std::move(*v);
  }
  return fail(api::unsupported_media_type(std::string(kAccepted)));
}

Result<json::object, api::Status> decode_object(const registry::ResourceInfo& info,
                                                const api::GroupVersionKind& expected,
                                                std::string_view content_type,
                                                std::string_view body) {
  (void)info;
  const std::string media = media_type(content_type);
  json::value value;
  if (media.empty() || media == "application/json") {
    std::string error;
    auto v = api::parse_json(body, &error);
    if (!v) {
      // Go's wording when it can tell; ours otherwise (e.g. nesting too deep).
      std::string go_error = api::go_json_syntax_error(body);
      return fail(api::bad_request(fmt::format(
          "the object provided is unrecognized (must be of type {}): couldn't get version/kind; "
          "json parse error: {} ({})",
          expected.kind, go_error.empty() ? error : go_error, summarize(body))));
    }
    value = std::move(*v);
  } else if (media == "application/yaml") {
    auto v = api::parse_yaml(body);
    if (!v) {
      return fail(api::bad_request(
          fmt::format("the object provided is unrecognized (must be of type {}): {} ({})",
                      expected.kind, v.error(), summarize(body))));
    }
    value = std::move(*v);
  } else if (media == protobuf::kProtobufMediaType) {
    auto v = protobuf::decode_protobuf_object(body, expected);
    if (!v) return fail(std::move(v).error());
    value = std::move(*v);
  } else {
    return fail(api::unsupported_media_type(std::string(kAccepted)));
  }
  if (!value.is_object()) {
    return fail(api::bad_request(fmt::format(
        "the object provided is unrecognized (must be of type {}): couldn't get version/kind; "
        "json parse error: json: cannot unmarshal {} into Go value of type struct {{ APIVersion "
        "string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" "
        "}} ({})",
        expected.kind, value.is_array() ? "array" : "primitive", summarize(body))));
  }
  drop_nulls(value);
  json::object obj = std::move(value.get_object());
  const std::string expected_api_version = expected.api_version();
  const std::string api_version(api::find_string(obj, "apiVersion").value_or(""));
  const std::string kind(api::find_string(obj, "kind").value_or(""));
  if (const json::value* v = obj.if_contains("apiVersion"); v && !v->is_string()) {
    return fail(api::bad_request("apiVersion: expected a string"));
  }
  if (const json::value* v = obj.if_contains("kind"); v && !v->is_string()) {
    return fail(api::bad_request("kind: expected a string"));
  }
  if (!api_version.empty() && api_version != expected_api_version) {
    return fail(api::bad_request(
        fmt::format("the API version in the data ({}) does not match the expected API version ({})",
                    api_version, expected_api_version)));
  }
  if (!kind.empty() && kind != expected.kind) {
    const std::string version =
        api::GroupVersion::parse(api_version.empty() ? expected_api_version : api_version).version;
    return fail(api::bad_request(fmt::format(
        "{} in version {} cannot be handled as a {}: the kind in the data does not match the "
        "expected kind ({})",
        kind, api::go_quote(version), expected.kind, expected.kind)));
  }
  // Responses always carry the kind and apiVersion.
  obj["apiVersion"] = expected_api_version;
  obj["kind"] = expected.kind;
  if (const json::value* m = obj.if_contains("metadata"); m && !m->is_object() && !m->is_null()) {
    return fail(api::bad_request(
        fmt::format("{} in version {} cannot be handled as a {}: metadata: expected an object",
                    expected.kind, api::go_quote(expected.version), expected.kind)));
  }
  return obj;
}

void drop_nulls(json::value& value, bool drop_directives) {
  // Iterative with an explicit stack: bodies come from the network.
  std::vector<json::value*> stack{&value};
  while (!stack.empty()) {
    json::value* v = stack.back();
    stack.pop_back();
    if (json::object* o = v->if_object()) {
      bool changed = false;
      for (const auto& [k, child] : *o) {
        if ((child.is_null() && k != "creationTimestamp") ||
            (drop_directives && !k.empty() && k.front() == '$')) {
          changed = true;
          break;
        }
      }
      if (changed) {
        json::object kept;
        for (auto& [k, child] : *o) {
          if (child.is_null() && k != "creationTimestamp") continue;
          if (drop_directives && !k.empty() && k.front() == '$') continue;
          kept[k] = std::move(child);
        }
        *o = std::move(kept);
      }
      for (auto& [k, child] : *o)
        stack.push_back(&child);
    } else if (json::array* a = v->if_array()) {
      for (auto& child : *a)
        stack.push_back(&child);
    }
  }
}

std::string encode_list(std::string_view api_version, std::string_view list_kind,
                        std::uint64_t revision, std::string_view continue_token,
                        std::optional<std::int64_t> remaining,
                        const std::vector<storage::ObjectPtr>& items) {
  std::size_t size = 128 + continue_token.size();
  for (const auto& item : items)
    size += item->json.size() + 1;
  std::string out;
  out.reserve(size);
  out += R"({"kind":")";
  out += list_kind;
  out += R"(","apiVersion":")";
  out += api_version;
  out += R"(","metadata":{"resourceVersion":")";
  out += std::to_string(revision);
  out += '"';
  if (!continue_token.empty()) {
    out += R"(,"continue":")";
    out += continue_token;
    out += '"';
  }
  if (remaining) {
    out += R"(,"remainingItemCount":)";
    out += std::to_string(*remaining);
  }
  out += R"(},"items":[)";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i != 0) out += ',';
    out += items[i]->json;
  }
  out += "]}";
  return out;
}

}  // namespace kcm::local::apiserver
