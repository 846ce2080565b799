// typed Compare: what was added, modified and removed between two values.
#include <fmt/format.h>

#include "local/fieldmanager/typed.h"
#include "local/fieldmanager/walk_errors.h"

namespace kcm::local::fieldmanager {

namespace {

bool empty_or_absent(const json::value* v) {
  if (v == nullptr || v->is_null()) return true;
  if (v->is_object()) return v->get_object().empty();
  if (v->is_array()) return v->get_array().empty();
  return false;
}

// The items of a set or associative list by path element; the first of
// duplicates counts (kcm-local's validation refuses duplicates of keyed items).
struct IndexedItems {
  std::vector<std::pair<PathElement, const json::value*>> items;  // in list order
  const json::value* find(const PathElement& pe) const {
    for (const auto& [p, v] : items) {
      if (p == pe) return v;
    }
    return nullptr;
  }
};

class Comparer {
 public:
  Comparison result;
  WalkErrors errors;

  void walk(const json::value* lhs, const json::value* rhs, const TypeRef& t) {
    const json::value& any = rhs != nullptr ? *rhs : *lhs;
    bool leaf = true;
    switch (t.shape(any)) {
      case TypeRef::Shape::kScalar:
        break;
      case TypeRef::Shape::kStruct:
      case TypeRef::Shape::kMap:
        if (!t.atomic_map() && !(empty_or_absent(lhs) && empty_or_absent(rhs)) &&
            is_object_or_absent(lhs) && is_object_or_absent(rhs)) {
          leaf = false;
          walk_map(lhs, rhs, t);
        }
        break;
      case TypeRef::Shape::kList:
        if (t.list_kind() != TypeRef::ListKind::kAtomic &&
            !(empty_or_absent(lhs) && empty_or_absent(rhs)) && is_array_or_absent(lhs) &&
            is_array_or_absent(rhs)) {
          leaf = false;
          walk_list(lhs, rhs, t);
        }
        break;
    }
    if (lhs == nullptr) {
      result.added.insert(path_);
    } else if (rhs == nullptr) {
      result.removed.insert(path_);
    } else if (leaf && compare_values(*lhs, *rhs) != 0) {
      result.modified.insert(path_);
    }
  }

 private:
  static bool is_object_or_absent(const json::value* v) {
    return v == nullptr || v->is_null() || v->is_object();
  }
  static bool is_array_or_absent(const json::value* v) {
    return v == nullptr || v->is_null() || v->is_array();
  }

  void walk_map(const json::value* lhs, const json::value* rhs, const TypeRef& t) {
    walk_members(lhs != nullptr && lhs->is_object() ? &lhs->get_object() : nullptr,
                 rhs != nullptr && rhs->is_object() ? &rhs->get_object() : nullptr, t);
  }

 public:
  void walk_members(const json::object* l, const json::object* r, const TypeRef& t) {
    if (l != nullptr) {
      for (const auto& m : *l) {
        descend(PathElement::field(m.key()), &m.value(),
                r != nullptr ? r->if_contains(m.key()) : nullptr, t.field(m.key()));
      }
    }
    if (r != nullptr) {
      for (const auto& m : *r) {
        if (l != nullptr && l->contains(m.key())) continue;
        descend(PathElement::field(m.key()), nullptr, &m.value(), t.field(m.key()));
      }
    }
  }

 private:
  IndexedItems index(const json::value* list, const TypeRef& t) {
    IndexedItems out;
    if (list == nullptr || !list->is_array()) return out;
    const json::array& items = list->get_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      auto pe = t.item_path_element(items[i]);
      if (!pe) {
        errors.add(path_, fmt::format("element {}: {}", i, pe.error()));
        continue;
      }
      if (out.find(*pe) == nullptr) out.items.emplace_back(std::move(*pe), &items[i]);
    }
    return out;
  }

  void walk_list(const json::value* lhs, const json::value* rhs, const TypeRef& t) {
    const IndexedItems l = index(lhs, t);
    const IndexedItems r = index(rhs, t);
    const TypeRef elem = t.elem();
    for (const auto& [pe, v] : l.items)
      descend(pe, v, r.find(pe), elem);
    for (const auto& [pe, v] : r.items) {
      if (l.find(pe) == nullptr) descend(pe, nullptr, v, elem);
    }
  }

  void descend(const PathElement& pe, const json::value* lhs, const json::value* rhs,
               const TypeRef& t) {
    const FieldSet* outer = ignored_;
    if (outer != nullptr) {
      if (outer->has_member(pe)) return;
      ignored_ = outer->child(pe);
    }
    path_.push_back(pe);
    walk(lhs, rhs, t);
    path_.pop_back();
    ignored_ = outer;
  }

  Path path_;

 public:
  // What lies below this point of the walk that is not compared (nullptr: nothing).
  const FieldSet* ignored_ = nullptr;
};

}  // namespace

Result<Comparison, WalkError> compare(const json::value& lhs, const json::value& rhs,
                                      const TypeRef& t, const FieldSet* ignored) {
  Comparer c;
  c.ignored_ = ignored;
  c.walk(&lhs, &rhs, t);
  if (!c.errors.empty()) return fail(c.errors.text());
  return std::move(c.result);
}

Result<Comparison, WalkError> compare_objects(const json::object& lhs, const json::object& rhs,
                                              const TypeRef& t, const FieldSet* ignored) {
  Comparer c;
  c.ignored_ = ignored;
  c.walk_members(&lhs, &rhs, t);
  if (!c.errors.empty()) return fail(c.errors.text());
  return std::move(c.result);
}

}  // namespace kcm::local::fieldmanager
