// The key/value maps of ConfigMaps and Secrets (data, binaryData): what their
// validation needs of them. String maps hold their values as they are; byte
// maps hold them base64-encoded, as JSON carries []byte.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// core.MaxSecretSize: what a ConfigMap's or a Secret's values may hold in all.
inline constexpr std::size_t kMaxSecretSize = 1024 * 1024;

// "field is immutable when `immutable` is set".
inline constexpr std::string_view kImmutableWhenSetMsg =
    "field is immutable when `immutable` is set";

// The keys of a map, sorted: upstream walks a Go map, in random order; sorted
// keys make the errors repeatable. Empty for null.
std::vector<std::string_view> sorted_keys(const json::object* map);

// The bytes a byte map's value encodes. Strict decoding has refused malformed
// ones before validation, so a value that does not decode counts as its text.
std::string decoded_bytes(const json::value& value);

// len() of the bytes a byte map's value encodes, derived from its length
// (padded standard base64, as strict decoding has checked).
std::size_t decoded_size(const json::value& value);

// reflect.DeepEqual of two map fields: nil (absent or null) equals only nil;
// byte maps compare the bytes their values encode.
bool same_map(const json::object* a, const json::object* b, bool bytes);

// A map field of a kind with `immutable` (ConfigMap data and binaryData,
// Secret data).
struct DataField {
  std::string_view name;
  bool bytes;  // values are base64 in JSON
};

// Once `old` is immutable: `obj` must stay immutable ("immutable:
// Forbidden: ...") and each of `fields` must stay as it is ("data:
// Forbidden: ...").
void validate_immutable_data(const json::object& obj, const json::object& old,
                             std::initializer_list<DataField> fields, api::FieldErrors& errs);

}  // namespace kcm::local::registry
