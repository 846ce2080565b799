#include "api/patch/strategic_merge_patch.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace kcm::api {
namespace {

// Inputs are checked against kJsonMaxDepth once up front; every recursion below
// follows the inputs' structure, so it is bounded by that too.

constexpr std::string_view kDirectiveMarker = "$patch";
constexpr std::string_view kDeleteDirective = "delete";
constexpr std::string_view kReplaceDirective = "replace";
constexpr std::string_view kMergeDirective = "merge";
constexpr std::string_view kRetainKeysDirective = "$retainKeys";
constexpr std::string_view kDeleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList";
constexpr std::string_view kSetElementOrderPrefix = "$setElementOrder";

// Go's reflect type names, as upstream's ErrBadArgType prints them.
constexpr std::string_view kGoMapType = "map[string]interface {}";
constexpr std::string_view kGoSliceType = "[]interface {}";

template <class T>
using Res = Result<T, PatchError>;
using Step = Result<void, PatchError>;
using Refs = std::vector<const json::value*>;  // a list upstream reads but does not own
using Items = std::vector<json::value>;        // a list being built

Unexpected<PatchError> error_of(PatchErrorKind kind, std::string message) {
  return fail(PatchError{kind, std::move(message)});
}
Unexpected<PatchError> fail_bad_request(std::string message) {
  return error_of(PatchErrorKind::kBadRequest, std::move(message));
}
Unexpected<PatchError> fail_internal(std::string message) {
  return error_of(PatchErrorKind::kInternal, std::move(message));
}
Unexpected<PatchError> go_panic() {
  return error_of(PatchErrorKind::kPanic, std::string(kPanicMessage));
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string_view string_of(const json::string& s) {
  return {s.data(), s.size()};
}

// ---------------------------------------------------------------------------
// Decoded JSON as Go sees it: interface{} values holding one of these types.
// Integers decode as int64; other numbers (and integers past int64) as float64.

enum class GoType { kNil, kBool, kInt, kFloat, kString, kMap, kSlice };

GoType go_type(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return GoType::kNil;
    case json::kind::bool_:
      return GoType::kBool;
    case json::kind::int64:
      return GoType::kInt;
    case json::kind::uint64:
    case json::kind::double_:
      return GoType::kFloat;
    case json::kind::string:
      return GoType::kString;
    case json::kind::array:
      return GoType::kSlice;
    case json::kind::object:
      return GoType::kMap;
  }
  return GoType::kNil;
}

bool comparable(GoType t) {
  return t != GoType::kMap && t != GoType::kSlice;
}

double as_float(const json::value& v) {
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  return v.get_double();
}

// A hashable encoding of a comparable value: equal encodings <=> Go's ==.
std::string scalar_key(const json::value& v) {
  switch (go_type(v)) {
    case GoType::kNil:
      return "n";
    case GoType::kBool:
      return v.get_bool() ? "t" : "f";
    case GoType::kInt:
      return "i" + std::to_string(v.get_int64());
    case GoType::kFloat: {
      double d = as_float(v);
      if (d == 0) d = 0;  // -0 == 0 in Go
      char bytes[sizeof d];
      std::memcpy(bytes, &d, sizeof d);
      return "d" + std::string(bytes, sizeof d);
    }
    case GoType::kString:
      return "s" + std::string(string_of(v.get_string()));
    case GoType::kMap:
    case GoType::kSlice:
      break;
  }
  return {};
}

// Go's == on two interface values.
enum class Eq { kNo, kYes, kPanic };

Eq go_equal(const json::value& a, const json::value& b) {
  const GoType t = go_type(a);
  if (t != go_type(b)) return Eq::kNo;
  switch (t) {
    case GoType::kNil:
      return Eq::kYes;
    case GoType::kBool:
      return a.get_bool() == b.get_bool() ? Eq::kYes : Eq::kNo;
    case GoType::kInt:
      return a.get_int64() == b.get_int64() ? Eq::kYes : Eq::kNo;
    case GoType::kFloat:
      return as_float(a) == as_float(b) ? Eq::kYes : Eq::kNo;
    case GoType::kString:
      return a.get_string() == b.get_string() ? Eq::kYes : Eq::kNo;
    case GoType::kMap:
    case GoType::kSlice:
      return Eq::kPanic;  // "comparing uncomparable type"
  }
  return Eq::kNo;
}

// reflect.DeepEqual on decoded values.
bool deep_equal(const json::value& a, const json::value& b) {
  const GoType t = go_type(a);
  if (t != go_type(b)) return false;
  if (t == GoType::kMap) {
    const json::object& x = a.get_object();
    const json::object& y = b.get_object();
    if (x.size() != y.size()) return false;
    for (const auto& m : x) {
      const json::value* other = y.if_contains(m.key());
      if (other == nullptr || !deep_equal(m.value(), *other)) return false;
    }
    return true;
  }
  if (t == GoType::kSlice) {
    const json::array& x = a.get_array();
    const json::array& y = b.get_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!deep_equal(x[i], y[i])) return false;
    }
    return true;
  }
  return go_equal(a, b) == Eq::kYes;
}

// ---------------------------------------------------------------------------
// Go's fmt, for upstream's messages and for the diff, which sorts by "%v".

// strconv.FormatFloat(f, 'g', -1, 64): the shortest digits that round-trip,
// in %e form when the exponent is < -4 or >= 6 (%v for a float64).
std::string format_float(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
  const std::size_t e = sci.find('e');
  std::string_view mantissa = sci.substr(0, e);
  const bool negative = !mantissa.empty() && mantissa.front() == '-';
  if (negative) mantissa.remove_prefix(1);
  std::string digits;
  for (const char c : mantissa) {
    if (c != '.') digits += c;
  }
  int exp = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exp);
  std::string out = negative ? "-" : "";
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out.append(digits, 1);
    }
    out += exp < 0 ? "e-" : "e+";
    const int a = exp < 0 ? -exp : exp;
    if (a < 10) out += '0';
    out += std::to_string(a);
    return out;
  }
  const int dp = exp + 1;  // digits before the decimal point
  const int nd = static_cast<int>(digits.size());
  if (dp > 0) {
    for (int i = 0; i < dp; ++i)
      out += i < nd ? digits[static_cast<std::size_t>(i)] : '0';
  } else {
    out += '0';
  }
  const int prec = std::max(nd - dp, 0);
  if (prec > 0) {
    out += '.';
    for (int i = 0; i < prec; ++i) {
      const int j = dp + i;
      out += j >= 0 && j < nd ? digits[static_cast<std::size_t>(j)] : '0';
    }
  }
  return out;
}

std::string_view go_type_string(GoType t) {
  switch (t) {
    case GoType::kBool:
      return "bool";
    case GoType::kInt:
      return "int64";
    case GoType::kFloat:
      return "float64";
    case GoType::kString:
      return "string";
    case GoType::kMap:
      return kGoMapType;
    case GoType::kSlice:
      return kGoSliceType;
    case GoType::kNil:
      break;
  }
  return "%!s(<nil>)";  // %s of a nil reflect.Type
}

// Prints `v` as fmt does with verb 'v' or 's' (maps with sorted keys).
void append_go(std::string& out, const json::value& v, char verb, bool top) {
  const GoType t = go_type(v);
  const auto scalar = [&](const std::string& text) {
    if (verb == 'v') {
      out += text;
    } else {
      out += "%!s(";
      out += go_type_string(t);
      out += '=';
      out += text;
      out += ')';
    }
  };
  switch (t) {
    case GoType::kNil:
      out += top && verb != 'v' ? "%!s(<nil>)" : "<nil>";
      return;
    case GoType::kBool:
      scalar(v.get_bool() ? "true" : "false");
      return;
    case GoType::kInt:
      scalar(std::to_string(v.get_int64()));
      return;
    case GoType::kFloat:
      scalar(format_float(as_float(v)));
      return;
    case GoType::kString:
      out += string_of(v.get_string());
      return;
    case GoType::kSlice: {
      out += '[';
      bool first = true;
      for (const json::value& e : v.get_array()) {
        if (!first) out += ' ';
        first = false;
        append_go(out, e, verb, false);
      }
      out += ']';
      return;
    }
    case GoType::kMap: {
      const json::object& o = v.get_object();
      std::vector<const json::key_value_pair*> members;
      members.reserve(o.size());
      for (const auto& m : o)
        members.push_back(&m);
      std::sort(members.begin(), members.end(),
                [](const auto* a, const auto* b) { return a->key() < b->key(); });
      out += "map[";
      bool first = true;
      for (const auto* m : members) {
        if (!first) out += ' ';
        first = false;
        out += m->key();
        out += ':';
        append_go(out, m->value(), verb, false);
      }
      out += ']';
      return;
    }
  }
}

std::string go_v(const json::value& v) {
  std::string out;
  append_go(out, v, 'v', true);
  return out;
}

std::string go_v(const json::object& o) {
  std::string out;
  append_go(out, json::value(o), 'v', true);
  return out;
}

std::string go_v(const Refs& list) {
  std::string out = "[";
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += ' ';
    append_go(out, *list[i], 'v', false);
  }
  return out + "]";
}

std::string go_s(const json::value& v) {
  std::string out;
  append_go(out, v, 's', true);
  return out;
}

// mergepatch's error constructors.
std::string no_merge_key(const json::object& m, std::string_view key) {
  return fmt::format("map: {} does not contain declared merge key: {}", go_v(m), key);
}
std::string bad_arg_type(std::string_view expected, const json::value& actual) {
  return fmt::format("expected a {}, but received a {}", expected, go_type_string(go_type(actual)));
}
std::string bad_patch_type(const json::value& directive, const json::object& m) {
  return fmt::format("unknown patch type: {} in map: {}", go_s(directive), go_v(m));
}

bool nested_deeper_than(const json::value& v, std::size_t limit) {
  if (v.is_array()) {
    if (limit == 0) return true;
    for (const json::value& e : v.get_array()) {
      if (nested_deeper_than(e, limit - 1)) return true;
    }
  } else if (v.is_object()) {
    if (limit == 0) return true;
    for (const auto& m : v.get_object()) {
      if (nested_deeper_than(m.value(), limit - 1)) return true;
    }
  }
  return false;
}

Refs refs_of(const json::array& a) {
  Refs out;
  out.reserve(a.size());
  for (const json::value& v : a)
    out.push_back(&v);
  return out;
}

const PatchField& field_of(const PatchSchema* schema, std::string_view name) {
  static const PatchField kUnknown;
  if (schema == nullptr) return kUnknown;
  const PatchField* f = schema->lookup(name);
  return f != nullptr ? *f : kUnknown;
}

bool has_delete_directive(const json::value& v) {
  const json::object* o = v.if_object();
  if (o == nullptr) return false;
  const json::value* d = o->if_contains(kDirectiveMarker);
  return d != nullptr && d->is_string() && string_of(d->get_string()) == kDeleteDirective;
}

// ---------------------------------------------------------------------------
// Go's sort package, reproduced so that upstream's comparators (not always
// strict weak orderings) order exactly as they do there.

// sort.SliceStable: insertion sort on blocks of 20, then in-place SymMerge.
class GoStableSort {
 public:
  template <class Less, class Swap>
  static void run(std::ptrdiff_t n, const Less& less, const Swap& swap) {
    std::ptrdiff_t block = 20;
    std::ptrdiff_t a = 0;
    std::ptrdiff_t b = block;
    while (b <= n) {
      insertion(a, b, less, swap);
      a = b;
      b += block;
    }
    insertion(a, n, less, swap);
    while (block < n) {
      a = 0;
      b = 2 * block;
      while (b <= n) {
        sym_merge(a, a + block, b, less, swap);
        a = b;
        b += 2 * block;
      }
      if (const std::ptrdiff_t m = a + block; m < n) sym_merge(a, m, n, less, swap);
      block *= 2;
    }
  }

 private:
  static std::ptrdiff_t mid(std::ptrdiff_t i, std::ptrdiff_t j) {
    return static_cast<std::ptrdiff_t>(
        (static_cast<std::size_t>(i) + static_cast<std::size_t>(j)) >> 1);
  }

  template <class Less, class Swap>
  static void insertion(std::ptrdiff_t a, std::ptrdiff_t b, const Less& less, const Swap& swap) {
    for (std::ptrdiff_t i = a + 1; i < b; ++i) {
      for (std::ptrdiff_t j = i; j > a && less(j, j - 1); --j)
        swap(j, j - 1);
    }
  }

  template <class Swap>
  static void swap_range(std::ptrdiff_t a, std::ptrdiff_t b, std::ptrdiff_t n, const Swap& swap) {
    for (std::ptrdiff_t i = 0; i < n; ++i)
      swap(a + i, b + i);
  }

  template <class Swap>
  static void rotate(std::ptrdiff_t a, std::ptrdiff_t m, std::ptrdiff_t b, const Swap& swap) {
    std::ptrdiff_t i = m - a;
    std::ptrdiff_t j = b - m;
    while (i != j) {
      if (i > j) {
        swap_range(m - i, m, j, swap);
        i -= j;
      } else {
        swap_range(m - i, m + j - i, i, swap);
        j -= i;
      }
    }
    swap_range(m - i, m, i, swap);
  }

  template <class Less, class Swap>
  static void sym_merge(std::ptrdiff_t a, std::ptrdiff_t m, std::ptrdiff_t b, const Less& less,
                        const Swap& swap) {
    if (m - a == 1) {
      std::ptrdiff_t i = m;
      std::ptrdiff_t j = b;
      while (i < j) {
        const std::ptrdiff_t h = mid(i, j);
        if (less(h, a)) {
          i = h + 1;
        } else {
          j = h;
        }
      }
      for (std::ptrdiff_t k = a; k < i - 1; ++k)
        swap(k, k + 1);
      return;
    }
    if (b - m == 1) {
      std::ptrdiff_t i = a;
      std::ptrdiff_t j = m;
      while (i < j) {
        const std::ptrdiff_t h = mid(i, j);
        if (!less(m, h)) {
          i = h + 1;
        } else {
          j = h;
        }
      }
      for (std::ptrdiff_t k = m; k > i; --k)
        swap(k, k - 1);
      return;
    }
    const std::ptrdiff_t middle = mid(a, b);
    const std::ptrdiff_t n = middle + m;
    std::ptrdiff_t start = 0;
    std::ptrdiff_t r = 0;
    if (m > middle) {
      start = n - b;
      r = middle;
    } else {
      start = a;
      r = m;
    }
    const std::ptrdiff_t p = n - 1;
    while (start < r) {
      const std::ptrdiff_t c = mid(start, r);
      if (!less(p - c, c)) {
        start = c + 1;
      } else {
        r = c;
      }
    }
    const std::ptrdiff_t end = n - start;
    if (start < m && m < end) rotate(start, m, end, swap);
    if (a < start && start < middle) sym_merge(a, start, middle, less, swap);
    if (middle < end && end < b) sym_merge(middle, end, b, less, swap);
  }
};

// sort.Sort by "%v" with upstream's `a <= b` comparator. Go's pdqsort is an
// insertion sort up to 12 elements (which reverses runs of equal strings);
// longer lists sort stably here, which differs only among equal strings.
template <class T>
void go_sort_by_string(std::vector<std::pair<std::string, T>>& items) {
  if (items.size() <= 12) {
    for (std::size_t i = 1; i < items.size(); ++i) {
      for (std::size_t j = i; j > 0 && items[j].first <= items[j - 1].first; --j) {
        std::swap(items[j], items[j - 1]);
      }
    }
    return;
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

// ---------------------------------------------------------------------------
// Upstream's list lookups, hashed. Semantics stay those of its linear scans
// with Go's == (including where == panics), only faster.

// The value upstream's index() compares: an element's merge key (null when it
// is not a map or lacks the key) for lists of maps, the element itself otherwise.
const json::value& compared_value(const json::value& item, std::string_view merge_key, bool maps) {
  static const json::value kNull;
  if (!maps) return item;
  const json::object* o = item.if_object();
  if (o == nullptr) return kNull;
  const json::value* v = o->if_contains(merge_key);
  return v != nullptr ? *v : kNull;
}

// index(order, item): the first position whose compared value equals the item's.
class OrderIndex {
 public:
  OrderIndex(const Refs& order, std::string_view merge_key, bool maps)
      : merge_key_(merge_key), maps_(maps) {
    for (std::size_t i = 0; i < order.size(); ++i) {
      const json::value& v = compared_value(*order[i], merge_key, maps);
      const GoType t = go_type(v);
      if (t == GoType::kMap) {
        has_map_ = true;
      } else if (t == GoType::kSlice) {
        has_slice_ = true;
      } else {
        first_.emplace(scalar_key(v), static_cast<std::ptrdiff_t>(i));
      }
    }
  }

  // -1 when absent; nullopt where Go's == would panic.
  std::optional<std::ptrdiff_t> find(const json::value& item) const {
    const json::value& v = compared_value(item, merge_key_, maps_);
    const GoType t = go_type(v);
    if (t == GoType::kMap) return has_map_ ? std::nullopt : std::optional<std::ptrdiff_t>(-1);
    if (t == GoType::kSlice) return has_slice_ ? std::nullopt : std::optional<std::ptrdiff_t>(-1);
    const auto it = first_.find(scalar_key(v));
    return it == first_.end() ? -1 : it->second;
  }

 private:
  std::string merge_key_;
  bool maps_;
  std::unordered_map<std::string, std::ptrdiff_t> first_;
  bool has_map_ = false;
  bool has_slice_ = false;
};

// findMapInSliceBasedOnKeyValue(list, key, value): scans for the first map
// whose `key` equals `value`, failing at the first element that is not a map.
class MapFinder {
 public:
  enum class Outcome { kFound, kNotFound, kError, kPanic };

  MapFinder(const Refs& list, std::string_view key) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json::object* o = list[i]->if_object();
      if (o == nullptr) {
        not_map_ = i;
        break;  // the scan never gets past it
      }
      const json::value* v = o->if_contains(key);
      if (v == nullptr) continue;
      const GoType t = go_type(*v);
      if (t == GoType::kMap) {
        first_map_ = std::min(first_map_, i);
      } else if (t == GoType::kSlice) {
        first_slice_ = std::min(first_slice_, i);
      } else {
        first_.emplace(scalar_key(*v), i);
      }
    }
  }

  Outcome find(const json::value& value) const {
    const GoType t = go_type(value);
    std::size_t at = kNone;
    if (t == GoType::kMap || t == GoType::kSlice) {
      if ((t == GoType::kMap ? first_map_ : first_slice_) < not_map_) return Outcome::kPanic;
    } else if (const auto it = first_.find(scalar_key(value)); it != first_.end()) {
      at = it->second;
    }
    if (at < not_map_) return Outcome::kFound;
    return not_map_ != kNone ? Outcome::kError : Outcome::kNotFound;
  }

  std::string error() const { return fmt::format("value for key {} is not a map", not_map_); }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::unordered_map<std::string, std::size_t> first_;
  std::size_t first_map_ = kNone;
  std::size_t first_slice_ = kNone;
  std::size_t not_map_ = kNone;
};

// sliceElementType: the one Go type of all elements; no lists of lists.
Res<GoType> slice_element_type(std::initializer_list<const Refs*> lists) {
  std::optional<GoType> prev;
  for (const Refs* list : lists) {
    for (const json::value* v : *list) {
      const GoType t = go_type(*v);
      if (!prev) {
        if (t == GoType::kNil) return go_panic();  // reflect.TypeOf(nil).Kind()
        if (t == GoType::kSlice) {
          return error_of(PatchErrorKind::kUnprocessable, std::string(kErrNoListOfLists));
        }
        prev = t;
      } else if (*prev != t) {
        std::string all = "[";
        bool first = true;
        for (const Refs* l : lists) {
          if (!first) all += ' ';
          first = false;
          all += go_v(*l);
        }
        return fail_internal("list element types are not identical: " + all + "]");
      }
    }
  }
  if (!prev) return fail_internal("no elements in any of the given slices");
  return *prev;
}

// ---------------------------------------------------------------------------
// Directive clean-up for values taken from the patch as they are.

// Keeps the members `keep` accepts, in order (Boost's erase would move the
// last member into the hole, and stable_erase is linear per call).
template <class Keep>
void filter_members(json::object& o, const Keep& keep) {
  json::object kept;
  kept.reserve(o.size());
  for (auto& m : o) {
    if (keep(m)) kept.emplace(m.key(), std::move(m.value()));
  }
  o = std::move(kept);
}

// discardNullValuesFromPatch: drops null members at any depth (through lists).
void discard_nulls(json::value& v) {
  if (json::object* o = v.if_object()) {
    bool has_null = false;
    for (auto& m : *o) {
      if (m.value().is_null()) {
        has_null = true;
      } else {
        discard_nulls(m.value());
      }
    }
    if (has_null) filter_members(*o, [](const auto& m) { return !m.value().is_null(); });
  } else if (json::array* a = v.if_array()) {
    for (json::value& e : *a)
      discard_nulls(e);
  }
}

// removeDirectives: false when `v` itself is a map with `$patch` (drop it);
// otherwise drops such maps wherever they are nested.
bool remove_directives(json::value& v) {
  if (json::object* o = v.if_object()) {
    if (o->contains(kDirectiveMarker)) return false;
    std::unordered_set<std::string> dropped;
    for (auto& m : *o) {
      if (!remove_directives(m.value())) dropped.emplace(m.key());
    }
    if (!dropped.empty()) {
      filter_members(*o, [&](const auto& m) { return dropped.count(std::string(m.key())) == 0; });
    }
  } else if (json::array* a = v.if_array()) {
    json::array kept;
    kept.reserve(a->size());
    for (json::value& e : *a) {
      if (remove_directives(e)) kept.push_back(std::move(e));
    }
    *a = std::move(kept);
  }
  return true;
}

// ---------------------------------------------------------------------------
// Ordering merged lists (normalizeElementOrder and friends).

// normalizeSliceOrder: sorts `items` by their position in `order`; for lists of
// maps, elements marked `$patch: delete` go last.
Res<Items> normalize_slice_order(Items items, const Refs& order, std::string_view merge_key,
                                 bool maps, const OrderIndex* prebuilt = nullptr) {
  Items deletes;
  if (maps) {
    // validateMergeKeyInLists(items, order).
    const auto check = [&](const json::value& v) -> Step {
      const json::object* o = v.if_object();
      if (o == nullptr) return fail_internal(bad_arg_type(kGoMapType, v));
      if (!o->contains(merge_key)) return fail_internal(no_merge_key(*o, merge_key));
      return {};
    };
    for (const json::value& v : items) {
      if (Step s = check(v); !s) return fail(s.error());
    }
    for (const json::value* v : order) {
      if (Step s = check(*v); !s) return fail(s.error());
    }
    Items kept;
    kept.reserve(items.size());
    for (json::value& v : items)
      (has_delete_directive(v) ? deletes : kept).push_back(std::move(v));
    items = std::move(kept);
  }
  std::optional<OrderIndex> built;
  const OrderIndex& index = prebuilt != nullptr ? *prebuilt : built.emplace(order, merge_key, maps);
  std::vector<std::pair<std::optional<std::ptrdiff_t>, std::size_t>> keyed;
  keyed.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i)
    keyed.emplace_back(index.find(items[i]), i);
  bool panicked = false;
  const auto less = [&](std::ptrdiff_t i, std::ptrdiff_t j) {
    const auto& a = keyed[static_cast<std::size_t>(i)].first;
    if (!a) {
      panicked = true;
      return false;
    }
    if (*a >= 0) {
      const auto& b = keyed[static_cast<std::size_t>(j)].first;
      if (!b) {
        panicked = true;
        return false;
      }
      if (*b >= 0) return *a < *b;
    }
    return true;
  };
  const auto swap = [&](std::ptrdiff_t i, std::ptrdiff_t j) {
    std::swap(keyed[static_cast<std::size_t>(i)], keyed[static_cast<std::size_t>(j)]);
  };
  GoStableSort::run(static_cast<std::ptrdiff_t>(keyed.size()), less, swap);
  if (panicked) return go_panic();
  Items sorted;
  sorted.reserve(items.size() + deletes.size());
  for (const auto& k : keyed)
    sorted.push_back(std::move(items[k.second]));
  for (json::value& v : deletes)
    sorted.push_back(std::move(v));
  return sorted;
}

// normalizeElementOrder: patch items in the patch's order, server-only items
// in the live list's order, then interleaved by mergeSortedSlice: a
// server-only item goes before the next patch item when the live list has
// both and has it first.
Res<json::array> normalize_element_order(Items patch_items, Items server_only,
                                         const Refs& patch_order, const Refs& server_order,
                                         std::string_view merge_key, bool maps) {
  Res<Items> right = normalize_slice_order(std::move(patch_items), patch_order, merge_key, maps);
  if (!right) return fail(std::move(right).error());
  const OrderIndex index(server_order, merge_key, maps);
  Res<Items> left =
      normalize_slice_order(std::move(server_only), server_order, merge_key, maps, &index);
  if (!left) return fail(std::move(left).error());
  json::array out;
  out.reserve(left->size() + right->size());
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < left->size() || j < right->size()) {
    if (i >= left->size()) {
      out.push_back(std::move((*right)[j++]));
    } else if (j >= right->size()) {
      out.push_back(std::move((*left)[i++]));
    } else {
      const std::optional<std::ptrdiff_t> li = index.find((*left)[i]);
      const std::optional<std::ptrdiff_t> ri = index.find((*right)[j]);
      if (!li || !ri) return go_panic();
      if (*li >= 0 && *ri >= 0 && *li < *ri) {
        out.push_back(std::move((*left)[i++]));
      } else {
        out.push_back(std::move((*right)[j++]));
      }
    }
  }
  return out;
}

// partitionPrimitivesByPresentInList: Go hashes every element (a map or list panics).
Step partition_primitives(Items merged, const Refs& by, Items& in, Items& out) {
  std::unordered_set<std::string> present;
  for (const json::value* v : by) {
    if (!comparable(go_type(*v))) return go_panic();
    present.insert(scalar_key(*v));
  }
  for (json::value& v : merged) {
    if (!comparable(go_type(v))) return go_panic();
    (present.count(scalar_key(v)) != 0 ? in : out).push_back(std::move(v));
  }
  return {};
}

// partitionMapsByPresentInList.
Step partition_maps(Items merged, const Refs& by, std::string_view merge_key, Items& in,
                    Items& out) {
  const MapFinder finder(by, merge_key);
  for (json::value& v : merged) {
    const json::object* o = v.if_object();
    if (o == nullptr) return fail_internal(bad_arg_type(kGoMapType, v));
    const json::value* key = o->if_contains(merge_key);
    if (key == nullptr) return fail_internal(no_merge_key(*o, merge_key));
    switch (finder.find(*key)) {
      case MapFinder::Outcome::kPanic:
        return go_panic();
      case MapFinder::Outcome::kError:
        return fail_internal(finder.error());
      case MapFinder::Outcome::kFound:
        in.push_back(std::move(v));
        break;
      case MapFinder::Outcome::kNotFound:
        out.push_back(std::move(v));
        break;
    }
  }
  return {};
}

Items copy_items(const Refs& refs) {
  Items out;
  out.reserve(refs.size());
  for (const json::value* v : refs)
    out.push_back(*v);
  return out;
}

// ---------------------------------------------------------------------------
// Applying a patch (mergeMap and mergeSlice).

Res<json::object> merge_map(json::object original, const json::object& patch,
                            const PatchSchema* schema);

struct SliceMerge {
  json::array merged;
  // What the caller's slice header over the original list sees afterwards.
  // Upstream deletes from and appends to the live list in place, so a
  // `$setElementOrder` pass that orders by the original list reads the
  // shifted and overwritten backing array; ordering reproduces that.
  Refs view;
};

// mergeSlice for lists of maps.
Res<SliceMerge> merge_list_of_maps(const json::array& original, const json::array& patch,
                                   const PatchField& field) {
  const std::string& merge_key = field.meta.merge_key;
  const std::size_t n = original.size();
  std::vector<char> alive(n, 1);
  std::size_t live = n;
  std::size_t last_alive = n == 0 ? 0 : n - 1;
  Refs stale(n, nullptr);
  std::unordered_map<std::string, std::vector<std::size_t>> by_key;
  std::size_t map_keys = 0;
  std::size_t slice_keys = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const json::value* key = original[i].get_object().if_contains(merge_key);
    if (key == nullptr) continue;
    const GoType t = go_type(*key);
    if (t == GoType::kMap) {
      ++map_keys;
    } else if (t == GoType::kSlice) {
      ++slice_keys;
    } else {
      by_key[scalar_key(*key)].push_back(i);
    }
  }

  // mergeSliceWithSpecialElements: deletions (in place, as Go's append does)
  // and `$patch: replace`.
  Refs plain;
  bool replace = false;
  for (const json::value& v : patch) {
    const json::object& o = v.get_object();
    const json::value* directive = o.if_contains(kDirectiveMarker);
    if (directive == nullptr) {
      plain.push_back(&v);
      continue;
    }
    const std::string_view d =
        directive->is_string() ? string_of(directive->get_string()) : std::string_view();
    if (directive->is_string() && d == kDeleteDirective) {
      const json::value* key = o.if_contains(merge_key);
      if (key == nullptr) return fail_internal(no_merge_key(o, merge_key));
      const GoType t = go_type(*key);
      if (!comparable(t)) {
        if ((t == GoType::kMap ? map_keys : slice_keys) > 0) return go_panic();
        continue;
      }
      const auto it = by_key.find(scalar_key(*key));
      if (it == by_key.end()) continue;
      for (const std::size_t pos : it->second) {
        // Removing at k shifts the tail left; the array's slot live-1 keeps
        // the element that was last.
        stale[live - 1] = &original[last_alive];
        alive[pos] = 0;
        --live;
        while (live > 0 && !alive[last_alive])
          --last_alive;
      }
      it->second.clear();
    } else if (directive->is_string() && d == kReplaceDirective) {
      replace = true;  // keep going: later elements may still delete
    } else if (directive->is_string() && d == kMergeDirective) {
      return fail_internal("merging lists cannot yet be specified in the patch");
    } else {
      return fail_internal(bad_patch_type(*directive, o));
    }
  }

  SliceMerge result;
  result.view.resize(n);
  {
    std::size_t p = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (alive[i]) result.view[p++] = &original[i];
    }
    for (; p < n; ++p)
      result.view[p] = stale[p];
  }

  Items current;
  Refs server_order;
  Refs patch_order;
  if (replace) {
    current = copy_items(plain);
    server_order = plain;
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      if (!alive[i]) continue;
      current.push_back(original[i]);
      server_order.push_back(&original[i]);
    }
    patch_order = plain;
    // mergeSliceWithoutSpecialElements: merge into the first element with the
    // same key (earlier appends included), or append.
    std::unordered_map<std::string, std::size_t> first;
    std::size_t cur_map_keys = 0;
    std::size_t cur_slice_keys = 0;
    const auto index_key = [&](const json::value& key, std::size_t at) {
      const GoType t = go_type(key);
      if (t == GoType::kMap) {
        ++cur_map_keys;
      } else if (t == GoType::kSlice) {
        ++cur_slice_keys;
      } else {
        first.emplace(scalar_key(key), at);
      }
    };
    for (std::size_t i = 0; i < current.size(); ++i) {
      if (const json::value* key = current[i].get_object().if_contains(merge_key)) {
        index_key(*key, i);
      }
    }
    std::size_t write = live;  // Go's len after the deletions
    for (const json::value* p : plain) {
      const json::object& po = p->get_object();
      const json::value* key = po.if_contains(merge_key);
      if (key == nullptr) return fail_internal(no_merge_key(po, merge_key));
      const GoType t = go_type(*key);
      std::optional<std::size_t> found;
      if (!comparable(t)) {
        if ((t == GoType::kMap ? cur_map_keys : cur_slice_keys) > 0) return go_panic();
      } else if (const auto it = first.find(scalar_key(*key)); it != first.end()) {
        found = it->second;
      }
      if (found) {
        Res<json::object> merged =
            merge_map(std::move(current[*found].get_object()), po, field.schema);
        if (!merged) return fail(std::move(merged).error());
        current[*found] = std::move(*merged);
      } else {
        current.push_back(*p);
        index_key(*key, current.size() - 1);
        if (write < n) result.view[write++] = p;
      }
    }
  }

  Items patch_items;
  Items server_only;
  if (Step s = partition_maps(std::move(current), patch_order, merge_key, patch_items, server_only);
      !s) {
    return fail(s.error());
  }
  Res<json::array> ordered = normalize_element_order(std::move(patch_items), std::move(server_only),
                                                     patch_order, server_order, merge_key, true);
  if (!ordered) return fail(std::move(ordered).error());
  result.merged = std::move(*ordered);
  return result;
}

// mergeSlice.
Res<SliceMerge> merge_slice(const json::array& original, const json::array& patch,
                            const PatchField& field, bool delete_list) {
  if (original.empty() && patch.empty()) return SliceMerge{};
  const Refs original_refs = refs_of(original);
  const Refs patch_refs = refs_of(patch);
  Res<GoType> kind = slice_element_type({&original_refs, &patch_refs});
  if (!kind) return fail(std::move(kind).error());
  if (*kind == GoType::kMap) {
    if (field.meta.merge_key.empty()) {
      return fail_internal("cannot merge lists without merge key for " + field.go_kind);
    }
    return merge_list_of_maps(original, patch, field);
  }
  SliceMerge result;
  result.view = original_refs;
  if (delete_list) {
    // deleteFromSlice: every element equal to one in the patch goes.
    std::unordered_set<std::string> doomed;
    for (const json::value& v : patch)
      doomed.insert(scalar_key(v));
    for (const json::value& v : original) {
      if (doomed.count(scalar_key(v)) == 0) result.merged.push_back(v);
    }
    return result;
  }
  // Union without duplicates; its order does not survive the sort below.
  Items merged;
  std::unordered_set<std::string> seen;
  for (const Refs* list : {&original_refs, &patch_refs}) {
    for (const json::value* v : *list) {
      if (seen.insert(scalar_key(*v)).second) merged.push_back(*v);
    }
  }
  Items patch_items;
  Items server_only;
  if (Step s = partition_primitives(std::move(merged), patch_refs, patch_items, server_only); !s) {
    return fail(s.error());
  }
  Res<json::array> ordered =
      normalize_element_order(std::move(patch_items), std::move(server_only), patch_refs,
                              original_refs, field.meta.merge_key, false);
  if (!ordered) return fail(std::move(ordered).error());
  result.merged = std::move(*ordered);
  return result;
}

// mergeSliceHandler: merge lists (and any list a `$deleteFromPrimitiveList`
// names) merge; every other list is replaced by the patch's as sent.
Res<SliceMerge> merge_slice_handler(const json::array& original, const json::array& patch,
                                    const PatchField& field, bool delete_list) {
  if (field.meta.strategy == PatchStrategy::kMerge || delete_list) {
    return merge_slice(original, patch, field, delete_list);
  }
  return SliceMerge{patch, refs_of(original)};
}

// extractKey: "<prefix>/<key>" => key.
std::optional<std::string_view> extract_key(std::string_view s, std::string_view prefix) {
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos || s.substr(0, slash) != prefix) return std::nullopt;
  return s.substr(slash + 1);
}

// mergeKeyValueEqual.
Res<bool> merge_key_value_equal(const json::value& left, const json::value& right,
                                std::string_view merge_key) {
  if (merge_key.empty()) {
    const Eq eq = go_equal(left, right);
    if (eq == Eq::kPanic) return go_panic();
    return eq == Eq::kYes;
  }
  const json::object* l = left.if_object();
  if (l == nullptr) return fail_internal(bad_arg_type(kGoMapType, left));
  const json::object* r = right.if_object();
  if (r == nullptr) return fail_internal(bad_arg_type(kGoMapType, right));
  const json::value* lk = l->if_contains(merge_key);
  if (lk == nullptr) return fail_internal(no_merge_key(*l, merge_key));
  const json::value* rk = r->if_contains(merge_key);
  if (rk == nullptr) return fail_internal(no_merge_key(*r, merge_key));
  const Eq eq = go_equal(*lk, *rk);
  if (eq == Eq::kPanic) return go_panic();
  return eq == Eq::kYes;
}

// validatePatchWithSetOrderList: the patch's items (deletions and other
// directive elements aside) must appear in the `$setElementOrder` list, in order.
Step validate_set_order(const json::array& patch_list, const json::array& order,
                        std::string_view merge_key) {
  if (order.empty() || patch_list.empty()) return {};
  Refs items;
  for (const json::value& v : patch_list) {
    if (!merge_key.empty()) {
      if (!v.is_object()) return fail_internal(bad_arg_type(kGoMapType, v));
      if (has_delete_directive(v)) continue;
    }
    items.push_back(&v);
  }
  std::size_t p = 0;
  std::size_t s = 0;
  while (p < items.size() && s < order.size()) {
    if (const json::object* o = items[p]->if_object();
        o != nullptr && o->contains(kDirectiveMarker)) {
      ++p;
      continue;
    }
    Res<bool> equal = merge_key_value_equal(*items[p], order[s], merge_key);
    if (!equal) return fail(std::move(equal).error());
    if (*equal) ++p;
    ++s;
  }
  if (p < items.size() && s >= order.size()) {
    return fail_internal(fmt::format("The order in patch list:\n{}\n doesn't match {} list:\n{}\n",
                                     go_v(json::value(patch_list)), kSetElementOrderPrefix,
                                     go_v(json::value(order))));
  }
  return {};
}

// The index of the patch member `key` not consumed yet, if any.
std::optional<std::size_t> live_member(const json::object& patch, const std::vector<char>& consumed,
                                       std::string_view key) {
  std::size_t i = 0;
  for (auto it = patch.begin(); it != patch.end(); ++it, ++i) {
    if (!consumed[i] && it->key() == key) return i;
  }
  return std::nullopt;
}

// Edits the members of the object being merged into while keeping their
// order: members that stay keep their place, new ones follow in the order
// they were added (also when a member is deleted and then set again).
class OrderedEdit {
 public:
  explicit OrderedEdit(json::object& o) : o_(o) {
    before_.reserve(o.size());
    for (const auto& m : o)
      before_.emplace_back(m.key());
  }

  const std::vector<std::string>& keys_before() const { return before_; }
  json::value* find(std::string_view key) { return o_.if_contains(key); }

  void erase(std::string_view key) {
    if (o_.erase(key) != 0) gone_.emplace(key);
  }

  void set(std::string_view key, json::value v) {
    if (o_.insert_or_assign(key, std::move(v)).second) added_.emplace_back(key);
  }

  json::object finish() && {
    if (gone_.empty() && added_.empty()) return std::move(o_);
    json::object out;
    out.reserve(o_.size());
    for (const std::string& k : before_) {
      if (gone_.count(k) != 0) continue;
      if (json::value* v = o_.if_contains(k)) out.emplace(k, std::move(*v));
    }
    // A key set, deleted and set again goes where it was set last.
    std::unordered_map<std::string_view, std::size_t> last;
    for (std::size_t i = 0; i < added_.size(); ++i)
      last[added_[i]] = i;
    for (std::size_t i = 0; i < added_.size(); ++i) {
      if (last[added_[i]] != i) continue;
      if (json::value* v = o_.if_contains(added_[i])) out.emplace(added_[i], std::move(*v));
    }
    return out;
  }

 private:
  json::object& o_;
  std::vector<std::string> before_;
  std::unordered_set<std::string> gone_;
  std::vector<std::string> added_;
};

// applyRetainKeysDirective.
Step apply_retain_keys(OrderedEdit& original, const json::object& patch,
                       std::vector<char>& consumed) {
  const std::optional<std::size_t> at = live_member(patch, consumed, kRetainKeysDirective);
  if (!at) return {};
  consumed[*at] = 1;
  const json::array* list = (patch.begin() + static_cast<std::ptrdiff_t>(*at))->value().if_array();
  if (list == nullptr) return fail_bad_request(std::string(kErrBadPatchFormatForRetainKeys));
  std::unordered_set<std::string> keep;
  for (const json::value& v : *list) {
    if (!comparable(go_type(v))) return go_panic();  // a Go map key must hash
    if (v.is_string()) keep.emplace(string_of(v.get_string()));
  }
  std::size_t i = 0;
  for (auto it = patch.begin(); it != patch.end(); ++it, ++i) {
    if (consumed[i] || it->value().is_null()) continue;
    const std::string_view key = it->key();
    if (starts_with(key, kDeleteFromPrimitiveListPrefix) ||
        starts_with(key, kSetElementOrderPrefix)) {
      continue;
    }
    if (keep.count(std::string(key)) == 0)
      return fail_bad_request(std::string(kErrBadPatchFormatForRetainKeys));
  }
  for (const std::string& key : original.keys_before()) {
    if (keep.count(key) == 0) original.erase(key);
  }
  return {};
}

// mergePatchIntoOriginal: each `$setElementOrder/<list>` with its list.
Step merge_ordered_lists(OrderedEdit& original, const json::object& patch,
                         std::vector<char>& consumed, const PatchSchema* schema) {
  std::size_t i = 0;
  for (auto it = patch.begin(); it != patch.end(); ++it, ++i) {
    if (consumed[i] || !starts_with(it->key(), kSetElementOrderPrefix)) continue;
    consumed[i] = 1;
    const json::array* order = it->value().if_array();
    if (order == nullptr) return fail_internal(bad_arg_type(kGoSliceType, it->value()));
    const std::optional<std::string_view> list_key = extract_key(it->key(), kSetElementOrderPrefix);
    if (!list_key) return fail_bad_request(std::string(kErrBadPatchFormatForSetElementOrderList));
    const std::string key(*list_key);

    const json::array* original_list = nullptr;
    if (const json::value* v = original.find(key)) {
      original_list = v->if_array();
      if (original_list == nullptr) return fail_internal(bad_arg_type(kGoSliceType, *v));
    }
    const json::array* patch_list = nullptr;
    const std::optional<std::size_t> patch_at = live_member(patch, consumed, key);
    if (patch_at) {
      const json::value& v = (patch.begin() + static_cast<std::ptrdiff_t>(*patch_at))->value();
      patch_list = v.if_array();
      if (patch_list == nullptr) return fail_internal(bad_arg_type(kGoSliceType, v));
    }
    const PatchField& field = field_of(schema, key);
    const std::string& merge_key = field.meta.merge_key;
    static const json::array kEmpty;
    if (Step s =
            validate_set_order(patch_list != nullptr ? *patch_list : kEmpty, *order, merge_key);
        !s) {
      return s;
    }
    if (original_list == nullptr && patch_list == nullptr) continue;

    Items merged;
    Refs view;
    if (patch_list == nullptr) {
      merged.assign(original_list->begin(), original_list->end());
      view = refs_of(*original_list);
    } else if (original_list == nullptr) {
      json::value added = *patch_list;
      remove_directives(added);
      merged.assign(added.get_array().begin(), added.get_array().end());
    } else {
      Res<SliceMerge> m = merge_slice_handler(*original_list, *patch_list, field, false);
      if (!m) return fail(std::move(m).error());
      merged.assign(m->merged.begin(), m->merged.end());
      view = std::move(m->view);
    }

    const Refs order_refs = refs_of(*order);
    Items patch_items;
    Items server_only;
    Step parted =
        merge_key.empty()
            ? partition_primitives(std::move(merged), order_refs, patch_items, server_only)
            : partition_maps(std::move(merged), order_refs, merge_key, patch_items, server_only);
    if (!parted) return parted;
    const Refs original_refs = original_list != nullptr ? refs_of(*original_list) : Refs{};
    const Refs patch_refs = patch_list != nullptr ? refs_of(*patch_list) : Refs{};
    Res<GoType> kind = slice_element_type({&original_refs, &patch_refs});
    if (!kind) return fail(std::move(kind).error());
    Res<json::array> both =
        normalize_element_order(std::move(patch_items), std::move(server_only), order_refs, view,
                                merge_key, *kind == GoType::kMap);
    if (!both) return fail(std::move(both).error());
    if (patch_at) consumed[*patch_at] = 1;
    original.set(key, std::move(*both));
  }
  return {};
}

// A value taken from the patch where the original has nothing to merge with.
void put_from_patch(OrderedEdit& original, std::string_view key, const json::value& v) {
  json::value copy = v;
  discard_nulls(copy);
  if (remove_directives(copy)) {
    original.set(key, std::move(copy));
  } else {
    original.erase(key);
  }
}

// handleDirectiveInMergeMap.
Res<json::object> map_directive(const json::value& directive, const json::object& patch) {
  if (directive.is_string() && string_of(directive.get_string()) == kReplaceDirective) {
    json::object out;
    out.reserve(patch.size());
    for (const auto& m : patch) {
      if (m.key() != kDirectiveMarker) out.emplace(m.key(), m.value());
    }
    return out;
  }
  if (directive.is_string() && string_of(directive.get_string()) == kDeleteDirective) {
    return json::object();
  }
  return fail_internal(bad_patch_type(directive, patch));
}

Res<json::object> merge_map(json::object original, const json::object& patch,
                            const PatchSchema* schema) {
  if (const json::value* directive = patch.if_contains(kDirectiveMarker)) {
    return map_directive(*directive, patch);
  }
  std::vector<char> consumed(patch.size(), 0);
  OrderedEdit edit(original);
  if (Step s = apply_retain_keys(edit, patch, consumed); !s) return fail(s.error());
  if (Step s = merge_ordered_lists(edit, patch, consumed, schema); !s) return fail(s.error());

  std::size_t i = 0;
  for (auto it = patch.begin(); it != patch.end(); ++it, ++i) {
    if (consumed[i]) continue;
    std::string_view key = it->key();
    const json::value& value = it->value();
    bool delete_list = false;
    if (starts_with(key, kDeleteFromPrimitiveListPrefix)) {
      const std::optional<std::string_view> list_key =
          extract_key(key, kDeleteFromPrimitiveListPrefix);
      if (!list_key) return fail_bad_request(std::string(kErrBadPatchFormatForPrimitiveList));
      delete_list = true;
      if (!list_key->empty()) key = *list_key;
    }
    if (value.is_null()) {
      edit.erase(key);
      continue;
    }
    json::value* current = edit.find(key);
    if (current == nullptr || go_type(*current) != go_type(value)) {
      if (!delete_list) put_from_patch(edit, key, value);
      continue;
    }
    const PatchField& field = field_of(schema, key);
    if (current->is_object()) {
      if (field.meta.strategy == PatchStrategy::kReplace) {
        *current = value;
      } else {
        Res<json::object> merged =
            merge_map(std::move(current->get_object()), value.get_object(), field.schema);
        if (!merged) return merged;
        *current = std::move(*merged);
      }
    } else if (current->is_array()) {
      Res<SliceMerge> merged =
          merge_slice_handler(current->get_array(), value.get_array(), field, delete_list);
      if (!merged) return fail(std::move(merged).error());
      json::array result = std::move(merged->merged);
      *current = std::move(result);
    } else {
      *current = value;
    }
  }
  return std::move(edit).finish();
}

// ---------------------------------------------------------------------------
// The two-way diff (diffMaps and friends).

struct DiffOptions {
  bool set_element_order = true;
  bool ignore_changes_and_additions = false;
  bool ignore_deletions = false;
  bool build_retain_keys_directive = false;
};

Res<json::object> diff_maps(const json::object& original, const json::object& modified,
                            const PatchSchema* schema, DiffOptions options);

struct ListDiff {
  json::array patch;      // additions and changes (and, for maps, deletions last)
  json::array deletions;  // `$deleteFromPrimitiveList`
  json::array order;      // `$setElementOrder`
};

// A list's elements sorted by the "%v" of their merge key (maps) or themselves.
std::vector<std::pair<std::string, const json::value*>> sorted_by_string(const json::array& list,
                                                                         std::string_view merge_key,
                                                                         bool maps) {
  std::vector<std::pair<std::string, const json::value*>> out;
  out.reserve(list.size());
  for (const json::value& v : list) {
    out.emplace_back(go_v(compared_value(v, merge_key, maps)), &v);
  }
  go_sort_by_string(out);
  return out;
}

// deduplicateScalars, whose order shows in the deletion list: for each i in
// turn, every later copy of s[i], scanning upward, is overwritten by the
// current last element (which is then looked at again). Same result, but
// with the copies of each value indexed instead of rescanned.
json::array deduplicate_scalars(json::array s) {
  std::unordered_map<std::string, std::set<std::size_t>> at;
  std::vector<const std::string*> key_of(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    key_of[i] = &at.try_emplace(scalar_key(s[i])).first->first;
    at[*key_of[i]].insert(i);
  }
  std::size_t length = s.size();
  for (std::size_t i = 0; i < length; ++i) {
    std::set<std::size_t>& copies = at[*key_of[i]];
    for (auto it = copies.upper_bound(i); it != copies.end(); it = copies.upper_bound(i)) {
      const std::size_t j = *it;
      const std::size_t last = length - 1;
      copies.erase(it);
      if (j != last) {
        std::set<std::size_t>& moved = at[*key_of[last]];
        moved.erase(last);
        moved.insert(j);
        s[j] = s[last];
        key_of[j] = key_of[last];
      }
      --length;
    }
  }
  s.resize(length);
  return s;
}

// diffListsOfScalars: walks both lists sorted by "%v".
void diff_lists_of_scalars(const json::array& original, const json::array& modified,
                           const DiffOptions& options, json::array& additions,
                           json::array& deletions, json::array& original_sorted) {
  const auto a = sorted_by_string(original, {}, false);
  const auto b = sorted_by_string(modified, {}, false);
  for (const auto& e : a)
    original_sorted.push_back(*e.second);
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size()) {
    const bool in_a = i < a.size();
    const bool in_b = j < b.size();
    if (in_a && in_b && a[i].first == b[j].first) {
      ++i;
      ++j;
    } else if (!in_a || (in_b && a[i].first > b[j].first)) {
      if (!options.ignore_changes_and_additions) additions.push_back(*b[j].second);
      ++j;
    } else {
      if (!options.ignore_deletions) deletions.push_back(*a[i].second);
      ++i;
    }
  }
  deletions = deduplicate_scalars(std::move(deletions));
}

// getMapAndMergeKeyValueByIndex.
Res<const json::value*> merge_key_of(const json::value& element, std::string_view merge_key) {
  const json::object* o = element.if_object();
  if (o == nullptr) return fail_internal(bad_arg_type(kGoMapType, element));
  const json::value* key = o->if_contains(merge_key);
  if (key == nullptr) return fail_internal(no_merge_key(*o, merge_key));
  return key;
}

// diffListsOfMaps: walks both lists sorted by the "%v" of their merge keys.
Step diff_lists_of_maps(const json::array& original, const json::array& modified,
                        const PatchSchema* schema, std::string_view merge_key,
                        const DiffOptions& options, Items& patch, json::array& deletions) {
  const auto a = sorted_by_string(original, merge_key, true);
  const auto b = sorted_by_string(modified, merge_key, true);
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size()) {
    const bool in_a = i < a.size();
    const bool in_b = j < b.size();
    const json::value* a_key = nullptr;
    const json::value* b_key = nullptr;
    if (in_a) {
      Res<const json::value*> k = merge_key_of(*a[i].second, merge_key);
      if (!k) return fail(std::move(k).error());
      a_key = *k;
    }
    if (in_b) {
      Res<const json::value*> k = merge_key_of(*b[j].second, merge_key);
      if (!k) return fail(std::move(k).error());
      b_key = *k;
    }
    if (in_a && in_b && a[i].first == b[j].first) {
      Res<json::object> d =
          diff_maps(a[i].second->get_object(), b[j].second->get_object(), schema, options);
      if (!d) return fail(std::move(d).error());
      if (!d->empty()) {
        (*d)[merge_key] = *b_key;
        patch.push_back(std::move(*d));
      }
      ++i;
      ++j;
    } else if (!in_a || (in_b && a[i].first > b[j].first)) {
      if (!options.ignore_changes_and_additions) patch.push_back(*b[j].second);
      ++j;
    } else {
      if (!options.ignore_deletions) {
        json::object directive;
        directive[merge_key] = *a_key;
        directive[kDirectiveMarker] = kDeleteDirective;
        deletions.push_back(std::move(directive));
      }
      ++i;
    }
  }
  return {};
}

// isOrderSame.
Res<bool> order_same(const json::array& original, const json::array& modified,
                     std::string_view merge_key) {
  if (original.size() != modified.size()) return false;
  for (std::size_t i = 0; i < modified.size(); ++i) {
    Res<bool> equal = merge_key_value_equal(original[i], modified[i], merge_key);
    if (!equal || !*equal) return equal;
  }
  return true;
}

// diffLists.
Res<ListDiff> diff_lists(const json::array& original, const json::array& modified,
                         const PatchSchema* schema, std::string_view merge_key,
                         const DiffOptions& options) {
  ListDiff out;
  if (original.empty()) {
    if (!modified.empty() && !options.ignore_changes_and_additions) out.patch = modified;
    return out;
  }
  const Refs original_refs = refs_of(original);
  const Refs modified_refs = refs_of(modified);
  Res<GoType> kind = slice_element_type({&original_refs, &modified_refs});
  if (!kind) return fail(std::move(kind).error());
  if (*kind == GoType::kMap) {
    Items patch;
    json::array deletions;
    if (Step s =
            diff_lists_of_maps(original, modified, schema, merge_key, options, patch, deletions);
        !s) {
      return fail(s.error());
    }
    Res<Items> sorted = normalize_slice_order(std::move(patch), modified_refs, merge_key, true);
    if (!sorted) return fail(std::move(sorted).error());
    Res<bool> same = order_same(original, modified, merge_key);
    if (!same) return fail(std::move(same).error());
    for (json::value& v : *sorted)
      out.patch.push_back(std::move(v));
    for (json::value& v : deletions)
      out.patch.push_back(std::move(v));
    if (options.set_element_order &&
        ((!options.ignore_changes_and_additions && (!out.patch.empty() || !*same)) ||
         (!options.ignore_deletions && !out.patch.empty()))) {
      for (const json::value& v : modified) {
        json::object entry;
        const json::value* key = v.get_object().if_contains(merge_key);
        entry[merge_key] = key != nullptr ? *key : json::value();
        out.order.push_back(std::move(entry));
      }
    }
    return out;
  }
  json::array additions;
  json::array original_sorted;
  diff_lists_of_scalars(original, modified, options, additions, out.deletions, original_sorted);
  Res<Items> sorted = normalize_slice_order(Items(additions.begin(), additions.end()),
                                            modified_refs, merge_key, false);
  // Upstream sorted `original` in place above, so this compares the sorted copy.
  if (options.set_element_order &&
      ((!options.ignore_deletions && !out.deletions.empty()) ||
       (!options.ignore_changes_and_additions &&
        !deep_equal(json::value(original_sorted), json::value(modified))))) {
    out.order = modified;
  }
  if (!sorted) return fail(std::move(sorted).error());
  for (json::value& v : *sorted)
    out.patch.push_back(std::move(v));
  return out;
}

Step diff_field(std::string_view key, const json::value& original, const json::value& modified,
                const PatchSchema* schema, const DiffOptions& options, json::object& patch) {
  const PatchField& field = field_of(schema, key);
  if (original.is_object()) {
    DiffOptions nested = options;
    nested.build_retain_keys_directive = field.meta.retain_keys;
    if (field.meta.strategy == PatchStrategy::kReplace) {
      if (!options.ignore_changes_and_additions) patch[key] = modified;
      return {};
    }
    Res<json::object> d =
        diff_maps(original.get_object(), modified.get_object(), field.schema, nested);
    if (!d) return fail(std::move(d).error());
    if (!d->empty()) patch[key] = std::move(*d);
    return {};
  }
  if (original.is_array() && field.meta.strategy == PatchStrategy::kMerge) {
    DiffOptions nested = options;
    nested.build_retain_keys_directive = field.meta.retain_keys;
    Res<ListDiff> d = diff_lists(original.get_array(), modified.get_array(), field.schema,
                                 field.meta.merge_key, nested);
    if (!d) return fail(std::move(d).error());
    if (!d->patch.empty()) patch[key] = std::move(d->patch);
    if (!d->deletions.empty()) {
      patch[fmt::format("{}/{}", kDeleteFromPrimitiveListPrefix, key)] = std::move(d->deletions);
    }
    if (!d->order.empty()) {
      patch[fmt::format("{}/{}", kSetElementOrderPrefix, key)] = std::move(d->order);
    }
    return {};
  }
  if (!options.ignore_changes_and_additions && !deep_equal(original, modified)) {
    patch[key] = modified;
  }
  return {};
}

Res<json::object> diff_maps(const json::object& original, const json::object& modified,
                            const PatchSchema* schema, DiffOptions options) {
  json::object patch;
  std::vector<std::string> retain;
  for (const auto& m : modified) {
    const std::string_view key = m.key();
    const json::value& value = m.value();
    if (options.build_retain_keys_directive && !value.is_null()) retain.emplace_back(key);
    const json::value* before = original.if_contains(key);
    if (before == nullptr) {
      if (!options.ignore_changes_and_additions) patch[key] = value;
      continue;
    }
    if (key == kDirectiveMarker) {
      if (!before->is_string() || !value.is_string()) {
        return fail_internal(fmt::format("invalid value for special key: {}", kDirectiveMarker));
      }
      if (before->get_string() != value.get_string()) patch[key] = value;
      continue;
    }
    if (go_type(*before) != go_type(value)) {
      if (!options.ignore_changes_and_additions) patch[key] = value;
      continue;
    }
    if (Step s = diff_field(key, *before, value, schema, options, patch); !s) {
      return fail(s.error());
    }
  }
  bool dropped_value = false;
  for (const auto& m : original) {
    if (modified.contains(m.key())) continue;
    if (!options.ignore_deletions) patch[m.key()] = nullptr;
    if (!m.value().is_null()) dropped_value = true;
  }
  if (!retain.empty() && (!patch.empty() || dropped_value)) {
    std::sort(retain.begin(), retain.end());
    json::array list;
    for (std::string& k : retain)
      list.emplace_back(std::move(k));
    patch[kRetainKeysDirective] = std::move(list);
  }
  return patch;
}

// Go's encoder writes map members sorted by key.
void sort_members(json::value& v) {
  if (json::object* o = v.if_object()) {
    std::vector<std::pair<std::string, json::value>> members;
    members.reserve(o->size());
    for (auto& m : *o)
      members.emplace_back(std::string(m.key()), std::move(m.value()));
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    json::object sorted;
    sorted.reserve(members.size());
    for (auto& m : members) {
      sort_members(m.second);
      sorted.emplace(m.first, std::move(m.second));
    }
    *o = std::move(sorted);
  } else if (json::array* a = v.if_array()) {
    for (json::value& e : *a)
      sort_members(e);
  }
}

std::string_view go_json_type(const json::value& v) {
  switch (go_type(v)) {
    case GoType::kBool:
      return "bool";
    case GoType::kInt:
    case GoType::kFloat:
      return "number";
    case GoType::kString:
      return "string";
    case GoType::kSlice:
      return "array";
    case GoType::kMap:
    case GoType::kNil:
      break;
  }
  return "object";
}

}  // namespace

Status to_status(const PatchError& error) {
  switch (error.kind) {
    case PatchErrorKind::kBadRequest:
      return bad_request(error.message);
    case PatchErrorKind::kUnprocessable:
      return unprocessable(error.message);
    case PatchErrorKind::kPanic: {
      Status s;
      s.code = 500;
      s.reason = std::string(reason::kInternalError);
      s.message = std::string(kPanicMessage);
      return s;
    }
    case PatchErrorKind::kInternal:
      break;
  }
  // Errors that are not API statuses become a 500 with no reason.
  Status s;
  s.code = 500;
  s.message = error.message;
  return s;
}

Result<json::value, PatchError> apply_strategic_merge_patch(const json::value& original,
                                                            const json::value& patch,
                                                            const PatchSchema& schema) {
  if (nested_deeper_than(original, kJsonMaxDepth) || nested_deeper_than(patch, kJsonMaxDepth)) {
    return fail_bad_request(std::string(kErrBadJsonDoc));
  }
  if (!original.is_object() && !original.is_null())
    return fail_bad_request(std::string(kErrBadJsonDoc));
  json::object target = original.is_object() ? original.get_object() : json::object();
  if (patch.is_null()) return json::value(std::move(target));  // decodes to a nil map
  if (!patch.is_object()) {
    return fail_bad_request(fmt::format("json: cannot unmarshal {} into Go value of type {}",
                                        go_json_type(patch), kGoMapType));
  }
  Res<json::object> merged = merge_map(std::move(target), patch.get_object(), &schema);
  if (!merged) return fail(std::move(merged).error());
  return json::value(std::move(*merged));
}

Result<json::value, PatchError> create_two_way_merge_patch(const json::value& original,
                                                           const json::value& modified,
                                                           const PatchSchema& schema) {
  if (nested_deeper_than(original, kJsonMaxDepth) || nested_deeper_than(modified, kJsonMaxDepth)) {
    return fail_bad_request(std::string(kErrBadJsonDoc));
  }
  static const json::object kEmpty;
  const json::object* a = original.is_null() ? &kEmpty : original.if_object();
  const json::object* b = modified.is_null() ? &kEmpty : modified.if_object();
  if (a == nullptr || b == nullptr) return fail_bad_request(std::string(kErrBadJsonDoc));
  Res<json::object> patch = diff_maps(*a, *b, &schema, DiffOptions{});
  if (!patch) return fail(std::move(patch).error());
  json::value out(std::move(*patch));
  sort_members(out);
  return out;
}

}  // namespace kcm::api
