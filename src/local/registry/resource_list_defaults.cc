#include "local/registry/resource_list_defaults.h"

#include <limits>

#include "api/quantity.h"
#include "local/registry/field_access.h"

namespace kcm::local::registry {

void canonicalize_resource_list(json::object& list) {
  for (auto& kv : list) {
    auto q = api::Quantity::from_json(kv.value());
    if (!q || kv.value().is_null()) continue;
    api::Quantity value = std::move(*q);
    // Round up to milli precision, unless the value is too large for milli
    // units to be meaningful (scaled_value saturates there).
    const std::int64_t milli = value.milli_value();
    if (milli != std::numeric_limits<std::int64_t>::max() &&
        milli != std::numeric_limits<std::int64_t>::min()) {
      api::Quantity rounded = api::Quantity::from_milli(milli, value.format());
      if (rounded != value) value = std::move(rounded);
    }
    kv.value() = value.to_json();
  }
}

void canonicalize_resource_list_member(json::object& o, std::string_view key) {
  if (json::object* list = mutable_object_member(o, key)) canonicalize_resource_list(*list);
}

void canonicalize_quantity_member(json::object& o, std::string_view key) {
  json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return;
  if (auto q = api::Quantity::from_json(*v)) *v = q->to_json();
}

}  // namespace kcm::local::registry
