// The per-field metadata a strategic merge patch needs, behind an abstract
// lookup so that it can come from any schema (typed kinds, OpenAPI, tests).
// Upstream reads it from Go struct tags: `patchStrategy:"merge,retainKeys"`
// and `patchMergeKey:"name"` (see strategic_merge_patch.h).
#pragma once

#include <string>
#include <string_view>

namespace kcm::api {

enum class PatchStrategy {
  kDefault,  // no tag: lists are replaced whole, objects merged member by member
  kMerge,    // lists merge: objects by `merge_key`, primitives as a set (finalizers)
  kReplace,  // the value is replaced whole, objects too (upstream's patchStrategy:"replace")
};

struct PatchMeta {
  PatchStrategy strategy = PatchStrategy::kDefault;
  // The member that identifies an element of a kMerge list of objects ("name",
  // "containerPort", "mountPath", "uid", "type"...); empty for primitive lists.
  std::string merge_key;
  // patchStrategy includes "retainKeys" (volumes, a deployment's strategy): the
  // two-way diff then sends a `$retainKeys` list for the value (or each element).
  bool retain_keys = false;
};

class PatchSchema;

// What the schema knows about one field (or map value).
struct PatchField {
  PatchMeta meta;
  // The schema of the field's value when it is an object, of its elements
  // when it is a list of objects, of the values when it is a map of objects;
  // nullptr when untyped (then every nested field is unknown too).
  const PatchSchema* schema = nullptr;
  // The Go kind of the value (of the elements for lists): "struct", "string",
  // "map"... Upstream names it in one message only ("cannot merge lists
  // without merge key for <kind>").
  std::string go_kind = "struct";
};

// One node per object type: a struct (fields by JSON name) or a map (every key
// answers the value type's field).
class PatchSchema {
 public:
  virtual ~PatchSchema() = default;

  // The field `name` of this type, or nullptr when unknown: an unknown field is
  // treated as upstream treats fields without tags (lists replaced whole,
  // objects merged recursively, JSON-merge style). The pointer stays valid for
  // the schema's lifetime.
  virtual const PatchField* lookup(std::string_view name) const = 0;
};

}  // namespace kcm::api
