// JSON for plain C++ structs described with Boost.Describe, with Kubernetes
// semantics, so a kind is declared as a struct and needs no code generator.
// (Boost.JSON's own described-struct conversion fails on missing or extra
// members, which every Kubernetes object has.)
//
//   struct EcsBindSpec {
//     std::string instance_id;               // "instanceId"
//     std::string private_ip;                // "privateIP" (renamed below)
//     std::optional<std::string> node_name;  // "nodeName", absent when nullopt
//     api::UnknownFields extra;              // members not modelled here
//     static constexpr api::JsonMember json_members[] = {
//         {.member = "private_ip", .json = "privateIP"},
//     };
//   };
//   BOOST_DESCRIBE_STRUCT(EcsBindSpec, (), (instance_id, private_ip, node_name, extra))
//
//   Result<EcsBindSpec> spec = api::decode_json<EcsBindSpec>(value, "spec");
//   json::value out = api::encode_json(*spec);
//
// Names: a member `snake_case` is the JSON member `snakeCase` (a trailing
// underscore is dropped: `namespace_` is "namespace"). Names that do not
// follow the rule (initialisms: privateIP, providerID, podCIDR) are listed in
// the struct's optional `static constexpr api::JsonMember json_members[]`; a
// misspelt member there fails to compile.
//
// Encoding (Go's omitempty, applied to the JSON a member would produce):
// a member is left out when it encodes to null, false, 0, "", [] or {} --
// so empty strings, vectors, maps, zero numbers, zero times and structs whose
// members are all empty are omitted. `std::optional<T>` is a Go pointer: left
// out when nullopt, written whenever set (even "" or 0). A member listed with
// `.keep_empty = true` is always written (a Go field without omitempty: "",
// 0, false, [], {}, or null for a zero time or a nullopt).
//
// Decoding: null decodes as the zero value (nullopt for optionals), as in Go.
// A type mismatch is an error naming the JSON path:
// "spec.replicas: expected integer, got string" (types that decode themselves
// keep their own text after the path: "spec.at: parsing time ..."). The first
// error stops decoding. Members the struct does not
// model go to its `api::UnknownFields` member (at most one; without one they
// are dropped). Kinds (structs with a `kind_info`, see kind_info.h) also check
// "kind" and "apiVersion" and write them first when encoding.
//
// Round trip: with an UnknownFields member, a struct that is decoded and then
// encoded unchanged gives back the same JSON: the unknown members, the input's
// member order, and members that were present but empty or null are kept.
// The exceptions: times other than metadata's are written in UTC with whole
// seconds, a double with an integral value is written as an integer, and
// empty-or-null is only remembered for the first 64 members of a struct.
// Members added later are written after those of the input.
//
// Member types: std::string, bool, integers (range-checked: "integer out of
// range for int32"), float/double, std::optional<T>, std::vector<T>,
// std::map<std::string, T>, nested described structs, json::value (kept as
// is), and any type with `static Result<X> from_json(const json::value&[,
// std::string_view path])` plus `json::value to_json() const` -- api::Time,
// MicroTime, ObjectMeta, IntOrString, Quantity.
#pragma once

#include <boost/describe.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/json.h"
#include "api/kind_info.h"
#include "api/object_meta.h"
#include "api/result.h"
#include "api/status.h"

namespace kcm::api {

namespace detail {
struct WireAccess;
}

// The members of a JSON object that a struct does not model, plus what is
// needed to re-encode an unchanged struct exactly (the input's member order
// and which modelled members were present but empty or null).
class UnknownFields {
 public:
  const json::object& fields() const { return fields_; }
  json::object& fields() { return fields_; }
  bool empty() const { return fields_.empty(); }

  // Compares the unknown members only, not the input's layout.
  friend bool operator==(const UnknownFields& a, const UnknownFields& b) {
    return a.fields_ == b.fields_;
  }

 private:
  friend struct detail::WireAccess;
  json::object fields_;
  std::vector<json::string> order_;  // member names in input order
  // The input order of members that code themselves as objects (metadata):
  // ObjectMeta writes Go's order, custom resources come back sorted.
  std::vector<std::pair<std::size_t, std::vector<json::string>>> nested_order_;
  std::uint64_t present_ = 0;  // modelled member i was in the input (bit i)
  std::uint64_t null_ = 0;     // ... as null
};

// How one member is named and encoded when the defaults do not fit.
struct JsonMember {
  std::string_view member;     // the C++ member name, as described
  std::string_view json = {};  // the JSON name; empty: lowerCamelCase of `member`
  bool keep_empty = false;     // always written (a Go field without omitempty)
};

// A struct annotated with BOOST_DESCRIBE_STRUCT.
template <class T>
concept Described = boost::describe::has_describe_members<T>::value;

// A typed kind: described, with `static constexpr KindInfo kind_info` and an
// `ObjectMeta metadata` member.
template <class T>
concept Kind = Described<T> && HasKindInfo<T> && requires(T& t) {
  { t.metadata } -> std::same_as<ObjectMeta&>;
};

// "instance_id" -> "instanceId", "namespace_" -> "namespace".
std::string lower_camel_case(std::string_view member);

// Decodes a JSON object into T. `path` prefixes error messages ("spec").
template <Described T>
Result<T> decode_json(const json::value& v, std::string_view path = "");
// Encodes T as a JSON object.
template <Described T>
json::value encode_json(const T& value);

// A whole object of kind T, for clients and listers: a failure is the
// InternalError Status `unable to decode EcsBind "name": spec.x: ...`.
template <Kind T>
Result<T, Status> decode_object(const json::value& v);
Status decode_failure(const KindInfo& info, const json::value& object, std::string_view error);

// --- implementation ---------------------------------------------------------

namespace detail {

using Check = Result<void>;

// A JSON path built on the stack and only formatted for error messages.
class MemberPath {
 public:
  explicit MemberPath(std::string_view root) : text_(root) {}
  MemberPath member(std::string_view name) const { return {this, Step::kMember, name, 0}; }
  MemberPath index(std::size_t i) const { return {this, Step::kIndex, {}, i}; }
  MemberPath key(std::string_view k) const { return {this, Step::kKey, k, 0}; }
  // "spec.items[0].name", "spec.labels[app]".
  std::string str() const;

 private:
  enum class Step { kRoot, kMember, kIndex, kKey };
  MemberPath(const MemberPath* parent, Step step, std::string_view text, std::size_t index)
      : parent_(parent), step_(step), text_(text), index_(index) {}
  const MemberPath* parent_ = nullptr;
  Step step_ = Step::kRoot;
  std::string_view text_;
  std::size_t index_ = 0;
};

std::string type_error(const MemberPath& path, std::string_view want, const json::value& got);
std::string range_error(const MemberPath& path, std::string_view type);
std::string prefixed(const MemberPath& path, std::string_view error);
std::string type_meta_error(const MemberPath& path, std::string_view want, std::string_view got);
json::value encode_double(double d);
// Moves the members of `out` into `order` first; members not in `order`
// follow in their current order, except kind/apiVersion which go first.
void reorder(json::object& out, const std::vector<json::string>& order, bool type_meta_first);

struct WireAccess {
  static json::object& fields(UnknownFields& u) { return u.fields_; }
  static const json::object& fields(const UnknownFields& u) { return u.fields_; }
  static std::vector<json::string>& order(UnknownFields& u) { return u.order_; }
  static const std::vector<json::string>& order(const UnknownFields& u) { return u.order_; }
  static void mark(UnknownFields& u, std::size_t i, bool null) {
    if (i >= 64) return;
    u.present_ |= std::uint64_t{1} << i;
    if (null) u.null_ |= std::uint64_t{1} << i;
  }
  static bool present(const UnknownFields& u, std::size_t i) {
    return i < 64 && ((u.present_ >> i) & 1u) != 0;
  }
  static bool was_null(const UnknownFields& u, std::size_t i) {
    return i < 64 && ((u.null_ >> i) & 1u) != 0;
  }
  static void set_nested_order(UnknownFields& u, std::size_t i, const json::object& o) {
    std::vector<json::string> keys;
    keys.reserve(o.size());
    for (const auto& kv : o)
      keys.emplace_back(kv.key());
    u.nested_order_.emplace_back(i, std::move(keys));
  }
  static const std::vector<json::string>* nested_order(const UnknownFields& u, std::size_t i) {
    for (const auto& [member, keys] : u.nested_order_) {
      if (member == i) return &keys;
    }
    return nullptr;
  }
};

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class T>
constexpr std::string_view int_type_name() {
  constexpr bool s = std::is_signed_v<T>;
  switch (sizeof(T)) {
    case 1:
      return s ? "int8" : "uint8";
    case 2:
      return s ? "int16" : "uint16";
    case 4:
      return s ? "int32" : "uint32";
    default:
      return s ? "int64" : "uint64";
  }
}

// One codec per member type; a member type without one fails to compile here.
template <class T>
struct Codec;

template <class T>
Check decode_value(const json::value& v, const MemberPath& path, T& out) {
  if constexpr (!IsOptional<T>::value) {
    if (v.is_null()) {
      out = T{};
      return {};
    }
  }
  return Codec<T>::decode(v, path, out);
}

template <class T>
json::value encode_value(const T& v) {
  return Codec<T>::encode(v);
}

template <>
struct Codec<std::string> {
  static Check decode(const json::value& v, const MemberPath& path, std::string& out) {
    const json::string* s = v.if_string();
    if (s == nullptr) return fail(type_error(path, "string", v));
    out.assign(s->data(), s->size());
    return {};
  }
  static json::value encode(const std::string& v) { return json::string(v); }
};

template <>
struct Codec<bool> {
  static Check decode(const json::value& v, const MemberPath& path, bool& out) {
    if (!v.is_bool()) return fail(type_error(path, "boolean", v));
    out = v.get_bool();
    return {};
  }
  static json::value encode(bool v) { return v; }
};

template <class T>
requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) struct Codec<T> {
  static_assert(!std::is_same_v<T, std::uint8_t> && !std::is_same_v<T, char>,
                "byte members are base64 strings on the wire: use std::string");
  static Check decode(const json::value& v, const MemberPath& path, T& out) {
    if (v.is_int64()) {
      if (!std::in_range<T>(v.get_int64())) return fail(range_error(path, int_type_name<T>()));
      out = static_cast<T>(v.get_int64());
      return {};
    }
    if (v.is_uint64()) {
      if (!std::in_range<T>(v.get_uint64())) return fail(range_error(path, int_type_name<T>()));
      out = static_cast<T>(v.get_uint64());
      return {};
    }
    return fail(type_error(path, "integer", v));
  }
  static json::value encode(T v) {
    if constexpr (std::is_signed_v<T>) {
      return static_cast<std::int64_t>(v);
    } else {
      return static_cast<std::uint64_t>(v);
    }
  }
};

template <class T>
requires std::is_floating_point_v<T>
struct Codec<T> {
  static Check decode(const json::value& v, const MemberPath& path, T& out) {
    if (v.is_double()) {
      out = static_cast<T>(v.get_double());
    } else if (v.is_int64()) {
      out = static_cast<T>(v.get_int64());
    } else if (v.is_uint64()) {
      out = static_cast<T>(v.get_uint64());
    } else {
      return fail(type_error(path, "number", v));
    }
    return {};
  }
  static json::value encode(T v) { return encode_double(static_cast<double>(v)); }
};

template <>
struct Codec<json::value> {
  static Check decode(const json::value& v, const MemberPath&, json::value& out) {
    out = v;
    return {};
  }
  static json::value encode(const json::value& v) { return v; }
};

template <class T>
struct Codec<std::optional<T>> {
  static Check decode(const json::value& v, const MemberPath& path, std::optional<T>& out) {
    if (v.is_null()) {
      out.reset();
      return {};
    }
    T value{};
    if (Check r = decode_value(v, path, value); !r) return r;
    out = std::move(value);
    return {};
  }
  static json::value encode(const std::optional<T>& v) {
    return v.has_value() ? encode_value(*v) : json::value(nullptr);
  }
};

template <class T, class A>
struct Codec<std::vector<T, A>> {
  static Check decode(const json::value& v, const MemberPath& path, std::vector<T, A>& out) {
    const json::array* a = v.if_array();
    if (a == nullptr) return fail(type_error(path, "array", v));
    out.clear();
    out.reserve(a->size());
    for (std::size_t i = 0; i < a->size(); ++i) {
      T item{};
      if (Check r = decode_value((*a)[i], path.index(i), item); !r) return r;
      out.push_back(std::move(item));
    }
    return {};
  }
  static json::value encode(const std::vector<T, A>& v) {
    json::array a;
    a.reserve(v.size());
    for (const T& item : v)
      a.push_back(encode_value(item));
    return a;
  }
};

template <class T, class C, class A>
struct Codec<std::map<std::string, T, C, A>> {
  using Map = std::map<std::string, T, C, A>;
  static Check decode(const json::value& v, const MemberPath& path, Map& out) {
    const json::object* o = v.if_object();
    if (o == nullptr) return fail(type_error(path, "object", v));
    out.clear();
    for (const auto& kv : *o) {
      const std::string_view k(kv.key().data(), kv.key().size());
      T item{};
      if (Check r = decode_value(kv.value(), path.key(k), item); !r) return r;
      out.insert_or_assign(std::string(k), std::move(item));
    }
    return {};
  }
  static json::value encode(const Map& m) {
    json::object o;
    o.reserve(m.size());
    for (const auto& [k, item] : m)
      o.emplace(k, encode_value(item));
    return o;
  }
};

// Types that code themselves: ObjectMeta (errors carry the path it is given).
template <class T>
concept SelfCodedWithPath =
    !Described<T> && requires(const json::value& v, std::string_view p, const T& t) {
  { T::from_json(v, p) } -> std::same_as<Result<T>>;
  { t.to_json() } -> std::convertible_to<json::value>;
};
// Time, MicroTime, IntOrString, Quantity (errors get the path prefixed).
template <class T>
concept SelfCoded =
    !Described<T> && !SelfCodedWithPath<T> && requires(const json::value& v, const T& t) {
  { T::from_json(v) } -> std::same_as<Result<T>>;
  { t.to_json() } -> std::convertible_to<json::value>;
};

template <SelfCodedWithPath T>
struct Codec<T> {
  static Check decode(const json::value& v, const MemberPath& path, T& out) {
    Result<T> r = T::from_json(v, path.str());
    if (!r) return fail(r.error());
    out = std::move(*r);
    return {};
  }
  static json::value encode(const T& v) { return v.to_json(); }
};

template <SelfCoded T>
struct Codec<T> {
  static Check decode(const json::value& v, const MemberPath& path, T& out) {
    Result<T> r = T::from_json(v);
    if (!r) return fail(prefixed(path, r.error()));
    out = std::move(*r);
    return {};
  }
  static json::value encode(const T& v) { return v.to_json(); }
};

template <class T>
using DescribedMembers = boost::describe::describe_members<T, boost::describe::mod_public |
                                                                  boost::describe::mod_inherited>;
template <class T, class D>
using MemberTypeOf = std::remove_cvref_t<decltype(std::declval<T&>().*D::pointer)>;

template <class T>
constexpr std::size_t unknown_fields_count() {
  std::size_t n = 0;
  boost::mp11::mp_for_each<DescribedMembers<T>>([&](auto d) {
    if (std::is_same_v<MemberTypeOf<T, decltype(d)>, UnknownFields>) ++n;
  });
  return n;
}

// The index of T's UnknownFields member, or the member count when it has none.
template <class T>
constexpr std::size_t unknown_fields_index() {
  std::size_t found = boost::mp11::mp_size<DescribedMembers<T>>::value;
  std::size_t i = 0;
  boost::mp11::mp_for_each<DescribedMembers<T>>([&](auto d) {
    if (std::is_same_v<MemberTypeOf<T, decltype(d)>, UnknownFields>) found = i;
    ++i;
  });
  return found;
}

// Every entry of T::json_members names a described member.
template <class T>
consteval bool json_members_valid() {
  if constexpr (requires { T::json_members; }) {
    for (const JsonMember& m : T::json_members) {
      bool found = false;
      boost::mp11::mp_for_each<DescribedMembers<T>>([&](auto d) {
        if (std::string_view(decltype(d)::name) == m.member) found = true;
      });
      if (!found) return false;
    }
  }
  return true;
}

template <Described T>
struct StructCodec {
  using Members = DescribedMembers<T>;
  static constexpr std::size_t kCount = boost::mp11::mp_size<Members>::value;
  static constexpr std::size_t kExtra = unknown_fields_index<T>();
  static_assert(unknown_fields_count<T>() <= 1,
                "a struct has at most one api::UnknownFields member");
  static_assert(json_members_valid<T>(),
                "json_members names a member that BOOST_DESCRIBE_STRUCT does not list");

  template <class D>
  using MemberType = MemberTypeOf<T, D>;

  struct Table {
    std::string names[kCount == 0 ? 1 : kCount];
    bool keep_empty[kCount == 0 ? 1 : kCount] = {};
  };

  static const Table& table() {
    static const Table t = [] {
      Table made;
      std::size_t i = 0;
      boost::mp11::mp_for_each<Members>([&](auto d) {
        const std::string_view name = decltype(d)::name;
        if (i != kExtra) made.names[i] = lower_camel_case(name);
        if constexpr (requires { T::json_members; }) {
          for (const JsonMember& m : T::json_members) {
            if (m.member != name) continue;
            if (!m.json.empty()) made.names[i] = std::string(m.json);
            made.keep_empty[i] = m.keep_empty;
          }
        }
        ++i;
      });
      return made;
    }();
    return t;
  }

  static UnknownFields* extra_of(T& value) {
    if constexpr (kExtra < kCount) {
      return &(value.*boost::mp11::mp_at_c<Members, kExtra>::pointer);
    } else {
      return nullptr;
    }
  }
  static const UnknownFields* extra_of(const T& value) { return extra_of(const_cast<T&>(value)); }

  static std::size_t find(const Table& t, std::string_view key) {
    for (std::size_t i = 0; i < kCount; ++i) {
      if (i != kExtra && t.names[i] == key) return i;
    }
    return kCount;
  }

  static Check decode_member(std::size_t i, const json::value& v, const MemberPath& path, T& out,
                             UnknownFields* extra) {
    if constexpr (kCount == 0) {
      return {};
    } else {
      return boost::mp11::mp_with_index<kCount>(i, [&](auto index) -> Check {
        constexpr std::size_t n = decltype(index)::value;
        if constexpr (n == kExtra) {
          return {};
        } else {
          using D = boost::mp11::mp_at_c<Members, n>;
          if (Check r = decode_value(v, path, out.*D::pointer); !r) return r;
          using M = MemberType<D>;
          if constexpr (SelfCoded<M> || SelfCodedWithPath<M>) {
            if (extra != nullptr && v.is_object()) {
              WireAccess::set_nested_order(*extra, n, v.get_object());
            }
          }
          return {};
        }
      });
    }
  }

  static Check check_type_meta(std::string_view key, const json::value& v, const MemberPath& path) {
    if constexpr (HasKindInfo<T>) {
      if (v.is_null()) return {};
      const json::string* s = v.if_string();
      if (s == nullptr) return fail(type_error(path.member(key), "string", v));
      const std::string want =
          key == "kind" ? std::string(T::kind_info.kind) : T::kind_info.api_version();
      const std::string_view got(s->data(), s->size());
      if (!got.empty() && got != want) return fail(type_meta_error(path.member(key), want, got));
    }
    return {};
  }

  static Check decode(const json::value& v, const MemberPath& path, T& out) {
    const json::object* o = v.if_object();
    if (o == nullptr) return fail(type_error(path, "object", v));
    const Table& t = table();
    UnknownFields* extra = extra_of(out);
    if (extra != nullptr) WireAccess::order(*extra).reserve(o->size());
    for (const auto& kv : *o) {
      const std::string_view k(kv.key().data(), kv.key().size());
      const std::size_t i = find(t, k);
      if (i < kCount) {
        if (Check r = decode_member(i, kv.value(), path.member(k), out, extra); !r) return r;
        if (extra != nullptr) WireAccess::mark(*extra, i, kv.value().is_null());
      } else if (HasKindInfo<T> && (k == "kind" || k == "apiVersion")) {
        if (Check r = check_type_meta(k, kv.value(), path); !r) return r;
      } else if (extra != nullptr) {
        WireAccess::fields(*extra).insert_or_assign(kv.key(), kv.value());
      }
      if (extra != nullptr) WireAccess::order(*extra).push_back(kv.key());
    }
    return {};
  }

  static json::value encode(const T& value) {
    json::object out;
    if constexpr (HasKindInfo<T>) {
      out.emplace("kind", json::string(T::kind_info.kind));
      out.emplace("apiVersion", json::string(T::kind_info.api_version()));
    }
    const Table& t = table();
    const UnknownFields* extra = extra_of(value);
    std::size_t i = 0;
    boost::mp11::mp_for_each<Members>([&](auto d) {
      using D = decltype(d);
      const std::size_t n = i++;
      if constexpr (!std::is_same_v<MemberType<D>, UnknownFields>) {
        const auto& member = value.*D::pointer;
        const bool present = extra != nullptr && WireAccess::present(*extra, n);
        const bool was_null = extra != nullptr && WireAccess::was_null(*extra, n);
        json::value v = encode_value(member);
        if (extra != nullptr && v.is_object()) {
          if (const auto* keys = WireAccess::nested_order(*extra, n)) {
            reorder(v.get_object(), *keys, false);
          }
        }
        bool empty = false;
        if constexpr (IsOptional<MemberType<D>>::value) {
          empty = !member.has_value();
        } else {
          empty = is_empty_value(v);
        }
        if (!empty) {
          out.insert_or_assign(t.names[n], std::move(v));
        } else if (present) {
          out.insert_or_assign(t.names[n], was_null ? json::value(nullptr) : std::move(v));
        } else if (t.keep_empty[n]) {
          out.insert_or_assign(t.names[n], std::move(v));
        }
      }
    });
    if (extra != nullptr) {
      for (const auto& kv : WireAccess::fields(*extra)) {
        if (!out.contains(kv.key())) out.emplace(kv.key(), kv.value());
      }
      const auto& order = WireAccess::order(*extra);
      if (!order.empty()) reorder(out, order, HasKindInfo<T>);
    }
    return out;
  }
};

template <Described T>
struct Codec<T> {
  static Check decode(const json::value& v, const MemberPath& path, T& out) {
    return StructCodec<T>::decode(v, path, out);
  }
  static json::value encode(const T& v) { return StructCodec<T>::encode(v); }
};

}  // namespace detail

template <Described T>
Result<T> decode_json(const json::value& v, std::string_view path) {
  T out{};
  const detail::MemberPath root(path);
  if (detail::Check r = detail::StructCodec<T>::decode(v, root, out); !r) return fail(r.error());
  return out;
}

template <Described T>
json::value encode_json(const T& value) {
  return detail::StructCodec<T>::encode(value);
}

template <Kind T>
Result<T, Status> decode_object(const json::value& v) {
  Result<T> r = decode_json<T>(v);
  if (!r) return fail(decode_failure(T::kind_info, v, r.error()));
  return std::move(*r);
}

}  // namespace kcm::api
