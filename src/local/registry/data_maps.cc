#include "local/registry/data_maps.h"

#include <algorithm>

#include "api/base64.h"

namespace kcm::local::registry {

std::vector<std::string_view> sorted_keys(const json::object* map) {
  std::vector<std::string_view> keys;
  if (map == nullptr) return keys;
  for (const auto& kv : *map)
    keys.push_back(kv.key());
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::string decoded_bytes(const json::value& value) {
  const std::string_view text = api::as_string_view(&value);
  auto bytes = api::base64_decode(text);
  return bytes ? std::move(*bytes) : std::string(text);
}

bool same_map(const json::object* a, const json::object* b, bool bytes) {
  if (a == nullptr || b == nullptr) return a == b;
  if (a->size() != b->size()) return false;
  for (const auto& kv : *a) {
    const json::value* other = b->if_contains(kv.key());
    if (other == nullptr) return false;
    if (bytes ? decoded_bytes(kv.value()) != decoded_bytes(*other)
              : api::as_string_view(&kv.value()) != api::as_string_view(other)) {
      return false;
    }
  }
  return true;
}

}  // namespace kcm::local::registry
