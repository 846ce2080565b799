#include "local/protobuf/decode.h"

#include <fmt/format.h>

#include <string>

#include "api/field_error.h"
#include "local/protobuf/envelope.h"
#include "local/protobuf/message_decoder.h"

namespace kcm::local::protobuf {

namespace {

// apiserver's summarizeData(body, 30) for a body that is not JSON: hex.
std::string summarize(std::string_view body) {
  constexpr std::size_t kMax = 30;
  if (body.empty()) return "<empty>";
  std::string out;
  for (unsigned char c : body.substr(0, kMax))
    out += fmt::format("{:02x}", c);
  if (body.size() > kMax) out += " ...";
  return out;
}

// apimachinery's schema.ParseGroupVersion: more than one slash is an error,
// after which FromAPIVersionAndKind keeps only the kind.
bool parse_group_version(std::string_view api_version, api::GroupVersionKind& gvk) {
  const auto gv = api::GroupVersion::parse_checked(api_version);
  if (!gv) return false;
  gvk.group = gv->group;
  gvk.version = gv->version;
  return true;
}

// Checks the envelope against the endpoint and decodes the object as `root`
// (nullptr: no schema, 415 once the envelope is known to be fine).
Result<json::value, api::Status> decode_with(std::string_view body,
                                             const api::GroupVersionKind& expected,
                                             const api::schema::Type* root) {
  auto envelope = parse_envelope(body);
  if (!envelope) {
    return fail(api::bad_request(
        fmt::format("the object provided is unrecognized (must be of type {}): {} ({})",
                    expected.kind, envelope.error(), summarize(body))));
  }
  // The kind and version the body claims, defaulted from the endpoint
  // (copyKindDefaults).
  api::GroupVersionKind actual;
  if (!envelope->api_version.empty()) {
    if (!parse_group_version(envelope->api_version, actual)) actual = {};
  }
  actual.kind = envelope->kind.empty() ? expected.kind : envelope->kind;
  if (actual.version.empty()) {
    actual.group = expected.group;
    actual.version = expected.version;
  }
  if (actual.api_version() != expected.api_version()) {
    return fail(api::bad_request(
        fmt::format("the API version in the data ({}) does not match the expected API version ({})",
                    actual.api_version(), expected.api_version())));
  }
  if (actual.kind != expected.kind) {
    return fail(api::bad_request(fmt::format(
        "{} in version {} cannot be handled as a {}: the kind in the data does not match the "
        "expected kind ({})",
        actual.kind, api::go_quote(actual.version), expected.kind, expected.kind)));
  }
  if (root == nullptr) {
    return fail(api::unsupported_media_type(fmt::format(
        "the body of the request was in an unknown format - {} has no protobuf schema in this "
        "server; accepted media types include: application/json, application/yaml",
        expected.kind)));
  }
  auto object = decode_message(envelope->raw, *root, envelope->raw_offset, &actual);
  if (!object) {
    return fail(api::bad_request(fmt::format("{} in version {} cannot be handled as a {}: {}",
                                             actual.kind, api::go_quote(actual.version),
                                             expected.kind, object.error().to_string())));
  }
  return json::value(std::move(*object));
}

}  // namespace

Result<json::value, api::Status> decode_protobuf_object(std::string_view body,
                                                        const api::GroupVersionKind& expected,
                                                        const api::schema::Registry& registry) {
  return decode_with(body, expected, registry.root(expected));
}

Result<json::value, api::Status> decode_protobuf_object(std::string_view body,
                                                        const api::GroupVersionKind& expected,
                                                        const api::schema::Type& type) {
  return decode_with(body, expected, &type);
}

}  // namespace kcm::local::protobuf
