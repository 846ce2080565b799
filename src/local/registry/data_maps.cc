#include "local/registry/data_maps.h"

#include <algorithm>

#include "api/base64.h"
#include "local/registry/field_access.h"

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

std::size_t decoded_size(const json::value& value) {
  const std::string_view text = api::as_string_view(&value);
  if (text.size() % 4 != 0) return decoded_bytes(value).size();
  std::size_t padding = 0;
  for (std::size_t i = text.size(); i > 0 && padding < 2 && text[i - 1] == '='; --i)
    ++padding;
  return text.size() / 4 * 3 - padding;
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

void validate_immutable_data(const json::object& obj, const json::object& old,
                             std::initializer_list<DataField> fields, api::FieldErrors& errs) {
  if (!opt_bool_member(old, "immutable").value_or(false)) return;
  const std::string immutable(kImmutableWhenSetMsg);
  if (!opt_bool_member(obj, "immutable").value_or(false)) {
    errs.push_back(api::forbidden("immutable", immutable));
  }
  for (const DataField& field : fields) {
    if (!same_map(object_member(obj, field.name), object_member(old, field.name), field.bytes)) {
      errs.push_back(api::forbidden(std::string(field.name), immutable));
    }
  }
}

}  // namespace kcm::local::registry
