#include "local/fieldmanager/type_ref.h"

#include <fmt/format.h>

#include <span>

#include "api/schema/registry.h"
#include "local/crd/structural_schema.h"

namespace kcm::local::fieldmanager {

namespace schema = api::schema;

namespace {

// The defaults of built-in associative-list key fields.
const json::value* key_default(const schema::TypeExpr* item, std::string_view key) {
  static const json::value tcp = "TCP";
  // The list-map keys with a default in upstream's OpenAPI: the protocol of
  // container and service ports.
  if (item != nullptr && item->object != nullptr &&
      (item->object->name == "ContainerPort" || item->object->name == "ServicePort") &&
      key == "protocol") {
    return &tcp;
  }
  return nullptr;
}

// ObjectMeta as the built-in kinds declare it: custom resources have it too.
const TypeRef& object_meta() {
  static const TypeRef meta = [] {
    const schema::Type* root = schema::Registry::builtin().root({"", "v1", "ConfigMap"});
    return root != nullptr ? TypeRef::of(*root).field("metadata") : TypeRef::untyped();
  }();
  return meta;
}

// A CRD object schema whose undeclared members are allowed (a map, or a
// struct that keeps unknown fields), rather than "not declared in schema".
bool open_object(const crd::Schema& s) {
  return s.preserve_unknown_fields || s.additional_properties != nullptr ||
         s.additional_properties_allows.value_or(false);
}

TypeRef::Shape deduced_shape(const json::value& v) {
  if (v.is_object()) return TypeRef::Shape::kMap;
  if (v.is_array()) return TypeRef::Shape::kList;
  return TypeRef::Shape::kScalar;
}

}  // namespace

TypeRef TypeRef::of(const schema::Type& root) {
  TypeRef t;
  t.root_ = &root;
  return t;
}

TypeRef TypeRef::of(const crd::Schema& root) {
  return TypeRef(&root, /*resource=*/true);
}

TypeRef::Shape TypeRef::shape(const json::value& v) const {
  if (root_ != nullptr) return Shape::kStruct;
  if (crd_ != nullptr) {
    if (crd_->type == "object" || crd_resource_) {
      return open_object(*crd_) ? Shape::kMap : Shape::kStruct;
    }
    if (crd_->type == "array") return Shape::kList;
    if (!crd_->type.empty() || crd_->int_or_string) return Shape::kScalar;
    return deduced_shape(v);  // x-kubernetes-preserve-unknown-fields without a type
  }
  if (expr_ == nullptr) return deduced_shape(v);
  switch (expr_->kind) {
    case schema::Kind::kObject:
      return Shape::kStruct;
    case schema::Kind::kMap:
      return Shape::kMap;
    case schema::Kind::kList:
      return Shape::kList;
    case schema::Kind::kRaw:
      return v.is_object() ? Shape::kMap : v.is_array() ? Shape::kList : Shape::kScalar;
    default:
      return Shape::kScalar;
  }
}

const schema::Type* TypeRef::struct_type() const {
  return root_ != nullptr ? root_ : (expr_ != nullptr ? expr_->object : nullptr);
}

bool TypeRef::atomic_map() const {
  if (crd_ != nullptr) return crd_->map_type == "atomic";
  if (field_ != nullptr && field_->map_type == schema::MapType::kAtomic) return true;
  const schema::Type* s = struct_type();
  return s != nullptr && s->struct_type == schema::MapType::kAtomic;
}

TypeRef::ListKind TypeRef::list_kind() const {
  if (crd_ != nullptr) {
    // Without x-kubernetes-list-type, a CRD's lists are atomic.
    if (crd_->list_type == "set") return ListKind::kSet;
    if (crd_->list_type == "map") return ListKind::kAssociative;
    return ListKind::kAtomic;
  }
  if (field_ == nullptr) return ListKind::kAtomic;
  switch (field_->list_type) {
    case schema::ListType::kMap:
      return ListKind::kAssociative;
    case schema::ListType::kSet:
      return ListKind::kSet;
    case schema::ListType::kAtomic:
      return ListKind::kAtomic;
    case schema::ListType::kNone:
      break;
  }
  // Without +listType, the patch strategy decides, as structured-merge-diff's
  // OpenAPI conversion reads x-kubernetes-patch-strategy.
  if (field_->patch_strategy == schema::PatchStrategy::kMerge ||
      field_->patch_strategy == schema::PatchStrategy::kMergeRetainKeys) {
    return field_->patch_merge_key.empty() ? ListKind::kSet : ListKind::kAssociative;
  }
  return ListKind::kAtomic;
}

TypeRef TypeRef::crd_field(std::string_view name, bool* declared) const {
  auto found = [declared](TypeRef t) {
    if (declared != nullptr) *declared = true;
    return t;
  };
  // Every resource, embedded ones too, has apiVersion, kind and ObjectMeta.
  if (crd_resource_ && name == "metadata") return found(object_meta());
  if (const crd::Schema* p = crd_->property(name)) return found(TypeRef(p, p->embedded_resource));
  if (crd_resource_ && (name == "apiVersion" || name == "kind")) return found(untyped());
  if (declared != nullptr) *declared = false;
  return elem();
}

TypeRef TypeRef::field(std::string_view name, bool* declared) const {
  if (crd_ != nullptr) return crd_field(name, declared);
  const schema::Type* s = struct_type();
  if (s != nullptr) {
    if (const schema::Field* f = s->field(name); f != nullptr && !f->inline_) {
      if (declared != nullptr) *declared = true;
      return TypeRef(f->type, f);
    }
    if (declared != nullptr) *declared = false;
    return untyped();
  }
  if (declared != nullptr) *declared = false;
  return elem();
}

TypeRef TypeRef::elem() const {
  if (crd_ != nullptr) {
    const crd::Schema* e =
        crd_->type == "array" ? crd_->items.get() : crd_->additional_properties.get();
    return e != nullptr ? TypeRef(e, e->embedded_resource) : untyped();
  }
  if (expr_ != nullptr &&
      (expr_->kind == schema::Kind::kList || expr_->kind == schema::Kind::kMap)) {
    return TypeRef(expr_->elem, nullptr);
  }
  return untyped();
}

Result<PathElement> TypeRef::item_path_element(const json::value& item) const {
  if (list_kind() == ListKind::kSet) {
    if (item.is_object())
      return fail("associative list without keys has an element that's a map type");
    if (item.is_array()) return fail("not supported: associative list with lists as elements");
    if (item.is_null()) {
      return fail("associative list without keys has an element that's an explicit null");
    }
    return PathElement::value(item);
  }
  if (item.is_null()) return fail("associative list with keys may not have a null element");
  if (!item.is_object()) return fail("associative list with keys may not have non-map elements");
  const json::object& o = item.get_object();
  std::vector<KeyField> key;
  const crd::Schema* crd_item = crd_ != nullptr ? crd_->items.get() : nullptr;
  // Keyed by x-kubernetes-list-map-keys, +listMapKey, or else the patch merge key.
  std::span<const std::string> names;
  if (crd_ != nullptr) {
    names = crd_->list_map_keys;
  } else if (!field_->list_map_keys.empty()) {
    names = field_->list_map_keys;
  } else {
    names = std::span<const std::string>(&field_->patch_merge_key, 1);
  }
  // A key field's default (OpenAPI `default`), which structured-merge-diff
  // uses for items that leave the key out.
  auto default_of = [&](std::string_view name) -> const json::value* {
    if (crd_ == nullptr) return key_default(expr_ != nullptr ? expr_->elem : nullptr, name);
    const crd::Schema* p = crd_item != nullptr ? crd_item->property(name) : nullptr;
    return p != nullptr && p->default_value ? &*p->default_value : nullptr;
  };
  for (const std::string& name : names) {
    if (const json::value* v = o.if_contains(name)) {
      key.push_back({name, *v});
    } else if (const json::value* d = default_of(name)) {
      key.push_back({name, *d});
    } else {
      return fail(fmt::format(
          "associative list with keys has an element that omits key field {} (and doesn't have "
          "default value)",
          api::go_quote(name)));
    }
  }
  return PathElement::key(std::move(key));
}

}  // namespace kcm::local::fieldmanager
