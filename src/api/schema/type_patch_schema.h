// The strategic-merge-patch view of the schema: kcm::api::PatchSchema nodes
// (src/api/patch/patch_schema.h) answering each field's patch strategy, merge
// key and nested schema from the type definitions.
#pragma once

#include <deque>
#include <map>
#include <memory>

#include "api/patch/patch_schema.h"
#include "api/schema/registry.h"

namespace kcm::api::schema {

// One PatchSchema node per struct type of a registry (and per map-of-structs
// value), built eagerly and immutable afterwards, so lookups are thread-safe.
class PatchSchemas {
 public:
  explicit PatchSchemas(const Registry& registry);
  ~PatchSchemas();
  // The schemas of Registry::builtin(), built once.
  static const PatchSchemas& builtin();

  // The node of a struct type of the registry; nullptr for a foreign type.
  const kcm::api::PatchSchema* of(const Type& type) const;
  // The node of a served kind, e.g. {"apps","v1","Deployment"}; nullptr when unknown.
  const kcm::api::PatchSchema* of(const GroupVersionKind& gvk) const;

  PatchSchemas(const PatchSchemas&) = delete;
  PatchSchemas& operator=(const PatchSchemas&) = delete;

 private:
  class Node;
  const Registry& registry_;
  std::deque<std::unique_ptr<Node>> nodes_;
  std::map<const Type*, Node*> by_type_;
};

// What strategic merge patch uses for a field of this registry's types.
kcm::api::PatchMeta patch_meta(const Field& field);

}  // namespace kcm::api::schema
