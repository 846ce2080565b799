#include "api/schema/type_patch_schema.h"

#include <optional>
#include <string>

namespace kcm::api::schema {

namespace ap = kcm::api;

// A struct node (fields by JSON name) or a map node (every key answers the
// value type).
class PatchSchemas::Node : public ap::PatchSchema {
 public:
  const ap::PatchField* lookup(std::string_view name) const override {
    if (map_value_) return &*map_value_;
    auto it = fields_.find(name);
    return it == fields_.end() ? nullptr : &it->second;
  }

  std::map<std::string, ap::PatchField, std::less<>> fields_;
  std::optional<ap::PatchField> map_value_;
};

namespace {

// reflect.Kind names, as upstream prints them.
std::string go_kind(const TypeExpr& t) {
  switch (t.kind) {
    case Kind::kString:
      return "string";
    case Kind::kInt32:
      return "int32";
    case Kind::kInt64:
      return "int64";
    case Kind::kBool:
      return "bool";
    case Kind::kDouble:
      return "float64";
    case Kind::kBytes:
      return "slice";
    case Kind::kList:
      return "slice";
    case Kind::kMap:
      return "map";
    default:
      return "struct";
  }
}

}  // namespace

ap::PatchMeta patch_meta(const Field& field) {
  ap::PatchMeta meta;
  switch (field.patch_strategy) {
    case PatchStrategy::kNone:
      break;
    case PatchStrategy::kMerge:
      meta.strategy = ap::PatchStrategy::kMerge;
      break;
    case PatchStrategy::kRetainKeys:
      meta.retain_keys = true;
      break;
    case PatchStrategy::kMergeRetainKeys:
      meta.strategy = ap::PatchStrategy::kMerge;
      meta.retain_keys = true;
      break;
    case PatchStrategy::kReplace:
      meta.strategy = ap::PatchStrategy::kReplace;
      break;
  }
  meta.merge_key = field.patch_merge_key;
  return meta;
}

PatchSchemas::PatchSchemas(const Registry& registry) : registry_(registry) {
  for (const auto& t : registry.types()) {
    nodes_.push_back(std::make_unique<Node>());
    by_type_[&t] = nodes_.back().get();
  }
  // Map-of-struct values get a node of their own: every key is "a field".
  auto schema_of = [&](const TypeExpr& t) -> const ap::PatchSchema* {
    const TypeExpr* e = &t;
    if (e->kind == Kind::kList) e = e->elem;
    if (e->kind == Kind::kObject) return by_type_.at(e->object);
    if (e->kind == Kind::kMap && e->elem->kind == Kind::kObject) {
      nodes_.push_back(std::make_unique<Node>());
      ap::PatchField value;
      value.schema = by_type_.at(e->elem->object);
      nodes_.back()->map_value_ = value;
      return nodes_.back().get();
    }
    return nullptr;
  };
  for (const auto& t : registry.types()) {
    Node& node = *by_type_.at(&t);
    for (const Field* f : t.json_fields()) {
      ap::PatchField pf;
      pf.meta = patch_meta(*f);
      pf.schema = schema_of(*f->type);
      pf.go_kind = go_kind(f->type->kind == Kind::kList ? *f->type->elem : *f->type);
      node.fields_.emplace(f->name, std::move(pf));
    }
  }
}

PatchSchemas::~PatchSchemas() = default;

const PatchSchemas& PatchSchemas::builtin() {
  static const PatchSchemas schemas(Registry::builtin());
  return schemas;
}

const ap::PatchSchema* PatchSchemas::of(const Type& type) const {
  auto it = by_type_.find(&type);
  return it == by_type_.end() ? nullptr : it->second;
}

const ap::PatchSchema* PatchSchemas::of(const GroupVersionKind& gvk) const {
  const Type* t = registry_.root(gvk);
  return t == nullptr ? nullptr : of(*t);
}

}  // namespace kcm::api::schema
