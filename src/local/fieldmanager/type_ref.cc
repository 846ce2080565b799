#include "local/fieldmanager/type_ref.h"

#include <fmt/format.h>

namespace kcm::local::fieldmanager {

namespace schema = api::schema;

namespace {

// Defaults of associative-list key fields (OpenAPI `default`), which
// structured-merge-diff uses for items that leave the key out.
const json::value* key_default(const schema::TypeExpr* item, std::string_view key) {
  static const json::value tcp = "TCP";
  if (item != nullptr && item->object != nullptr && item->object->name == "ContainerPort" &&
      key == "protocol") {
    return &tcp;
  }
  return nullptr;
}

}  // namespace

TypeRef TypeRef::of(const schema::Type& root) {
  TypeRef t;
  t.root_ = &root;
  return t;
}

TypeRef::Shape TypeRef::shape(const json::value& v) const {
  if (root_ != nullptr) return Shape::kStruct;
  if (expr_ == nullptr) {
    if (v.is_object()) return Shape::kMap;
    if (v.is_array()) return Shape::kList;
    return Shape::kScalar;
  }
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
  if (field_ != nullptr && field_->map_type == schema::MapType::kAtomic) return true;
  const schema::Type* s = struct_type();
  return s != nullptr && s->struct_type == schema::MapType::kAtomic;
}

TypeRef::ListKind TypeRef::list_kind() const {
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

TypeRef TypeRef::field(std::string_view name, bool* declared) const {
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
  const std::vector<std::string>& names = field_->list_map_keys.empty()
                                              ? std::vector<std::string>{field_->patch_merge_key}
                                              : field_->list_map_keys;
  for (const std::string& name : names) {
    if (const json::value* v = o.if_contains(name)) {
      key.push_back({name, *v});
    } else if (const json::value* d = key_default(expr_ != nullptr ? expr_->elem : nullptr, name)) {
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
