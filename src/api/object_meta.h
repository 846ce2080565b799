// Typed TypeMeta, ObjectMeta, OwnerReference and ListMeta (apimachinery's
// meta/v1) that round-trip losslessly: decoding keeps every member they do
// not model (managedFields, fields of future versions) and whether each
// modelled member was absent, null or a value, so an unchanged struct
// re-encodes to exactly the JSON it was read from. Modelled members are
// written in upstream's Go struct order, unknown ones after them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/group_version.h"
#include "api/json.h"
#include "api/result.h"
#include "api/time.h"

namespace kcm::api {

namespace detail {
// How each modelled member appeared in decoded input (one bit per member).
struct MemberForms {
  std::uint32_t present = 0;  // the member was there (value or null)
  std::uint32_t null = 0;     // ... and was null
};
// A timestamp's text as read, reused while the decoded instant is unchanged
// (RFC 3339 allows offsets and fractions that re-encoding would normalise).
struct RawTime {
  Time time;
  json::string text;  // empty: nothing retained
};
}  // namespace detail

// Labels and annotations; ordered like Go's encoding of a map.
using StringMap = std::map<std::string, std::string, std::less<>>;

struct TypeMeta {
  std::string api_version;
  std::string kind;

  GroupVersion group_version() const { return GroupVersion::parse(api_version); }

  // `v` is a whole object: every member other than kind/apiVersion is kept.
  static Result<TypeMeta> from_json(const json::value& v);
  json::value to_json() const;
  const json::object& unknown_fields() const { return unknown_; }

 private:
  friend struct MetaCodec;
  detail::MemberForms forms_;
  json::object unknown_;
};

struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  std::optional<bool> controller;
  std::optional<bool> block_owner_deletion;

  static Result<OwnerReference> from_json(const json::value& v,
                                          std::string_view path = "ownerReference");
  json::value to_json() const;
  const json::object& unknown_fields() const { return unknown_; }

  // Compares the modelled members only.
  friend bool operator==(const OwnerReference& a, const OwnerReference& b) {
    return a.api_version == b.api_version && a.kind == b.kind && a.name == b.name &&
           a.uid == b.uid && a.controller == b.controller &&
           a.block_owner_deletion == b.block_owner_deletion;
  }

 private:
  friend struct MetaCodec;
  detail::MemberForms forms_;
  json::object unknown_;
};

struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string namespace_;  // trailing underscore: `namespace` is a keyword
  std::string uid;
  std::string resource_version;
  std::int64_t generation = 0;
  Time creation_timestamp;
  std::optional<Time> deletion_timestamp;
  std::optional<std::int64_t> deletion_grace_period_seconds;
  StringMap labels;
  StringMap annotations;
  std::vector<OwnerReference> owner_references;
  std::vector<std::string> finalizers;

  // Errors name the member: "metadata.labels: expected object, got string".
  static Result<ObjectMeta> from_json(const json::value& v, std::string_view path = "metadata");
  json::value to_json() const;
  // Members not modelled here (managedFields, selfLink, future fields).
  const json::object& unknown_fields() const { return unknown_; }
  json::object& unknown_fields() { return unknown_; }

 private:
  friend struct MetaCodec;
  detail::MemberForms forms_;
  detail::RawTime creation_raw_;
  detail::RawTime deletion_raw_;
  json::object unknown_;
};

struct ListMeta {
  std::string resource_version;
  std::string continue_;  // trailing underscore: `continue` is a keyword
  std::optional<std::int64_t> remaining_item_count;

  static Result<ListMeta> from_json(const json::value& v, std::string_view path = "metadata");
  json::value to_json() const;
  const json::object& unknown_fields() const { return unknown_; }

 private:
  friend struct MetaCodec;
  detail::MemberForms forms_;
  json::object unknown_;
};

// The owner reference with controller=true, or nullptr (GetControllerOfNoCopy).
const OwnerReference* get_controller_of(const ObjectMeta& meta);
// Whether `obj` has a controller reference to the object with `owner_uid`.
bool is_controlled_by(const ObjectMeta& obj, std::string_view owner_uid);
inline bool is_controlled_by(const ObjectMeta& obj, const ObjectMeta& owner) {
  return is_controlled_by(obj, owner.uid);
}

}  // namespace kcm::api
