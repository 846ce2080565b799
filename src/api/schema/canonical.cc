#include "api/schema/canonical.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <limits>
#include <string_view>

#include "api/base64.h"
#include "api/duration.h"
#include "api/quantity.h"
#include "api/time.h"

namespace kcm::api::schema {
namespace {

// Built-in types nest about fifteen levels; anything deeper is not a value of
// the type and is left as it is.
constexpr int kMaxCanonicalDepth = 64;

// One member of the output object, in Go declaration order: the input value
// (already canonical) or, when `value` is null, a nil pointer (`nil`) or the
// zero value of `field`.
struct Member {
  const Field* field;
  json::value* value;
  bool nil;
};
using Plan = boost::container::small_vector<Member, 32>;

// A field of a struct (`owner`: the struct or an inline member of it) and the
// input member for it, if any.
struct Slot {
  const Type* owner;
  const Field* field;
  json::value* value;
};
using Slots = boost::container::small_vector<Slot, 48>;

// Whether omitempty leaves out the zero value of a kind: scalars, strings,
// byte strings, lists and maps, but no struct (nor Quantity, Time, ...).
bool zero_is_empty(Kind k) {
  switch (k) {
    case Kind::kString:
    case Kind::kBytes:
    case Kind::kInt32:
    case Kind::kInt64:
    case Kind::kDouble:
    case Kind::kBool:
    case Kind::kList:
    case Kind::kMap:
      return true;
    default:
      return false;
  }
}

// Whether omitempty leaves a canonical value out: false, 0, "" and empty or
// nil lists, maps and byte strings. Structs (and the struct-backed Quantity,
// Time, IntOrString, ...) are never empty to encoding/json.
bool is_empty(const TypeExpr& t, const json::value& v) {
  switch (t.kind) {
    case Kind::kString:
      return v.is_string() && v.get_string().empty();
    case Kind::kBytes:
      return v.is_null() || (v.is_string() && v.get_string().empty());
    case Kind::kInt32:
    case Kind::kInt64:
    case Kind::kDouble:
      return (v.is_int64() && v.get_int64() == 0) || (v.is_uint64() && v.get_uint64() == 0) ||
             (v.is_double() && v.get_double() == 0.0);
    case Kind::kBool:
      return v.is_bool() && !v.get_bool();
    case Kind::kList:
      return v.is_null() || (v.is_array() && v.get_array().empty());
    case Kind::kMap:
      return v.is_null() || (v.is_object() && v.get_object().empty());
    default:
      return false;
  }
}

// Whether `s` is "YYYY-MM-DDTHH:MM:SS[.f...]Z" with `fraction` digits and
// every field in range, and not the zero time (which prints as null): what
// Time (0) or MicroTime (6) prints. Such text either parses and prints back
// unchanged or does not parse (a 30th of February) and is kept, so
// re-encoding it can be skipped.
bool is_canonical_time(std::string_view s, std::size_t fraction) {
  const std::size_t size = fraction == 0 ? 20 : 21 + fraction;
  if (s.size() != size || s.starts_with("0001-01-01T00:00:00") || s[4] != '-' || s[7] != '-' ||
      s[10] != 'T' || s[13] != ':' || s[16] != ':' || s.back() != 'Z' ||
      (fraction != 0 && s[19] != '.')) {
    return false;
  }
  // The `n` digits at `at`, read as a number in [min, max].
  auto digits = [&](std::size_t at, std::size_t n, int min, int max) {
    int value = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      value = value * 10 + (s[i] - '0');
    }
    return value >= min && value <= max;
  };
  return digits(0, 4, 0, 9999) && digits(5, 2, 1, 12) && digits(8, 2, 1, 31) &&
         digits(11, 2, 0, 23) && digits(14, 2, 0, 59) && digits(17, 2, 0, 59) &&
         (fraction == 0 || digits(20, fraction, 0, 999999));
}

// Finds the members of a struct for its fields, in declaration order. A
// canonical object (the usual input: a stored object, or a client's copy of
// one) lists its members in that order, so walking it costs one key
// comparison per field where searching costs a scan of the object. The walk
// is right only if it consumed every member (complete()); object() otherwise
// searches again.
class MemberLookup {
 public:
  MemberLookup(json::object& o, bool walk) : o_(o), walk_(walk) {}

  json::value* find(std::string_view name) {
    if (!walk_) return o_.if_contains(name);
    if (next_ == o_.size()) return nullptr;
    json::key_value_pair& kv = *(o_.begin() + static_cast<std::ptrdiff_t>(next_));
    if (kv.key() != name) return nullptr;
    ++next_;
    return &kv.value();
  }
  bool complete() const { return !walk_ || next_ == o_.size(); }

 private:
  json::object& o_;
  const bool walk_;
  std::size_t next_ = 0;
};

class Canonicalizer {
 public:
  explicit Canonicalizer(const CanonicalOptions& opts) : opts_(opts) {}

  // Canonicalizes a value of `t` in place. null becomes the zero value (how
  // Go decodes null into a list element, a map value or a struct field).
  void value(json::value& v, const TypeExpr& t, int depth) {
    if (depth > kMaxCanonicalDepth) return;
    if (v.is_null()) {
      v = zero(t, v.storage(), depth);
      return;
    }
    switch (t.kind) {
      case Kind::kString:
      case Kind::kBool:
      case Kind::kDouble:
      case Kind::kIntOrString:
      case Kind::kRaw:
      case Kind::kFieldsV1:
        return;
      case Kind::kInt32:
      case Kind::kInt64:
        if (v.is_uint64() && v.get_uint64() <= std::numeric_limits<std::int64_t>::max()) {
          v = static_cast<std::int64_t>(v.get_uint64());
        }
        return;
      case Kind::kBytes:
        if (const json::string* s = v.if_string()) {
          // Go keeps the decoded bytes and prints them in padded standard base64.
          if (auto bytes = base64_decode(*s); bytes) v = base64_encode(*bytes);
        }
        return;
      case Kind::kQuantity:
        if (v.is_string() || v.is_number()) {
          if (auto q = Quantity::from_json(v); q) v = q->to_json();
        }
        return;
      case Kind::kTime:
        if (v.is_string() && !is_canonical_time(v.get_string(), 0)) {
          if (auto tm = Time::from_json(v); tm) v = tm->to_json();
        }
        return;
      case Kind::kMicroTime:
        if (v.is_string() && !is_canonical_time(v.get_string(), 6)) {
          if (auto tm = MicroTime::from_json(v); tm) v = tm->to_json();
        }
        return;
      case Kind::kDuration:
        if (v.is_string()) {
          if (auto d = duration_from_json(v); d) v = duration_to_json(*d);
        }
        return;
      case Kind::kObject:
        if (json::object* o = v.if_object(); o && t.object != nullptr) {
          object(*o, *t.object, depth);
        }
        return;
      case Kind::kList:
        if (json::array* a = v.if_array(); a && t.elem != nullptr) {
          for (auto& item : *a)
            value(item, *t.elem, depth + 1);
        }
        return;
      case Kind::kMap:
        if (json::object* o = v.if_object(); o && t.elem != nullptr) map(*o, *t.elem, depth);
        return;
    }
  }

  // A struct: members in declaration order, unknown ones dropped, zero values
  // filled in or left out. Rewritten in place when already in that shape.
  void object(json::object& o, const Type& t, int depth) {
    if (depth > kMaxCanonicalDepth) return;
    // Find every field's member first, then canonicalize: a walk that gives
    // up has touched nothing.
    Slots slots;
    MemberLookup walk(o, true);
    find_fields(walk, t, slots, depth);
    if (!walk.complete()) {
      // Out of order or unknown members: what the walk took for absent may be
      // further on.
      slots.clear();
      MemberLookup search(o, false);
      find_fields(search, t, slots, depth);
    }
    Plan plan;
    for (const Slot& slot : slots)
      field(slot, plan, depth);
    bool same = plan.size() == o.size();
    for (std::size_t i = 0; same && i < plan.size(); ++i) {
      same = plan[i].value == &(o.begin() + static_cast<std::ptrdiff_t>(i))->value();
    }
    if (same) return;
    json::object out(o.storage());
    out.reserve(plan.size());
    for (const Member& m : plan) {
      if (m.value != nullptr) {
        out.emplace(m.field->name, std::move(*m.value));
      } else if (m.nil) {
        out.emplace(m.field->name, nullptr);
      } else {
        out.emplace(m.field->name, zero(*m.field->type, o.storage(), depth));
      }
    }
    o = std::move(out);
  }

 private:
  // Every field of `t` (inline members expanded) and its member, if any.
  void find_fields(MemberLookup& members, const Type& t, Slots& slots, int depth) {
    for (const Field& f : t.fields) {
      if (f.inline_) {
        if (f.type->object != nullptr && depth < kMaxCanonicalDepth) {
          find_fields(members, *f.type->object, slots, depth + 1);
        }
        continue;
      }
      slots.push_back({&t, &f, members.find(f.name)});
    }
  }

  void field(const Slot& slot, Plan& plan, int depth) {
    const Field& f = *slot.field;
    const Type& owner = *slot.owner;
    const TypeExpr& t = *f.type;
    json::value* v = slot.value;
    if (v != nullptr && !v->is_null()) value(*v, t, depth + 1);
    // Unset: absent, null, or a value that prints as null once canonical (a
    // zero Time, an empty RawExtension).
    const bool unset = v == nullptr || v->is_null();
    if (f.pointer) {
      // A pointer to a zero Time prints null, which decodes back to nil: the
      // fixed point is nil.
      if (!unset) {
        plan.push_back({&f, v, false});
      } else if (!f.omitempty) {
        plan.push_back({&f, v, true});
      }
      return;
    }
    if (unset) {
      if (f.omitempty && zero_is_empty(t.kind)) return;
      if (opts_.omit_zero_creation_timestamp && f.name == "creationTimestamp" &&
          owner.name == "ObjectMeta" && owner.package == "meta/v1") {
        return;
      }
      if (v != nullptr) *v = zero(t, v->storage(), depth);
      plan.push_back({&f, v, false});
      return;
    }
    if (f.omitempty && is_empty(t, *v)) return;
    plan.push_back({&f, v, false});
  }

  // map[string]T: values canonical, keys in byte order as Go prints them.
  void map(json::object& o, const TypeExpr& elem, int depth) {
    bool sorted = true;
    std::string_view prev;
    bool first = true;
    for (auto& kv : o) {
      value(kv.value(), elem, depth + 1);
      if (!first && kv.key() < prev) sorted = false;
      prev = kv.key();
      first = false;
    }
    if (sorted) return;
    boost::container::small_vector<json::key_value_pair*, 16> order;
    order.reserve(o.size());
    for (auto& kv : o)
      order.push_back(&kv);
    std::sort(order.begin(), order.end(),
              [](const auto* a, const auto* b) { return a->key() < b->key(); });
    json::object out(o.storage());
    out.reserve(o.size());
    for (auto* kv : order)
      out.emplace(kv->key(), std::move(kv->value()));
    o = std::move(out);
  }

  // The Go zero value of `t` as it prints.
  json::value zero(const TypeExpr& t, const json::storage_ptr& sp, int depth) {
    switch (t.kind) {
      case Kind::kString:
        return json::value(json::string(sp));
      case Kind::kInt32:
      case Kind::kInt64:
      case Kind::kIntOrString:
      case Kind::kDouble:  // float64 zero prints as 0
        return json::value(std::int64_t{0}, sp);
      case Kind::kBool:
        return json::value(false, sp);
      case Kind::kQuantity:
        return json::value("0", sp);
      case Kind::kDuration:
        return json::value("0s", sp);
      case Kind::kObject: {
        // Not `json::value v(json::object_kind, sp)`: braces or not, that
        // overload resolves to the initializer-list constructor (an array).
        json::object o(sp);
        if (t.object != nullptr) object(o, *t.object, depth + 1);
        return json::value(std::move(o));
      }
      default:  // nil []byte, list, map; zero Time; empty RawExtension/FieldsV1
        return json::value(nullptr, sp);
    }
  }

  const CanonicalOptions& opts_;
};

}  // namespace

void canonicalize(json::value& object, const Type& type, const CanonicalOptions& opts) {
  Canonicalizer c(opts);
  if (object.is_null()) object = json::object(object.storage());
  if (json::object* o = object.if_object()) c.object(*o, type, 0);
}

}  // namespace kcm::api::schema
