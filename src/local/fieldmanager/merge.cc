// typed Merge: an applied configuration merged into the live object.
#include <fmt/format.h>

#include <optional>

#include "local/fieldmanager/typed.h"
#include "local/fieldmanager/walk_errors.h"

namespace kcm::local::fieldmanager {

namespace {

bool empty_value(const json::value& v) {
  if (v.is_null()) return true;
  if (v.is_object()) return v.get_object().empty();
  if (v.is_array()) return v.get_array().empty();
  return false;
}

class Merger {
 public:
  WalkErrors errors;

  json::value merge(const json::value& lhs, const json::value& rhs, const TypeRef& t) {
    switch (t.shape(rhs.is_null() ? lhs : rhs)) {
      case TypeRef::Shape::kScalar:
        return rhs;
      case TypeRef::Shape::kStruct:
      case TypeRef::Shape::kMap:
        if (t.atomic_map() || !lhs.is_object() || (empty_value(lhs) && empty_value(rhs))) {
          return rhs;
        }
        if (empty_value(rhs)) return lhs;  // null or {} in the configuration keeps what lives
        if (!rhs.is_object()) return rhs;
        return merge_maps(lhs.get_object(), rhs.get_object(), t);
      case TypeRef::Shape::kList:
        if (t.list_kind() == TypeRef::ListKind::kAtomic || !lhs.is_array() ||
            (empty_value(lhs) && empty_value(rhs))) {
          return rhs;
        }
        if (empty_value(rhs)) return lhs;
        if (!rhs.is_array()) return rhs;
        return merge_lists(lhs.get_array(), rhs.get_array(), t);
    }
    return rhs;
  }

 private:
  json::value merge_maps(const json::object& lhs, const json::object& rhs, const TypeRef& t) {
    json::object out = lhs;
    for (const auto& m : rhs) {
      json::value* l = out.if_contains(m.key());
      if (l == nullptr) {
        out[m.key()] = m.value();
        continue;
      }
      path_.push_back(PathElement::field(m.key()));
      json::value merged = merge(*l, m.value(), t.field(m.key()));
      path_.pop_back();
      out[m.key()] = std::move(merged);
    }
    return out;
  }

  std::vector<PathElement> elements(const json::array& list, const TypeRef& t) {
    std::vector<PathElement> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto pe = t.item_path_element(list[i]);
      if (!pe) {
        errors.add(path_, fmt::format("element {}: {}", i, pe.error()));
        out.push_back(PathElement::index(static_cast<int>(i)));  // placeholder, never matches a key
        continue;
      }
      out.push_back(std::move(*pe));
    }
    return out;
  }

  static std::optional<std::size_t> position(const std::vector<PathElement>& pes,
                                             const PathElement& pe) {
    for (std::size_t i = 0; i < pes.size(); ++i) {
      if (pes[i] == pe) return i;
    }
    return std::nullopt;
  }

  // The items of both lists: shared items in the configuration's order, live
  // items the configuration does not name kept where they were relative to
  // them, new items where the configuration puts them.
  json::value merge_lists(const json::array& lhs, const json::array& rhs, const TypeRef& t) {
    const std::vector<PathElement> lpes = elements(lhs, t);
    const std::vector<PathElement> rpes = elements(rhs, t);
    const TypeRef elem = t.elem();
    std::vector<const PathElement*> shared;  // in the configuration's order
    for (const PathElement& pe : rpes) {
      if (position(lpes, pe)) shared.push_back(&pe);
    }
    std::size_t next_shared = 0;
    std::vector<bool> merged_rhs(rpes.size(), false);
    auto is_merged = [&](const PathElement& pe) {
      auto r = position(rpes, pe);
      return r && merged_rhs[*r];
    };
    json::array out;
    auto merge_item = [&](const PathElement& pe, const json::value* l, const json::value& r) {
      path_.push_back(pe);
      out.push_back(l == nullptr ? r : merge(*l, r, elem));
      path_.pop_back();
    };
    std::size_t li = 0;
    std::size_t ri = 0;
    while (li < lpes.size() || ri < rpes.size()) {
      if (li < lpes.size() && ri < rpes.size()) {
        if (lpes[li] == rpes[ri]) {
          merged_rhs[ri] = true;
          merge_item(lpes[li], &lhs[li], rhs[ri]);
          if (next_shared < shared.size() && *shared[next_shared] == lpes[li]) ++next_shared;
          ++li;
          ++ri;
          continue;
        }
        if (position(rpes, lpes[li]) && next_shared < shared.size() &&
            !(*shared[next_shared] == lpes[li])) {
          ++li;  // a shared item, but not the next one the configuration orders
          continue;
        }
      }
      if (li < lpes.size()) {
        if (!position(rpes, lpes[li])) {
          out.push_back(lhs[li]);  // live only
          ++li;
          continue;
        }
        if (is_merged(lpes[li])) {
          ++li;
          continue;
        }
      }
      if (ri < rpes.size()) {
        merged_rhs[ri] = true;
        auto l = position(lpes, rpes[ri]);
        merge_item(rpes[ri], l ? &lhs[*l] : nullptr, rhs[ri]);
        if (next_shared < shared.size() && *shared[next_shared] == rpes[ri]) ++next_shared;
        ++ri;
      }
    }
    return out;
  }

  Path path_;
};

}  // namespace

Result<json::value, WalkError> merge(const json::value& live, const json::value& config,
                                     const TypeRef& t) {
  Merger m;
  json::value out = m.merge(live, config, t);
  if (!m.errors.empty()) return fail(m.errors.text());
  return out;
}

}  // namespace kcm::local::fieldmanager
