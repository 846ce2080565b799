// Arbitrary bytes -> JSON -> ObjectMeta / Object (and the meta structs).
// Invariant: whatever decodes re-encodes losslessly, to_json(from_json(x)) == x,
// and writing decoded metadata back into an Object leaves it unchanged.
// The raw bytes also go through the primitive parsers (Quantity, Time,
// MicroTime, durations), whose canonical text must read back as the same value.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/duration.h"
#include "api/int_or_string.h"
#include "api/json.h"
#include "api/object.h"
#include "api/object_meta.h"
#include "api/quantity.h"
#include "api/time.h"

namespace {

namespace api = kcm::api;
namespace json = kcm::api::json;

[[noreturn]] void fail_invariant(const char* what, std::string_view input) {
  std::fprintf(stderr, "invariant broken: %s (input %zu bytes)\n", what, input.size());
  std::abort();
}

template <class T>
void check_round_trip(const kcm::Result<T>& decoded, const json::value& in, const char* what,
                      std::string_view input) {
  if (!decoded) return;
  const json::value out = decoded->to_json();
  if (out != in) fail_invariant(what, input);
}

void check_meta(const json::value& v, std::string_view input) {
  check_round_trip(api::ObjectMeta::from_json(v), v, "ObjectMeta round trip", input);
  check_round_trip(api::OwnerReference::from_json(v), v, "OwnerReference round trip", input);
  check_round_trip(api::ListMeta::from_json(v), v, "ListMeta round trip", input);
  check_round_trip(api::TypeMeta::from_json(v), v, "TypeMeta round trip", input);

  auto meta = api::ObjectMeta::from_json(v);
  if (meta) {
    // A second pass is stable too.
    auto again = api::ObjectMeta::from_json(meta->to_json());
    if (!again || again->to_json() != v) fail_invariant("ObjectMeta re-decode", input);
    (void)api::get_controller_of(*meta);
  }

  auto obj = api::Object::from_json(v);
  if (!obj) return;
  auto m = obj->metadata();
  if (!m) fail_invariant("validated Object has undecodable metadata", input);
  api::Object copy = *obj;
  copy.set_metadata(*m);
  copy.set_type_meta(copy.type_meta());
  if (copy.to_json() != v) fail_invariant("Object metadata write-back changed the object", input);
  (void)obj->key();
  (void)obj->generation();
}

void check_primitives(std::string_view s) {
  if (auto q = api::Quantity::parse(s)) {
    const std::string text = q->to_string();
    auto back = api::Quantity::parse(text);
    if (!back || back->cmp(*q) != 0) fail_invariant("Quantity canonical text", s);
    (void)q->value();
    (void)q->milli_value();
    api::Quantity sum = *q;
    sum.add(*back);
    sum.sub(*q);
    if (sum.cmp(*q) != 0) fail_invariant("Quantity add/sub", s);
  }
  if (auto t = api::Time::parse(s)) {
    auto back = api::Time::parse(t->to_string());
    if (!back || *back != t->rfc3339_copy()) fail_invariant("Time canonical text", s);
  }
  if (auto t = api::MicroTime::parse(s)) {
    auto back = api::MicroTime::parse(t->to_string());
    if (!back) fail_invariant("MicroTime canonical text", s);
  }
  if (auto d = api::parse_duration(s)) {
    auto back = api::parse_duration(api::format_duration(*d));
    if (!back || *back != *d) fail_invariant("duration canonical text", s);
  }
  const api::IntOrString ios = api::IntOrString::parse(s);
  (void)api::get_scaled_value_from_int_or_percent(ios, 1000, true);
  (void)api::validate_positive_int_or_percent(ios, "f");
  (void)api::is_not_more_than_100_percent(ios, "f");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (size <= 256) check_primitives(input);
  auto v = api::parse_json(input, nullptr);
  if (!v) return 0;
  check_meta(*v, input);
  if (const json::object* o = v->if_object()) {
    if (const json::value* m = o->if_contains("metadata")) check_meta(*m, input);
  }
  if (const json::string* s = v->if_string()) {
    check_primitives(std::string_view(s->data(), s->size()));
    (void)api::Quantity::from_json(*v);
    (void)api::Time::from_json(*v);
    (void)api::IntOrString::from_json(*v);
  }
  return 0;
}
