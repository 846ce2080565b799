// Validation of a custom object against its structural schema: upstream's
// kube-openapi SchemaValidator as the apiextensions-apiserver runs it, with its
// errors converted to field errors (apiserver/validation's
// kubeOpenAPIResultToFieldErrors). Paths are those of the object
// ("spec.replicas", "spec.items[0].name", "spec.labels.foo"); messages carry
// kube-openapi's own wording ("spec.replicas in body must be of type integer:
// \"string\"").
#pragma once

#include <string>
#include <string_view>

#include "api/field_error.h"
#include "api/json.h"
#include "local/crd/structural_schema.h"

namespace kcm::local::crd {

// Validates `object` against `schema`. The caller validates metadata itself;
// apiVersion and kind are checked only as far as the schema describes them.
api::FieldErrors validate_against_schema(const Schema& schema, const json::value& object);

// The same, for a value below the resource root: `name` is kube-openapi's
// path of `value` ("" for a root), and each error's field path is prefixed
// with `field_prefix` (used to validate defaults at ".default").
api::FieldErrors validate_value(const Schema& schema, const json::value& value,
                                std::string_view name, std::string_view field_prefix);

// Whether `value` is valid for the string format `format` as upstream's
// format registry checks it (unknown formats accept every string).
bool is_valid_format(std::string_view format, std::string_view value);

// Go's %v rendering of a float64 ("10", "1.5", "1e+06").
std::string go_format_float(double v);

}  // namespace kcm::local::crd
