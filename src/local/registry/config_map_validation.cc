#include "local/registry/config_map_validation.h"

#include <algorithm>
#include <string>
#include <vector>

#include "api/base64.h"
#include "local/registry/field_access.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

// core.MaxSecretSize, which ConfigMaps share.
constexpr std::size_t kMaxConfigMapSize = 1024 * 1024;

// The keys of a map member, sorted: upstream walks a Go map, whose order is
// random; sorted keys make the errors repeatable.
std::vector<std::string_view> sorted_keys(const json::object* map) {
  std::vector<std::string_view> keys;
  if (map == nullptr) return keys;
  for (const auto& kv : *map)
    keys.push_back(kv.key());
  std::sort(keys.begin(), keys.end());
  return keys;
}

// binaryData values are base64 in JSON and bytes in Go; strict decoding has
// already refused malformed ones, so a failure here counts as its text.
std::string decoded(const json::value& v) {
  const std::string_view text = api::as_string_view(&v);
  auto bytes = api::base64_decode(text);
  return bytes ? std::move(*bytes) : std::string(text);
}

// reflect.DeepEqual of two map[string]T fields: nil (absent or null) equals
// only nil, and binaryData values compare as the bytes they encode.
bool same_map(const json::object* a, const json::object* b, bool binary) {
  if (a == nullptr || b == nullptr) return a == b;
  if (a->size() != b->size()) return false;
  for (const auto& kv : *a) {
    const json::value* other = b->if_contains(kv.key());
    if (other == nullptr) return false;
    if (binary ? decoded(kv.value()) != decoded(*other)
               : api::as_string_view(&kv.value()) != api::as_string_view(other)) {
      return false;
    }
  }
  return true;
}

}  // namespace

api::FieldErrors validate_config_map(const json::object& config_map) {
  api::FieldErrors errs;
  const json::object* data = object_member(config_map, "data");
  const json::object* binary = object_member(config_map, "binaryData");
  std::size_t total = 0;
  for (const std::string_view key : sorted_keys(data)) {
    const std::string path = api::key("data", key);
    append_invalid(path, key, is_config_map_key(key), errs);
    if (binary != nullptr && binary->contains(key)) {
      errs.push_back(
          api::invalid(path, json::value(key), "duplicate of key present in binaryData"));
    }
    total += api::as_string_view(data->if_contains(key)).size();
  }
  for (const std::string_view key : sorted_keys(binary)) {
    append_invalid(api::key("binaryData", key), key, is_config_map_key(key), errs);
    total += decoded(*binary->if_contains(key)).size();
  }
  // Upstream reports the whole object with an empty path.
  if (total > kMaxConfigMapSize) errs.push_back(api::too_long("", kMaxConfigMapSize));
  return errs;
}

api::FieldErrors validate_config_map_update(const json::object& config_map,
                                            const json::object& old) {
  api::FieldErrors errs;
  if (opt_bool_member(old, "immutable").value_or(false)) {
    constexpr const char* kImmutable = "field is immutable when `immutable` is set";
    if (!opt_bool_member(config_map, "immutable").value_or(false)) {
      errs.push_back(api::forbidden("immutable", kImmutable));
    }
    if (!same_map(object_member(config_map, "data"), object_member(old, "data"), false)) {
      errs.push_back(api::forbidden("data", kImmutable));
    }
    if (!same_map(object_member(config_map, "binaryData"), object_member(old, "binaryData"),
                  true)) {
      errs.push_back(api::forbidden("binaryData", kImmutable));
    }
  }
  for (auto& e : validate_config_map(config_map))
    errs.push_back(std::move(e));
  return errs;
}

}  // namespace kcm::local::registry
