// apiequality.Semantic.DeepEqual over JSON: whether two values of one
// built-in Go type would compare equal once decoded into that type.
//
// Decoding decides what "equal" means, so the type guides the comparison:
// - an absent or null member decodes to its field's zero value: nil for a
//   pointer, a list or a map; otherwise the zero struct, "", 0 or false. So
//   `"stdin": false` equals an absent `stdin` (a plain bool), but
//   `"privileged": false` does not equal an absent one (a *bool), nor does
//   `"securityContext": {}` equal an absent securityContext (a pointer);
// - nil and empty lists are equal, and so are nil and empty maps; maps
//   compare key by key (`{"a": ""}` is not `{}`);
// - numbers compare by value, quantities by value ("1Gi" equals "1024Mi"),
//   an int-or-string by its kind and value;
// - members the type does not declare (fields newer than the embedded
//   definitions) compare as JSON, absent equal to null.
// Values of the wrong JSON type for their field compare as JSON.
#pragma once

#include <span>
#include <string_view>

#include "api/json.h"
#include "api/schema/type.h"

namespace kcm::api::schema {

// A member path left out of both sides: {"metadata", "labels",
// "pod-template-hash"} compares two templates as if neither had that label.
using IgnoredPath = std::span<const std::string_view>;

bool semantic_equal(const json::value& a, const json::value& b, const Type& type,
                    IgnoredPath ignored = {});
// The same for two objects (no copy into json::value needed).
bool semantic_equal(const json::object& a, const json::object& b, const Type& type,
                    IgnoredPath ignored = {});

// The values of one member of a struct (nullptr: the member is absent), as
// the struct's comparison compares it: by `field`, or as JSON when the
// definitions don't declare the member (`field` nullptr).
bool semantic_equal(const json::value* a, const json::value* b, const Field* field);

}  // namespace kcm::api::schema
