#include "controllers/deployment/template_equality.h"

#include "api/quantity.h"

namespace kcm::controllers::deployment {

namespace {

const json::value& null_value() {
  static const json::value kNull;
  return kNull;
}

bool is_number(const json::value& v) {
  return v.is_int64() || v.is_uint64() || v.is_double();
}

bool equal_numbers(const json::value& a, const json::value& b) {
  if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
  if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
  return a.to_number<double>() == b.to_number<double>();
}

bool equal_quantities(const json::value& a, const json::value& b) {
  if (!a.is_string() || !b.is_string()) return false;
  auto qa = api::Quantity::parse(a.get_string());
  auto qb = api::Quantity::parse(b.get_string());
  return qa.ok() && qb.ok() && qa->cmp(*qb) == 0;
}

// Members whose values (or which themselves) are resource.Quantity.
bool is_quantity_map(std::string_view key) {
  return key == "limits" || key == "requests" || key == "overhead";
}

bool equal(const json::value& a, const json::value& b, bool quantities);

bool equal_objects(const json::object& a, const json::object& b, bool quantity_values) {
  const auto member_equal = [&](std::string_view key, const json::value& va,
                                const json::value& vb) {
    const bool quantity = quantity_values || key == "sizeLimit";
    if (quantity_values || !is_quantity_map(key)) return equal(va, vb, quantity);
    // The values of a resource map are quantities.
    if (!va.is_object() || !vb.is_object()) return equal(va, vb, false);
    return equal_objects(va.get_object(), vb.get_object(), true);
  };
  for (const auto& kv : a) {
    const json::value* other = b.if_contains(kv.key());
    if (!member_equal(kv.key(), kv.value(), other != nullptr ? *other : null_value())) {
      return false;
    }
  }
  for (const auto& kv : b) {
    if (!a.contains(kv.key()) && !api::is_empty_value(kv.value())) return false;
  }
  return true;
}

bool equal(const json::value& a, const json::value& b, bool quantities) {
  if (api::is_empty_value(a) && api::is_empty_value(b)) return true;
  if (quantities && a.is_string() && b.is_string()) {
    return a.get_string() == b.get_string() || equal_quantities(a, b);
  }
  if (is_number(a) && is_number(b)) return equal_numbers(a, b);
  if (a.kind() != b.kind()) return false;
  if (a.is_object()) return equal_objects(a.get_object(), b.get_object(), false);
  if (a.is_array()) {
    const json::array& aa = a.get_array();
    const json::array& ab = b.get_array();
    if (aa.size() != ab.size()) return false;
    for (std::size_t i = 0; i < aa.size(); ++i) {
      if (!equal(aa[i], ab[i], false)) return false;
    }
    return true;
  }
  return a == b;
}

// A shallow view of the template with its labels minus the hash label.
json::value without_hash_label(const json::value& t) {
  const json::object* o = t.if_object();
  if (o == nullptr) return t;
  const json::object* meta = api::find_object(*o, "metadata");
  const json::object* labels = meta != nullptr ? api::find_object(*meta, "labels") : nullptr;
  if (labels == nullptr || !labels->contains(kPodTemplateHashLabel)) return t;
  json::value copy = t;
  copy.as_object()["metadata"].as_object()["labels"].as_object().erase(kPodTemplateHashLabel);
  return copy;
}

}  // namespace

bool semantic_equal(const json::value& a, const json::value& b) {
  return equal(a, b, false);
}

bool equal_ignore_hash(const json::value& template_a, const json::value& template_b) {
  return semantic_equal(without_hash_label(template_a), without_hash_label(template_b));
}

}  // namespace kcm::controllers::deployment
