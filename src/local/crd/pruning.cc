#include "local/crd/pruning.h"

#include <algorithm>

#include "api/field_error.h"

namespace kcm::local::crd {

namespace {

bool is_meta_field(std::string_view k) {
  return k == "apiVersion" || k == "kind" || k == "metadata";
}

struct Pruner {
  std::vector<std::string> pruned;

  static std::string key_path(const std::string& parent, std::string_view k) {
    return parent.empty() ? std::string(k) : parent + "." + std::string(k);
  }

  void record(const std::string& parent, std::string_view k) {
    pruned.push_back(key_path(parent, k));
  }

  void prune(json::value& x, const Schema* s, const std::string& path) {
    if (s != nullptr && s->preserve_unknown_fields) {
      skip_prune(x, s, path);
      return;
    }
    if (json::object* obj = x.if_object()) {
      if (s == nullptr) {
        for (const auto& kv : *obj)
          record(path, kv.key());
        obj->clear();
        return;
      }
      std::vector<std::string> drop;
      for (auto& kv : *obj) {
        const std::string_view k = kv.key();
        if (s->embedded_resource) {
          if ((k == "apiVersion" || k == "kind") && kv.value().is_string()) continue;
          if (k == "metadata" && kv.value().is_object()) continue;
        }
        if (const Schema* prop = s->property(k)) {
          prune(kv.value(), prop, key_path(path, k));
        } else if (s->additional_properties_allows.has_value()) {
          prune(kv.value(), s->additional_properties.get(), key_path(path, k));
        } else {
          // A resource root's malformed apiVersion/kind/metadata go silently.
          if (!is_meta_field(k) || !path.empty()) record(path, k);
          drop.emplace_back(k);
        }
      }
      for (const std::string& k : drop)
        obj->erase(k);
    } else if (json::array* arr = x.if_array()) {
      const Schema* items = s == nullptr ? nullptr : s->items.get();
      for (std::size_t i = 0; i < arr->size(); ++i) {
        prune((*arr)[i], items, api::index(path, i));
      }
    }
  }

  // Under x-kubernetes-preserve-unknown-fields: unknown fields stay, known ones
  // are pruned by their own schema.
  void skip_prune(json::value& x, const Schema* s, const std::string& path) {
    if (s == nullptr) return;
    if (json::object* obj = x.if_object()) {
      for (auto& kv : *obj) {
        const std::string_view k = kv.key();
        if (s->embedded_resource && is_meta_field(k)) continue;
        if (const Schema* prop = s->property(k)) {
          prune(kv.value(), prop, key_path(path, k));
        } else if (s->additional_properties_allows.has_value()) {
          prune(kv.value(), s->additional_properties.get(), key_path(path, k));
        }
      }
    } else if (json::array* arr = x.if_array()) {
      for (std::size_t i = 0; i < arr->size(); ++i) {
        skip_prune((*arr)[i], s->items.get(), api::index(path, i));
      }
    }
  }
};

}  // namespace

std::vector<std::string> prune(json::value& value, const Schema* schema, bool is_resource_root) {
  Pruner p;
  if (is_resource_root && (schema == nullptr || !schema->embedded_resource)) {
    Schema root = schema != nullptr ? *schema : Schema{};
    root.embedded_resource = true;
    p.prune(value, &root, "");
  } else {
    p.prune(value, schema, "");
  }
  std::sort(p.pruned.begin(), p.pruned.end());
  return std::move(p.pruned);
}

}  // namespace kcm::local::crd
