// Strategic merge patch (`application/strategic-merge-patch+json`) as the
// Kubernetes API server applies it, and the two-way diff controllers and
// clients use to build one. Semantics follow upstream's
// k8s.io/apimachinery/pkg/util/strategicpatch (the 1.32 server), including:
//   - `null` deletes a member; nulls inside a value that is inserted whole are
//     dropped, except inside `$patch: replace` maps, replaced lists and
//     appended list elements, which upstream keeps as sent;
//   - lists merge by the field's merge key (containers by name, container
//     ports by containerPort only, volumeMounts by mountPath...), primitive
//     merge lists as a set; other lists are replaced whole;
//   - `$patch: replace|delete` on maps, `$patch: delete|replace` on list
//     elements (`merge` is rejected, as upstream does), `$retainKeys`,
//     `$deleteFromPrimitiveList/<list>` (on any list) and
//     `$setElementOrder/<list>`, ordering merged lists exactly as upstream:
//     the directive's order first, then the patch's, then the live list's for
//     items the patch does not mention;
//   - directives in a value inserted where the original has nothing are
//     removed (a map carrying `$patch` is dropped entirely).
// Where upstream's Go code would panic (comparing two maps, hashing a list)
// the error is kPanic. Upstream iterates Go maps in random order; where that
// order could matter we take the patch's member order.
//
// The result keeps the original's member order and appends new members in
// patch order; upstream decodes the result into a typed object, so a caller
// storing it as JSON may need to drop remaining nulls the way decoding would.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"
#include "api/patch/patch_schema.h"
#include "api/result.h"
#include "api/status.h"

namespace kcm::api {

// Upstream's sentinel messages (k8s.io/apimachinery/pkg/util/mergepatch).
inline constexpr std::string_view kErrBadJsonDoc = "invalid JSON document";
inline constexpr std::string_view kErrNoListOfLists = "lists of lists are not supported";
inline constexpr std::string_view kErrBadPatchFormatForPrimitiveList =
    "invalid patch format of primitive list";
inline constexpr std::string_view kErrBadPatchFormatForRetainKeys =
    "invalid patch format of retainKeys";
inline constexpr std::string_view kErrBadPatchFormatForSetElementOrderList =
    "invalid patch format of setElementOrder list";
// What kube-apiserver answers (text/plain, 500) when a handler panics.
inline constexpr std::string_view kPanicMessage =
    "This request caused apiserver to panic. Look in the logs for details.";

enum class PatchErrorKind {
  kBadRequest,     // malformed patch or directive: 400 BadRequest
  kUnprocessable,  // lists of lists: 422 with upstream's generic message
  kInternal,       // any other error upstream returns as is: 500, no reason
  kPanic,          // where upstream's Go code panics: 500
};

struct PatchError {
  PatchErrorKind kind = PatchErrorKind::kInternal;
  std::string message;  // upstream's error text, e.g. "map: map[image:x] does not contain
                        // declared merge key: name"
};

// The API server's Status for an error, as upstream's
// interpretStrategicMergePatchError and its error writer produce it:
// kBadRequest => 400 BadRequest with the message; kUnprocessable => 422
// Invalid with the generic message; kInternal => 500 with the message and no
// reason (kubectl prints "Error from server: <message>"); kPanic => 500
// InternalError with kPanicMessage (upstream sends that text as text/plain).
Status to_status(const PatchError& error);

// Applies `patch` to `original` and returns the result; neither input is
// modified. `original` must be an object (null counts as {}); a patch that is
// not an object fails as the API server's JSON decoding does (400), except
// null, which changes nothing. Inputs nested deeper than parse_json accepts
// fail with kErrBadJsonDoc.
Result<json::value, PatchError> apply_strategic_merge_patch(const json::value& original,
                                                            const json::value& patch,
                                                            const PatchSchema& schema);

// The two-way patch upstream's CreateTwoWayMergePatch computes: applied to
// `original` it yields `modified`. Both must be objects (null counts as {}).
// Object members come out sorted by key at every level, as Go's encoder
// writes them, so the patch serializes byte for byte like upstream's.
Result<json::value, PatchError> create_two_way_merge_patch(const json::value& original,
                                                           const json::value& modified,
                                                           const PatchSchema& schema);

}  // namespace kcm::api
