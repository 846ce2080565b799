// A set of field paths (structured-merge-diff's fieldpath.Set): what one
// manager owns of an object. A node can be a member itself (".") and have
// members below it, as "f:rollingUpdate" owns the struct and its fields.
#pragma once

#include <functional>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "local/fieldmanager/path_element.h"

namespace kcm::local::fieldmanager {

class FieldSet {
 public:
  void insert(const Path& path);
  bool has(const Path& path) const;
  bool empty() const;

  // Whether `pe` directly below this level is a member.
  bool has_member(const PathElement& pe) const;
  // What lies below `pe` (its members and children), or nullptr when nothing.
  const FieldSet* child(const PathElement& pe) const;

  FieldSet union_with(const FieldSet& other) const;
  FieldSet difference(const FieldSet& other) const;
  FieldSet intersection(const FieldSet& other) const;
  // difference(), also dropping everything below a member of `other`.
  FieldSet recursive_difference(const FieldSet& other) const;
  // The members that have no members below them.
  FieldSet leaves() const;

  // Every member path: this level's members in order, then each child's, as
  // structured-merge-diff's Set.Iterate.
  void for_each(const std::function<void(const Path&)>& f) const;

  // The FieldsV1 form: {"f:spec":{"f:replicas":{}}, "k:{...}":{".":{}, ...}}.
  json::object to_fields_v1() const;
  static Result<FieldSet> from_fields_v1(const json::value& v);

  bool operator==(const FieldSet& other) const;

  // A level's entry: `pe` is a member, or has members below, or both.
  struct Node;

  // Entries of this level in PathElement order (for the walkers).
  const std::vector<Node>& nodes() const;
  // The subset under `pe`, made a set of its own (structured-merge-diff's WithPrefix).
  FieldSet with_prefix(const PathElement& pe) const;
  // Sets the membership of `pe` at this level, children untouched.
  void insert_member(const PathElement& pe);
  // Adds `children` below `pe`.
  void add_children(const PathElement& pe, const FieldSet& children);

 private:
  // difference() (below_members false) or recursive_difference() (true).
  FieldSet without(const FieldSet& other, bool below_members) const;
  // Adds this level's FieldsV1 entries to `out`.
  void write_fields_v1(json::object& out) const;
  Node& node(const PathElement& pe);
  const Node* find(const PathElement& pe) const;
  void for_each(Path& prefix, const std::function<void(const Path&)>& f) const;

  std::vector<Node> nodes_;  // sorted by pe, none empty
};

struct FieldSet::Node {
  PathElement pe;
  bool member = false;
  FieldSet children;
};

inline bool FieldSet::empty() const {
  return nodes_.empty();
}
inline const std::vector<FieldSet::Node>& FieldSet::nodes() const {
  return nodes_;
}

}  // namespace kcm::local::fieldmanager
