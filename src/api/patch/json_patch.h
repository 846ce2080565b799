// JSON patch (RFC 6902) as the Kubernetes API server applies it for
// `application/json-patch+json`. Semantics and error texts follow
// evanphx/json-patch v4 (what upstream vendors), including its departures
// from the RFC that clients rely on:
//   - `add` on an existing object member replaces it; `replace` on a missing
//     object member adds it (only a missing array index fails);
//   - `remove` of a missing member fails; `test` of a missing member passes
//     when the value is null;
//   - array indices are Go integers: negative ones count from the end, and
//     leading zeros and a '+' sign are accepted; `-` appends (add only);
//   - a path without a leading '/' ignores its first token; path "" names the
//     whole document only for `replace` (object or array values; anything
//     else leaves the document as is) and `test`;
//   - a missing `value` is null; a missing `op` is the kind "unknown".
// Only a body that is not an array of objects is a bad request; everything
// else, including unknown ops and missing fields, fails when applied (422).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"

namespace kcm::api {

enum class JsonPatchErrorKind {
  kBadRequest,   // the body is not a JSON patch document: 400 BadRequest
  kCannotApply,  // a well-formed patch that does not apply: 422 Invalid
};

struct JsonPatchError {
  JsonPatchErrorKind kind = JsonPatchErrorKind::kCannotApply;
  std::string message;  // evanphx/json-patch's text, e.g. "testing value /a failed: test failed"
};

// Upstream's cap on operations per patch; over it the API server answers 413
// with too_many_operations_message().
inline constexpr std::size_t kMaxJsonPatchOperations = 10000;
std::string too_many_operations_message(std::size_t count);

// The API server's Status for an error: 400 with the message for kBadRequest,
// upstream's generic 422 for kCannotApply.
Status to_status(const JsonPatchError& error);

struct JsonPatchOptions {
  // Total bytes `copy` operations may add (serialized size of the copied
  // values); upstream's default JSONPatchMaxCopyBytes. 0 disables the cap.
  std::int64_t max_copy_bytes = 3 * 1024 * 1024;
};

class JsonPatch {
 public:
  // Decodes a patch body; JSON syntax errors are kBadRequest. `null` is an
  // empty patch, as upstream decodes it.
  static Result<JsonPatch, JsonPatchError> parse(std::string_view text);
  static Result<JsonPatch, JsonPatchError> from_json(const json::value& patch);

  // The number of operations, for the kMaxJsonPatchOperations check.
  std::size_t size() const { return ops_.size(); }

  // Applies the operations in order to a copy of `target` and returns it;
  // on error `target` is untouched. Fails (kCannotApply) when the result
  // would nest deeper than parse_json accepts.
  Result<json::value, JsonPatchError> apply(const json::value& target,
                                            const JsonPatchOptions& options = {}) const;

 private:
  explicit JsonPatch(json::array ops) : ops_(std::move(ops)) {}

  json::array ops_;  // each element an object or null, as sent
};

}  // namespace kcm::api
