#include "api/schema/semantic_equal.h"

#include <optional>

#include "api/duration.h"
#include "api/quantity.h"

namespace kcm::api::schema {
namespace {

// Absent and null decode alike.
bool is_nil(const json::value* v) {
  return v == nullptr || v->is_null();
}

bool is_number(const json::value& v) {
  return v.is_int64() || v.is_uint64() || v.is_double();
}

bool equal_numbers(const json::value& a, const json::value& b) {
  if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
  if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
  return a.to_number<double>() == b.to_number<double>();
}

// JSON the type says nothing about: absent equals null, numbers by value.
bool equal_json(const json::value* a, const json::value* b) {
  if (is_nil(a) || is_nil(b)) return is_nil(a) && is_nil(b);
  if (is_number(*a) && is_number(*b)) return equal_numbers(*a, *b);
  if (a->kind() != b->kind()) return false;
  if (const json::object* oa = a->if_object()) {
    const json::object& ob = b->get_object();
    for (const auto& kv : *oa) {
      if (!equal_json(&kv.value(), ob.if_contains(kv.key()))) return false;
    }
    for (const auto& kv : ob) {
      if (!oa->contains(kv.key()) && !kv.value().is_null()) return false;
    }
    return true;
  }
  if (const json::array* aa = a->if_array()) {
    const json::array& ab = b->get_array();
    if (aa->size() != ab.size()) return false;
    for (std::size_t i = 0; i < aa->size(); ++i) {
      if (!equal_json(&(*aa)[i], &ab[i])) return false;
    }
    return true;
  }
  return *a == *b;
}

// The member `key` of an object on the ignored path: left out entirely, or
// compared with the rest of the path left out.
bool left_out(IgnoredPath ignored, std::string_view key) {
  return ignored.size() == 1 && key == ignored[0];
}
IgnoredPath inner(IgnoredPath ignored, std::string_view key) {
  return ignored.size() > 1 && key == ignored[0] ? ignored.subspan(1) : IgnoredPath{};
}

bool equal_value(const json::value* a, const json::value* b, const TypeExpr& type,
                 IgnoredPath ignored);

bool equal_field(const json::value* a, const json::value* b, const Field& field,
                 IgnoredPath ignored) {
  // A nil pointer differs from a set one, whatever it points to.
  if (field.pointer && (is_nil(a) || is_nil(b))) return is_nil(a) && is_nil(b);
  return equal_value(a, b, *field.type, ignored);
}

// A struct or map value with nil as the empty object; nullptr when `v` is
// some other JSON type.
const json::object* object_nil_as_empty(const json::value* v) {
  static const json::object kEmpty;
  return is_nil(v) ? &kEmpty : v->if_object();
}
const json::array* array_nil_as_empty(const json::value* v) {
  static const json::array kEmpty;
  return is_nil(v) ? &kEmpty : v->if_array();
}

bool equal_members(const json::object& oa, const json::object& ob, const Type& type,
                   IgnoredPath ignored) {
  const auto member_equal = [&](std::string_view key, const json::value* va,
                                const json::value* vb) {
    const Field* field = type.field(key);
    return field != nullptr ? equal_field(va, vb, *field, inner(ignored, key)) : equal_json(va, vb);
  };
  for (const auto& kv : oa) {
    if (left_out(ignored, kv.key())) continue;
    if (!member_equal(kv.key(), &kv.value(), ob.if_contains(kv.key()))) return false;
  }
  // Members only `b` has, against their zero values.
  for (const auto& kv : ob) {
    if (left_out(ignored, kv.key()) || oa.contains(kv.key())) continue;
    if (!member_equal(kv.key(), nullptr, &kv.value())) return false;
  }
  return true;
}

bool equal_struct(const json::value* a, const json::value* b, const Type& type,
                  IgnoredPath ignored) {
  const json::object* oa = object_nil_as_empty(a);
  const json::object* ob = object_nil_as_empty(b);
  if (oa == nullptr || ob == nullptr) return equal_json(a, b);
  return equal_members(*oa, *ob, type, ignored);
}

bool equal_list(const json::value* a, const json::value* b, const TypeExpr& elem) {
  const json::array* la = array_nil_as_empty(a);
  const json::array* lb = array_nil_as_empty(b);
  if (la == nullptr || lb == nullptr) return equal_json(a, b);
  if (la->size() != lb->size()) return false;  // nil and empty are both size 0
  for (std::size_t i = 0; i < la->size(); ++i) {
    if (!equal_value(&(*la)[i], &(*lb)[i], elem, {})) return false;
  }
  return true;
}

bool equal_map(const json::value* a, const json::value* b, const TypeExpr& elem,
               IgnoredPath ignored) {
  const json::object* ma = object_nil_as_empty(a);
  const json::object* mb = object_nil_as_empty(b);
  if (ma == nullptr || mb == nullptr) return equal_json(a, b);
  const auto size_of = [&](const json::object& m) {
    std::size_t n = m.size();
    if (ignored.size() == 1 && m.contains(ignored[0])) --n;
    return n;
  };
  if (size_of(*ma) != size_of(*mb)) return false;
  for (const auto& kv : *ma) {
    if (left_out(ignored, kv.key())) continue;
    const json::value* other = mb->if_contains(kv.key());
    if (other == nullptr || !equal_value(&kv.value(), other, elem, inner(ignored, kv.key()))) {
      return false;
    }
  }
  return true;
}

// Strings and the types that print as strings: absent, null and "" alike.
bool equal_strings(const json::value* a, const json::value* b) {
  const auto text = [](const json::value* v) -> std::optional<std::string_view> {
    if (is_nil(v)) return std::string_view();
    if (v->is_string()) return std::string_view(v->get_string());
    return std::nullopt;
  };
  const std::optional<std::string_view> ta = text(a);
  const std::optional<std::string_view> tb = text(b);
  if (!ta || !tb) return equal_json(a, b);
  return *ta == *tb;
}

bool equal_scalars(const json::value* a, const json::value* b, const json::value& zero) {
  const json::value& va = is_nil(a) ? zero : *a;
  const json::value& vb = is_nil(b) ? zero : *b;
  if (is_number(va) && is_number(vb)) return equal_numbers(va, vb);
  return equal_json(&va, &vb);
}

bool equal_quantities(const json::value* a, const json::value* b) {
  if (is_nil(a) && is_nil(b)) return true;
  const auto quantity = [](const json::value* v) -> Result<Quantity> {
    if (is_nil(v)) return Quantity::parse("0");
    if (!v->is_string()) return fail("not a quantity");
    return Quantity::parse(v->get_string());
  };
  auto qa = quantity(a);
  auto qb = quantity(b);
  if (!qa.ok() || !qb.ok()) return equal_json(a, b);
  return qa->cmp(*qb) == 0;
}

bool equal_durations(const json::value* a, const json::value* b) {
  const auto duration = [](const json::value* v) -> Result<std::chrono::nanoseconds> {
    if (is_nil(v)) return std::chrono::nanoseconds(0);
    if (!v->is_string()) return fail("not a duration");
    return parse_duration(v->get_string());
  };
  auto da = duration(a);
  auto db = duration(b);
  if (!da.ok() || !db.ok()) return equal_json(a, b);
  return *da == *db;
}

bool equal_value(const json::value* a, const json::value* b, const TypeExpr& type,
                 IgnoredPath ignored) {
  static const json::value kZeroNumber = 0;
  static const json::value kFalse = false;
  switch (type.kind) {
    case Kind::kObject:
      return type.object != nullptr ? equal_struct(a, b, *type.object, ignored) : equal_json(a, b);
    case Kind::kList:
      return type.elem != nullptr ? equal_list(a, b, *type.elem) : equal_json(a, b);
    case Kind::kMap:
      return type.elem != nullptr ? equal_map(a, b, *type.elem, ignored) : equal_json(a, b);
    case Kind::kString:
    case Kind::kBytes:  // nil and empty []byte are equal, as other slices
    case Kind::kTime:   // the zero time prints as null
    case Kind::kMicroTime:
      return equal_strings(a, b);
    case Kind::kDuration:
      return equal_durations(a, b);
    case Kind::kBool:
      return equal_scalars(a, b, kFalse);
    case Kind::kInt32:
    case Kind::kInt64:
    case Kind::kDouble:
    case Kind::kIntOrString:  // the zero value is the int 0; 5 and "5" differ
      return equal_scalars(a, b, kZeroNumber);
    case Kind::kQuantity:
      return equal_quantities(a, b);
    case Kind::kRaw:
    case Kind::kFieldsV1:
      return equal_json(a, b);
  }
  return equal_json(a, b);
}

}  // namespace

bool semantic_equal(const json::value& a, const json::value& b, const Type& type,
                    IgnoredPath ignored) {
  return equal_struct(&a, &b, type, ignored);
}

bool semantic_equal(const json::object& a, const json::object& b, const Type& type,
                    IgnoredPath ignored) {
  return equal_members(a, b, type, ignored);
}

bool semantic_equal(const json::value* a, const json::value* b, const Field* field) {
  return field != nullptr ? equal_field(a, b, *field, {}) : equal_json(a, b);
}

}  // namespace kcm::api::schema
