// JSON merge patch (RFC 7386) as the Kubernetes API server applies it for
// `application/merge-patch+json`, and the two-way diff controllers use to
// build such patches. Semantics follow evanphx/json-patch v4 (what upstream
// vendors), which differs from the RFC in a few corners:
//   - a top-level patch that is null or a scalar is rejected with
//     "Invalid JSON Patch" (the RFC would return it as the result);
//   - null members are pruned from inserted values at any depth, inside
//     arrays too, though null array elements stay
//     (`{"a":[null,{"b":null}]}` adds `[null,{}]`);
//   - a value replacing an existing object member is inserted as sent.
#pragma once

#include <string_view>

#include "api/json.h"
#include "api/result.h"

namespace kcm::api {

// Upstream's error texts. The API server answers 400 BadRequest for an invalid
// patch; an invalid document is an internal error (500).
inline constexpr std::string_view kInvalidJsonPatch = "Invalid JSON Patch";
inline constexpr std::string_view kInvalidJsonDocument = "Invalid JSON Document";
inline constexpr std::string_view kMismatchedJsonDocuments = "Mismatched JSON Documents";

// Applies `patch` to `target` and returns the merged document; `target` is not
// modified. A null target fails with kInvalidJsonDocument; a null or scalar
// patch, or one nested deeper than the JSON parser allows, with kInvalidJsonPatch.
Result<json::value> apply_merge_patch(const json::value& target, const json::value& patch);

// The minimal merge patch that turns `original` into `modified`: changed and
// added members as they are in `modified`, removed members as null, arrays
// whole. Both must be objects (null counts as {}), or both arrays of objects
// of equal length (the result is then the array of per-element patches).
// For objects, apply_merge_patch(original, result) equals `modified` once
// nulls are pruned from it.
Result<json::value> create_merge_patch(const json::value& original, const json::value& modified);

}  // namespace kcm::api
