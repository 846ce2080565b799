// Checks a request body against a built-in type the way kube-apiserver's
// decoder (sigs.k8s.io/json, Go's encoding/json) does: the first type error
// worded as Go words it, and the strict-mode findings (unknown and duplicate
// fields) with upstream's paths and messages.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/schema/raw_json.h"
#include "api/schema/type.h"
#include "api/status.h"

namespace kcm::api::schema {

struct DecodeOptions {
  // Collect unknown and duplicate fields (what fieldValidation Strict/Warn need).
  bool strict = true;
  // Visit object members in key order instead of document order: upstream
  // turns YAML into JSON with sorted keys before decoding, so YAML bodies
  // report unknown fields in that order.
  bool sorted_keys = false;
  // Upstream keeps at most 100 strict errors.
  std::size_t max_strict_errors = 100;
};

struct DecodeResult {
  // Go's decode error, e.g. "json: cannot unmarshal string into Go struct field
  // DeploymentSpec.spec.replicas of type int32"; empty when the body decodes.
  // Upstream rejects the body with it and reports no strict errors.
  std::string error;
  // `unknown field "spec.foo"`, `duplicate field "spec.paused"`: in document
  // order, deduplicated, capped at max_strict_errors.
  std::vector<std::string> strict_errors;
  std::vector<std::string> unknown_fields;    // "spec.template.spec.containers[0].imagee"
  std::vector<std::string> duplicate_fields;  // "metadata.name"

  bool ok() const { return error.empty(); }
};

// Checks a parsed value. Duplicate keys are already collapsed by the JSON
// parser and numbers have lost their spelling: prefer decode_check_text when
// the request text is at hand.
DecodeResult decode_check(const json::value& body, const Type& type,
                          const DecodeOptions& opts = {});
// Checks the request text itself: duplicates are found and number literals are
// quoted as written. Fails only when the text is not JSON.
Result<DecodeResult> decode_check_text(std::string_view body, const Type& type,
                                       const DecodeOptions& opts = {});
DecodeResult decode_check(const RawValue& body, const Type& type, const DecodeOptions& opts = {});

// "strict decoding error: unknown field \"spec.foo\", unknown field \"spec.bar\"".
std::string strict_decoding_message(const std::vector<std::string>& strict_errors);
// `Deployment in version "v1" cannot be handled as a Deployment: <detail>`.
std::string cannot_handle_message(std::string_view kind, std::string_view version,
                                  std::string_view detail);

// The fieldValidation query parameter.
enum class FieldValidation { kIgnore, kWarn, kStrict };
// "Ignore", "Warn", "Strict"; an empty value is Warn (upstream's default for
// create/update/patch); nullopt for anything else.
std::optional<FieldValidation> parse_field_validation(std::string_view value);
// The 422 upstream answers for an unsupported value, e.g. for "CreateOptions":
// CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "x": ...
Status invalid_field_validation(std::string_view options_kind, std::string_view value);

struct BodyCheck {
  std::optional<Status> error;        // a 400 BadRequest to answer with
  std::vector<std::string> warnings;  // Warning headers (fieldValidation=Warn)
};
// What a create/update handler does with a JSON body for `gvk` (whose root
// type must exist in the registry): type errors and, under Strict, unknown or
// duplicate fields become a 400 worded as upstream; under Warn they become
// warnings. `yaml` selects sorted key order for YAML bodies turned into JSON.
BodyCheck check_request_body(std::string_view body, const GroupVersionKind& gvk,
                             FieldValidation validation, bool yaml = false);

}  // namespace kcm::api::schema
