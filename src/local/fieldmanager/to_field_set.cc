// typed ToFieldSet and fieldpath's EnsureNamedFieldsAreMembers.
#include <fmt/format.h>

#include "local/fieldmanager/typed.h"
#include "local/fieldmanager/walk_errors.h"

namespace kcm::local::fieldmanager {

namespace {

bool null_or_empty_object(const json::value& v) {
  return v.is_null() || (v.is_object() && v.get_object().empty());
}

// Collects the field set of `v` into `out`, or (out null: inside an atomic
// value) only checks it, as structured-merge-diff validates a whole typed
// value: an undeclared field inside an atomic list is an error too.
void collect_fields(const json::value& v, const TypeRef& t, Path& path, FieldSet* out,
                    WalkErrors& errors) {
  auto insert = [&] {
    if (out != nullptr) out->insert(path);
  };
  switch (t.shape(v)) {
    case TypeRef::Shape::kScalar:
      insert();
      return;
    case TypeRef::Shape::kStruct:
    case TypeRef::Shape::kMap: {
      FieldSet* below = out;
      if (t.atomic_map()) {
        insert();
        below = nullptr;
      }
      if (!v.is_object()) return;  // null: the parent records it
      const bool is_struct = t.shape(v) == TypeRef::Shape::kStruct;
      for (const auto& m : v.get_object()) {
        bool declared = false;
        const TypeRef ft = t.field(m.key(), &declared);
        path.push_back(PathElement::field(m.key()));
        if (is_struct && !declared) {
          errors.add(path, "field not declared in schema");
          path.pop_back();
          continue;
        }
        collect_fields(m.value(), ft, path, below, errors);
        // A struct field is owned through its contents unless it has none; a
        // map entry is always owned itself.
        if (below != nullptr && (!declared || null_or_empty_object(m.value()))) {
          below->insert(path);
        }
        path.pop_back();
      }
      return;
    }
    case TypeRef::Shape::kList: {
      const bool atomic = t.list_kind() == TypeRef::ListKind::kAtomic;
      if (atomic) insert();
      if (!v.is_array()) return;
      FieldSet* below = atomic ? nullptr : out;
      const TypeRef elem = t.elem();
      const json::array& items = v.get_array();
      for (std::size_t i = 0; i < items.size(); ++i) {
        auto pe = atomic ? Result<PathElement>(PathElement::index(static_cast<int>(i)))
                         : t.item_path_element(items[i]);
        if (!pe) {
          errors.add(path, fmt::format("element {}: {}", i, pe.error()));
          continue;
        }
        path.push_back(std::move(*pe));
        collect_fields(items[i], elem, path, below, errors);
        if (below != nullptr) below->insert(path);
        path.pop_back();
      }
      return;
    }
  }
}

}  // namespace

Result<FieldSet, WalkError> to_field_set(const json::value& v, const TypeRef& t) {
  FieldSet out;
  Path path;
  WalkErrors errors;
  collect_fields(v, t, path, &out, errors);
  if (!errors.empty()) return fail(errors.text());
  return out;
}

FieldSet ensure_named_fields_are_members(const FieldSet& set, const TypeRef& t) {
  FieldSet out;
  for (const FieldSet::Node& n : set.nodes()) {
    TypeRef child = TypeRef::untyped();
    bool named = false;
    if (n.pe.form() == PathElement::Form::kField) {
      child = t.field(n.pe.field_name(), &named);
    } else if (n.pe.form() == PathElement::Form::kKey) {
      child = t.elem();
    }
    if (n.member || (named && !n.children.empty())) out.insert_member(n.pe);
    FieldSet below = ensure_named_fields_are_members(n.children, child);
    if (!below.empty()) out.add_children(n.pe, below);
  }
  return out;
}

}  // namespace kcm::local::fieldmanager
