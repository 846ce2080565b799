// The type of a value as server-side apply sees it (structured-merge-diff's
// schema.TypeRef): structs with named fields, maps, lists with their list type
// and keys, and scalars. Built-in kinds read it from kcm's API type
// definitions, custom resources from their CRD's structural schema
// (x-kubernetes-list-type, -list-map-keys, -map-type, as upstream converts
// it). Values without a definition (RawExtension, fields kept by
// x-kubernetes-preserve-unknown-fields) are "untyped": their shape is deduced
// from the value, maps granular and lists atomic, as structured-merge-diff
// deduces them.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"
#include "api/schema/type.h"
#include "local/fieldmanager/path_element.h"

namespace kcm::local::crd {
struct Schema;
}  // namespace kcm::local::crd

namespace kcm::local::fieldmanager {

class TypeRef {
 public:
  enum class Shape { kScalar, kStruct, kMap, kList };
  enum class ListKind { kAtomic, kSet, kAssociative };

  // A kind's root type (a struct of the definitions).
  static TypeRef of(const api::schema::Type& root);
  // A custom resource's root type: its CRD version's structural schema, with
  // apiVersion, kind and metadata (ObjectMeta) declared, as upstream adds
  // them. The schema must outlive the TypeRef.
  static TypeRef of(const crd::Schema& root);
  // A value whose shape is deduced from the value itself.
  static TypeRef untyped() { return TypeRef(); }

  // The shape of `v` under this type (untyped: from the value).
  Shape shape(const json::value& v) const;
  // A struct or map kept whole (+structType=atomic, +mapType=atomic); lists: see list_kind.
  bool atomic_map() const;
  ListKind list_kind() const;

  // A struct's field `name`; sets `declared` to whether the struct has it
  // (an undeclared one is untyped). A map's or a list's element type.
  TypeRef field(std::string_view name, bool* declared = nullptr) const;
  TypeRef elem() const;

  // The path element of a set or associative list's item, with
  // structured-merge-diff's errors for items that have none.
  Result<PathElement> item_path_element(const json::value& item) const;

 private:
  TypeRef() = default;
  TypeRef(const api::schema::TypeExpr* expr, const api::schema::Field* field)
      : expr_(expr), field_(field) {}
  TypeRef(const crd::Schema* schema, bool resource) : crd_(schema), crd_resource_(resource) {}
  // The custom resource type's field `name` (see field()).
  TypeRef crd_field(std::string_view name, bool* declared) const;
  // The struct this type names (the root, or a field's struct), if any.
  const api::schema::Type* struct_type() const;
  const api::schema::TypeExpr* expr_ = nullptr;  // nullptr: untyped
  const api::schema::Field* field_ = nullptr;    // the field holding the value, if any
  const api::schema::Type* root_ = nullptr;      // of(): the kind's struct
  const crd::Schema* crd_ = nullptr;             // a custom resource's schema node
  bool crd_resource_ = false;  // crd_ is an object with apiVersion, kind and metadata
};

}  // namespace kcm::local::fieldmanager
