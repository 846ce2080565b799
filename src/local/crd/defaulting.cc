#include "local/crd/defaulting.h"

#include <string>
#include <vector>

namespace kcm::local::crd {

namespace {

// A null that the schema's default replaces.
bool is_non_nullable_null(const json::value& x, const Schema* s) {
  return x.is_null() && s != nullptr && !s->nullable && s->default_value.has_value();
}

}  // namespace

void apply_defaults(json::value& value, const Schema& schema) {
  if (json::object* obj = value.if_object()) {
    for (const auto& [k, prop] : schema.properties) {
      if (!prop->default_value) continue;
      const json::value* v = obj->if_contains(k);
      if (v == nullptr || (v->is_null() && !prop->nullable)) (*obj)[k] = *prop->default_value;
    }
    for (auto& kv : *obj) {
      if (const Schema* prop = schema.property(kv.key())) {
        apply_defaults(kv.value(), *prop);
      } else if (schema.additional_properties_allows.has_value()) {
        const Schema* ap = schema.additional_properties.get();
        if (is_non_nullable_null(kv.value(), ap)) kv.value() = *ap->default_value;
        if (ap != nullptr) apply_defaults(kv.value(), *ap);
      }
    }
  } else if (json::array* arr = value.if_array()) {
    const Schema* items = schema.items.get();
    if (items == nullptr) return;
    for (json::value& v : *arr) {
      if (is_non_nullable_null(v, items)) v = *items->default_value;
      apply_defaults(v, *items);
    }
  }
}

void prune_non_nullable_nulls(json::value& value, const Schema& schema) {
  if (json::object* obj = value.if_object()) {
    std::vector<std::string> drop;
    for (auto& kv : *obj) {
      const Schema* s = schema.property(kv.key());
      if (s == nullptr) s = schema.additional_properties.get();
      if (s == nullptr) continue;
      if (kv.value().is_null()) {
        if (!s->nullable && !s->default_value) drop.emplace_back(kv.key());
      } else {
        prune_non_nullable_nulls(kv.value(), *s);
      }
    }
    for (const std::string& k : drop)
      obj->erase(k);
  } else if (json::array* arr = value.if_array()) {
    if (!schema.items) return;
    for (json::value& v : *arr)
      prune_non_nullable_nulls(v, *schema.items);
  }
}

}  // namespace kcm::local::crd
