#include "controllers/deployment/template_equality.h"

#include <span>

#include "api/quantity.h"
#include "controllers/deployment/json_members.h"

namespace kcm::controllers::deployment {

namespace {

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

// A member path left out of both sides of a comparison: its last member is
// removed from the object holding it; the objects on the way stay.
using Path = std::span<const std::string_view>;

// is_empty_value of `v` with `ignored` left out.
bool is_empty_without(const json::value& v, Path ignored) {
  if (ignored.size() == 1 && v.is_object()) {
    const json::object& o = v.get_object();
    return o.empty() || (o.size() == 1 && o.contains(ignored[0]));
  }
  return api::is_empty_value(v);
}

bool equal_values(const json::value& a, const json::value& b, bool quantities, Path ignored);

bool equal_objects(const json::object& a, const json::object& b, bool quantity_values,
                   Path ignored) {
  // The rest of the path, for the member on it.
  const auto inner = [&](std::string_view key) {
    return ignored.size() > 1 && key == ignored[0] ? ignored.subspan(1) : Path{};
  };
  const auto left_out = [&](std::string_view key) {
    return ignored.size() == 1 && key == ignored[0];
  };
  const auto member_equal = [&](std::string_view key, const json::value& va,
                                const json::value& vb) {
    const bool quantity = quantity_values || key == "sizeLimit";
    if (quantity_values || !is_quantity_map(key)) return equal_values(va, vb, quantity, inner(key));
    // The values of a resource map are quantities.
    if (!va.is_object() || !vb.is_object()) return equal_values(va, vb, false, {});
    return equal_objects(va.get_object(), vb.get_object(), true, {});
  };
  for (const auto& kv : a) {
    if (left_out(kv.key())) continue;
    const json::value* other = b.if_contains(kv.key());
    if (!member_equal(kv.key(), kv.value(), other != nullptr ? *other : null_value())) {
      return false;
    }
  }
  for (const auto& kv : b) {
    if (left_out(kv.key())) continue;
    if (!a.contains(kv.key()) && !is_empty_without(kv.value(), inner(kv.key()))) return false;
  }
  return true;
}

bool equal_values(const json::value& a, const json::value& b, bool quantities, Path ignored) {
  if (is_empty_without(a, ignored) && is_empty_without(b, ignored)) return true;
  if (quantities && a.is_string() && b.is_string()) {
    return a.get_string() == b.get_string() || equal_quantities(a, b);
  }
  if (is_number(a) && is_number(b)) return equal_numbers(a, b);
  if (a.kind() != b.kind()) return false;
  if (a.is_object()) return equal_objects(a.get_object(), b.get_object(), false, ignored);
  if (a.is_array()) {
    const json::array& aa = a.get_array();
    const json::array& ab = b.get_array();
    if (aa.size() != ab.size()) return false;
    for (std::size_t i = 0; i < aa.size(); ++i) {
      if (!equal_values(aa[i], ab[i], false, {})) return false;
    }
    return true;
  }
  return a == b;
}

// The pod-template-hash label of a PodTemplateSpec. Left out of the
// comparison rather than erased from copies: templates are compared on every
// Deployment sync, and copying them cost more than comparing.
constexpr std::string_view kHashLabelPath[] = {"metadata", "labels", kPodTemplateHashLabel};

}  // namespace

bool semantic_equal(const json::value& a, const json::value& b) {
  return equal_values(a, b, false, {});
}

bool equal_ignore_hash(const json::value& template_a, const json::value& template_b) {
  return equal_values(template_a, template_b, false, kHashLabelPath);
}

}  // namespace kcm::controllers::deployment
