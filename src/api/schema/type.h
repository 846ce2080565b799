// The shape of a built-in API type, as the Go structs of k8s.io/api define it:
// JSON field names, JSON/Go types, protobuf field numbers and the patch and
// list metadata of every field. Types are immutable once a Registry is built;
// pointers between them stay valid for the registry's lifetime.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/group_version.h"

namespace kcm::api::schema {

enum class Kind : std::uint8_t {
  kString,
  kInt32,
  kInt64,
  kBool,
  kDouble,
  kBytes,        // []byte: base64 text in JSON
  kIntOrString,  // intstr.IntOrString
  kQuantity,     // resource.Quantity
  kTime,         // metav1.Time (RFC 3339, seconds)
  kMicroTime,    // metav1.MicroTime (RFC 3339, microseconds)
  kDuration,     // metav1.Duration ("1h2m")
  kRaw,          // runtime.RawExtension: any JSON, not checked
  kFieldsV1,     // metav1.FieldsV1: any JSON, not checked
  kObject,       // a struct type
  kList,         // []T
  kMap,          // map[string]T
};

// How a strategic merge patch treats a field (Go's patchStrategy tag).
enum class PatchStrategy : std::uint8_t { kNone, kMerge, kRetainKeys, kMergeRetainKeys, kReplace };
// +listType
enum class ListType : std::uint8_t { kNone, kAtomic, kSet, kMap };
// +mapType / +structType
enum class MapType : std::uint8_t { kNone, kAtomic, kGranular };

struct Type;

// A type expression: a scalar, a well-known type, a struct, a list or a map.
struct TypeExpr {
  Kind kind = Kind::kString;
  const Type* object = nullptr;    // kObject
  const TypeExpr* elem = nullptr;  // kList / kMap element
  // What Go's reflect prints for this type: "int32", "v1.Protocol",
  // "[]v1.Container", "map[string]string", "v1.ResourceList".
  std::string go_name;
  // Name of a declared alias ("Protocol"), empty for anonymous expressions.
  std::string alias;
  std::string alias_description;
  std::vector<std::string> enum_values;  // +enum values of a string alias
};

struct Field {
  std::string name;  // JSON name; for an inline field, the protobuf name
  const TypeExpr* type = nullptr;
  int proto_number = 0;  // 0: not in protobuf (apiVersion, kind)
  bool required = false;
  bool inline_ = false;  // embedded struct whose fields appear in the parent JSON
  // Go's field presence, which decides how a decoded object prints: a pointer
  // prints when set (even to zero) and is nil when absent or null; omitempty
  // leaves out zero scalars, empty strings and empty or nil lists and maps
  // (never a struct value, never a set pointer). Without omitempty a zero
  // value still prints ("", 0, false, null for nil lists, maps and pointers).
  bool pointer = false;
  bool omitempty = false;
  PatchStrategy patch_strategy = PatchStrategy::kNone;
  std::string patch_merge_key;
  ListType list_type = ListType::kNone;
  std::vector<std::string> list_map_keys;
  MapType map_type = MapType::kNone;
  std::string description;
};

struct Type {
  std::string name;          // Go struct name: "DeploymentSpec"
  std::string package;       // "apps/v1", "core/v1", "meta/v1"
  std::string openapi_name;  // "io.k8s.api.apps.v1.DeploymentSpec"
  std::string description;
  MapType struct_type = MapType::kNone;  // +structType
  std::vector<GroupVersionKind> gvks;    // set on kinds served by the API
  std::vector<Field> fields;             // declaration order

  // The field with this JSON name, looking through inline members; nullptr
  // when the type has none.
  const Field* field(std::string_view json_name) const;
  // Every JSON-visible field, inline members expanded, in declaration order.
  std::vector<const Field*> json_fields() const;
};

std::string_view to_string(Kind k);
std::string_view to_string(
    PatchStrategy s);                    // "", "merge", "retainKeys", "merge,retainKeys", "replace"
std::string_view to_string(ListType t);  // "", "atomic", "set", "map"

}  // namespace kcm::api::schema
