#include "local/registry/semantic_equal.h"

namespace kcm::local::registry {
namespace {

bool is_number(const json::value& v) {
  return v.is_int64() || v.is_uint64() || v.is_double();
}

}  // namespace

bool semantic_equal(const json::value* a, const json::value* b) {
  static const json::value kNull;
  return semantic_equal(a != nullptr ? *a : kNull, b != nullptr ? *b : kNull);
}

bool semantic_equal(const json::value& a, const json::value& b) {
  if (api::is_empty_value(a) && api::is_empty_value(b)) return true;
  if (is_number(a) && is_number(b)) return a.to_number<double>() == b.to_number<double>();
  if (a.kind() != b.kind()) return false;
  if (const json::object* oa = a.if_object()) {
    const json::object& ob = b.get_object();
    for (const auto& kv : *oa) {
      if (!semantic_equal(&kv.value(), ob.if_contains(kv.key()))) return false;
    }
    for (const auto& kv : ob) {
      if (!oa->contains(kv.key()) && !api::is_empty_value(kv.value())) return false;
    }
    return true;
  }
  if (const json::array* aa = a.if_array()) {
    const json::array& ab = b.get_array();
    if (aa->size() != ab.size()) return false;
    for (std::size_t i = 0; i < aa->size(); ++i) {
      if (!semantic_equal((*aa)[i], ab[i])) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace kcm::local::registry
