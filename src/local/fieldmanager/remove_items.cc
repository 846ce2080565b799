// typed RemoveItems: a value without the members of a set.
#include "local/fieldmanager/typed.h"

namespace kcm::local::fieldmanager {

// What remains of a map or list once everything in it is removed is null, as
// structured-merge-diff leaves it (the typed object then drops the field).
json::value remove_items(const json::value& v, const FieldSet& set, const TypeRef& t) {
  switch (t.shape(v)) {
    case TypeRef::Shape::kScalar:
      return v;
    case TypeRef::Shape::kStruct:
    case TypeRef::Shape::kMap: {
      if (!v.is_object() || v.get_object().empty()) return nullptr;
      if (t.atomic_map()) return nullptr;
      json::object out;
      for (const auto& m : v.get_object()) {
        const PathElement pe = PathElement::field(m.key());
        if (set.has_member(pe)) continue;
        if (const FieldSet* below = set.child(pe)) {
          out[m.key()] = remove_items(m.value(), *below, t.field(m.key()));
        } else {
          out[m.key()] = m.value();
        }
      }
      if (out.empty()) return nullptr;
      return out;
    }
    case TypeRef::Shape::kList: {
      if (!v.is_array() || v.get_array().empty()) return nullptr;
      if (t.list_kind() == TypeRef::ListKind::kAtomic) return nullptr;
      json::array out;
      for (const json::value& item : v.get_array()) {
        auto pe = t.item_path_element(item);
        if (!pe) {
          out.push_back(item);  // validated before; kept as it is
          continue;
        }
        if (set.has_member(*pe)) continue;
        if (const FieldSet* below = set.child(*pe)) {
          out.push_back(remove_items(item, *below, t.elem()));
        } else {
          out.push_back(item);
        }
      }
      if (out.empty()) return nullptr;
      return out;
    }
  }
  return v;
}

}  // namespace kcm::local::fieldmanager
