// The protobuf body decoder on arbitrary bytes, both as a whole request body
// and as the object message of each served kind (wrapped in a valid
// envelope, so that the fuzzer reaches the schema-driven decoder quickly).
// Invariants: no crash; a decoded object starts with the endpoint's kind and
// apiVersion; its JSON text is valid (UTF-8 included) and parses back to the
// same value; decoding is deterministic.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/json.h"
#include "local/protobuf/decode.h"

namespace {

namespace json = boost::json;
using kcm::api::GroupVersionKind;

[[noreturn]] void fail_invariant(const char* what, std::string_view input) {
  std::fprintf(stderr, "invariant broken: %s (input %zu bytes)\n", what, input.size());
  std::abort();
}

const GroupVersionKind kKinds[] = {
    {"", "v1", "Namespace"},
    {"", "v1", "Pod"},
    {"", "v1", "Node"},
    {"", "v1", "Event"},
    {"", "v1", "Binding"},
    {"apps", "v1", "Deployment"},
    {"apps", "v1", "ReplicaSet"},
    {"autoscaling", "v1", "Scale"},
    {"coordination.k8s.io", "v1", "Lease"},
    {"events.k8s.io", "v1", "Event"},
    {"", "v1", "DeleteOptions"},
};

void append_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void append_bytes(std::string& out, int field, std::string_view s) {
  append_varint(out, static_cast<std::uint64_t>(field) << 3 | 2);
  append_varint(out, s.size());
  out.append(s);
}

std::string envelope(const GroupVersionKind& gvk, std::string_view raw) {
  std::string type_meta;
  append_bytes(type_meta, 1, gvk.api_version());
  append_bytes(type_meta, 2, gvk.kind);
  std::string unknown;
  append_bytes(unknown, 1, type_meta);
  append_bytes(unknown, 2, raw);
  return std::string("k8s\0", 4) + unknown;
}

void check(std::string_view body, const GroupVersionKind& gvk, std::string_view input) {
  auto r = kcm::local::protobuf::decode_protobuf_object(body, gvk);
  auto again = kcm::local::protobuf::decode_protobuf_object(body, gvk);
  if (r.ok() != again.ok()) fail_invariant("decoding is not deterministic", input);
  if (!r) {
    if (r.error().message != again.error().message) fail_invariant("errors differ", input);
    if (r.error().code != 400 && r.error().code != 415) fail_invariant("not a 400/415", input);
    return;
  }
  if (*r != *again) fail_invariant("decoding is not deterministic", input);
  if (!r->is_object()) fail_invariant("not an object", input);
  const json::object& o = r->get_object();
  if (o.empty() || o.begin()->key() != "kind" || o.at("kind") != json::value(gvk.kind) ||
      o.at("apiVersion") != json::value(gvk.api_version())) {
    fail_invariant("kind/apiVersion missing or wrong", input);
  }
  const std::string text = kcm::api::to_json_string(*r);
  std::string error;
  auto back = kcm::api::parse_json(text, &error);
  if (!back) fail_invariant("output is not valid JSON", input);
  if (*back != *r) fail_invariant("output does not parse back to itself", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.empty()) return 0;
  const GroupVersionKind& gvk =
      kKinds[static_cast<unsigned char>(input[0]) % (sizeof(kKinds) / sizeof(kKinds[0]))];
  const std::string_view rest = input.substr(1);
  check(rest, gvk, input);                 // the whole body
  check(envelope(gvk, rest), gvk, input);  // the object message of the kind
  return 0;
}
