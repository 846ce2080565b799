#include "local/registry/config_map_validation.h"

#include <string>

#include "local/registry/data_maps.h"
#include "local/registry/field_access.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {

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
    total += decoded_size(*binary->if_contains(key));
  }
  // Upstream reports the whole object with an empty path.
  if (total > kMaxSecretSize) errs.push_back(api::too_long("", kMaxSecretSize));
  return errs;
}

api::FieldErrors validate_config_map_update(const json::object& config_map,
                                            const json::object& old) {
  api::FieldErrors errs;
  validate_immutable_data(config_map, old, {{"data", false}, {"binaryData", true}}, errs);
  for (auto& e : validate_config_map(config_map))
    errs.push_back(std::move(e));
  return errs;
}

}  // namespace kcm::local::registry
