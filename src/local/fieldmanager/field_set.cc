#include "local/fieldmanager/field_set.h"

#include <fmt/format.h>

#include <algorithm>

namespace kcm::local::fieldmanager {

namespace {

auto lower(std::vector<FieldSet::Node>& nodes, const PathElement& pe) {
  return std::lower_bound(nodes.begin(), nodes.end(), pe,
                          [](const FieldSet::Node& n, const PathElement& p) { return n.pe < p; });
}

}  // namespace

FieldSet::Node& FieldSet::node(const PathElement& pe) {
  auto it = lower(nodes_, pe);
  if (it == nodes_.end() || !(it->pe == pe)) it = nodes_.insert(it, Node{pe, false, {}});
  return *it;
}

const FieldSet::Node* FieldSet::find(const PathElement& pe) const {
  auto it = std::lower_bound(nodes_.begin(), nodes_.end(), pe,
                             [](const Node& n, const PathElement& p) { return n.pe < p; });
  if (it == nodes_.end() || !(it->pe == pe)) return nullptr;
  return &*it;
}

void FieldSet::insert(const Path& path) {
  if (path.empty()) return;
  FieldSet* level = this;
  for (std::size_t i = 0; i + 1 < path.size(); ++i)
    level = &level->node(path[i]).children;
  level->node(path.back()).member = true;
}

void FieldSet::insert_member(const PathElement& pe) {
  node(pe).member = true;
}

void FieldSet::add_children(const PathElement& pe, const FieldSet& children) {
  if (children.empty()) return;
  Node& n = node(pe);
  n.children = n.children.union_with(children);
}

bool FieldSet::has(const Path& path) const {
  if (path.empty()) return false;
  const FieldSet* level = this;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const Node* n = level->find(path[i]);
    if (n == nullptr) return false;
    level = &n->children;
  }
  const Node* n = level->find(path.back());
  return n != nullptr && n->member;
}

bool FieldSet::has_member(const PathElement& pe) const {
  const Node* n = find(pe);
  return n != nullptr && n->member;
}

const FieldSet* FieldSet::child(const PathElement& pe) const {
  const Node* n = find(pe);
  return n == nullptr || n->children.empty() ? nullptr : &n->children;
}

FieldSet FieldSet::with_prefix(const PathElement& pe) const {
  const FieldSet* c = child(pe);
  return c == nullptr ? FieldSet{} : *c;
}

FieldSet FieldSet::union_with(const FieldSet& other) const {
  FieldSet out;
  out.nodes_.reserve(nodes_.size() + other.nodes_.size());
  auto a = nodes_.begin();
  auto b = other.nodes_.begin();
  while (a != nodes_.end() || b != other.nodes_.end()) {
    if (b == other.nodes_.end() || (a != nodes_.end() && a->pe < b->pe)) {
      out.nodes_.push_back(*a++);
    } else if (a == nodes_.end() || b->pe < a->pe) {
      out.nodes_.push_back(*b++);
    } else {
      out.nodes_.push_back(
          Node{a->pe, a->member || b->member, a->children.union_with(b->children)});
      ++a;
      ++b;
    }
  }
  return out;
}

FieldSet FieldSet::difference(const FieldSet& other) const {
  return without(other, false);
}

FieldSet FieldSet::recursive_difference(const FieldSet& other) const {
  return without(other, true);
}

FieldSet FieldSet::without(const FieldSet& other, bool below_members) const {
  FieldSet out;
  for (const Node& n : nodes_) {
    const Node* o = other.find(n.pe);
    if (o == nullptr) {
      out.nodes_.push_back(n);
      continue;
    }
    if (below_members && o->member) continue;  // n's membership and all below it
    Node d{n.pe, n.member && !o->member, n.children.without(o->children, below_members)};
    if (d.member || !d.children.empty()) out.nodes_.push_back(std::move(d));
  }
  return out;
}

FieldSet FieldSet::intersection(const FieldSet& other) const {
  FieldSet out;
  for (const Node& n : nodes_) {
    const Node* o = other.find(n.pe);
    if (o == nullptr) continue;
    Node d{n.pe, n.member && o->member, n.children.intersection(o->children)};
    if (d.member || !d.children.empty()) out.nodes_.push_back(std::move(d));
  }
  return out;
}

FieldSet FieldSet::leaves() const {
  FieldSet out;
  for (const Node& n : nodes_) {
    Node d{n.pe, n.member && n.children.empty(), n.children.leaves()};
    if (d.member || !d.children.empty()) out.nodes_.push_back(std::move(d));
  }
  return out;
}

void FieldSet::for_each(const std::function<void(const Path&)>& f) const {
  Path prefix;
  for_each(prefix, f);
}

void FieldSet::for_each(Path& prefix, const std::function<void(const Path&)>& f) const {
  for (const Node& n : nodes_) {
    if (!n.member) continue;
    prefix.push_back(n.pe);
    f(prefix);
    prefix.pop_back();
  }
  for (const Node& n : nodes_) {
    if (n.children.empty()) continue;
    prefix.push_back(n.pe);
    n.children.for_each(prefix, f);
    prefix.pop_back();
  }
}

json::object FieldSet::to_fields_v1() const {
  json::object out;
  write_fields_v1(out);
  return out;
}

void FieldSet::write_fields_v1(json::object& out) const {
  // Written in place, level by level: a whole object's set (every create)
  // has hundreds of nodes.
  out.reserve(out.size() + nodes_.size());
  for (const Node& n : nodes_) {
    json::object& inner =
        out.emplace(n.pe.to_fields_v1(), json::object()).first->value().as_object();
    if (n.children.empty()) continue;
    inner.reserve(n.children.nodes_.size() + (n.member ? 1 : 0));
    if (n.member) inner.emplace(".", json::object());
    n.children.write_fields_v1(inner);
  }
}

Result<FieldSet> FieldSet::from_fields_v1(const json::value& v) {
  if (!v.is_object())
    return fail(fmt::format("expected an object, got {}", api::json_type_name(v)));
  FieldSet out;
  for (const auto& m : v.get_object()) {
    if (m.key() == ".") continue;  // the parent's own membership, read by the parent
    auto pe = PathElement::from_fields_v1(m.key());
    // Kinds of element a later version may add are dropped, as upstream drops them.
    if (!pe && pe.error() == kUnknownPathElementType) continue;
    if (!pe) return fail(fmt::format("parsing key as path element: {}", pe.error()));
    if (!m.value().is_object()) {
      return fail(fmt::format("expected an object, got {}", api::json_type_name(m.value())));
    }
    const json::object& inner = m.value().get_object();
    auto children = from_fields_v1(inner);
    if (!children) return fail(std::move(children).error());
    Node& n = out.node(*pe);
    // A leaf ({}) or a node marked "." is itself a member.
    n.member = n.member || inner.empty() || inner.contains(".");
    n.children = n.children.union_with(*children);
    if (!n.member && n.children.empty()) out.nodes_.erase(lower(out.nodes_, *pe));
  }
  return out;
}

bool FieldSet::operator==(const FieldSet& other) const {
  if (nodes_.size() != other.nodes_.size()) return false;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& a = nodes_[i];
    const Node& b = other.nodes_[i];
    if (!(a.pe == b.pe) || a.member != b.member || !(a.children == b.children)) return false;
  }
  return true;
}

}  // namespace kcm::local::fieldmanager
