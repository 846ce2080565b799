// The operations server-side apply performs on typed values, as
// structured-merge-diff's typed package: the set of fields a value sets, the
// comparison of two values, the merge of an applied configuration into a live
// object, and the removal of fields. Values are JSON; types are TypeRefs.
#pragma once

#include <string>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "local/fieldmanager/field_set.h"
#include "local/fieldmanager/type_ref.h"

namespace kcm::local::fieldmanager {

// Errors found while walking a value, each "<path>: <message>" as
// structured-merge-diff prints them, joined by newlines.
using WalkError = std::string;

// The fields `v` sets (typed ToFieldSet): every scalar, atomic value, map
// entry and list item, plus struct fields that are null or empty objects.
Result<FieldSet, WalkError> to_field_set(const json::value& v, const TypeRef& t);

// What changed from `lhs` to `rhs` (typed Compare). A struct, map or list item
// present on one side only is itself added or removed, with its contents.
struct Comparison {
  FieldSet added;
  FieldSet modified;
  FieldSet removed;
};
// `ignored`: paths left out of the walk and the result, with all below them
// (as structured-merge-diff's FilterFields afterwards, but without walking
// them: a status update does not walk the spec).
Result<Comparison, WalkError> compare(const json::value& lhs, const json::value& rhs,
                                      const TypeRef& t, const FieldSet* ignored = nullptr);
// The same for two objects of a struct or map type, without copying them into values.
Result<Comparison, WalkError> compare_objects(const json::object& lhs, const json::object& rhs,
                                              const TypeRef& t, const FieldSet* ignored = nullptr);

// `config` merged into `live` (typed Merge): scalars and atomic values from
// `config`; structs and maps member by member; set and associative lists item
// by item, live-only items kept in place.
Result<json::value, WalkError> merge(const json::value& live, const json::value& config,
                                     const TypeRef& t);

// `v` without the members of `set` (typed RemoveItems): a member goes whole,
// a node with members below is walked.
json::value remove_items(const json::value& v, const FieldSet& set, const TypeRef& t);

// `set` with every struct field that has members below made a member too
// (fieldpath's EnsureNamedFieldsAreMembers), so that removing it removes the
// struct field, not only what the set named below it.
FieldSet ensure_named_fields_are_members(const FieldSet& set, const TypeRef& t);

}  // namespace kcm::local::fieldmanager
