// Bad values printed the way upstream's field.Error does: Go's %#v of the
// internal type ("map[string]string{\"app\":\"web\"}",
// "v1.LabelSelector{MatchLabels:...}", "intstr.IntOrString{Type:1, ...}").
// api::FieldError quotes JSON strings, so these go through invalid_go(),
// which carries the rendering verbatim: the Status cause reads exactly as
// upstream's "Invalid value: <rendering>: <detail>".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// map[string]string{...} with keys sorted (as fmt prints maps);
// "map[string]string(nil)" for nullptr.
std::string go_string_map(const json::object* m);
// []string{"a", "b"}; "[]string(nil)" for nullptr.
std::string go_string_slice(const json::array* a);
// v1.LabelSelector{MatchLabels:..., MatchExpressions:...} of a selector
// (an object; anything else prints as an empty selector).
std::string go_label_selector(const json::value& selector);
// intstr.IntOrString{Type:0, IntVal:5, StrVal:""} of a JSON number or string.
std::string go_int_or_string(const json::value& v);

// "Invalid value: <go_value>: <detail>".
api::FieldError invalid_go(std::string field, std::string go_value, std::string detail);
// "Unsupported value: <go_value>: supported values: ...".
api::FieldError not_supported_go(std::string field, std::string go_value,
                                 const std::vector<std::string>& supported);

}  // namespace kcm::local::registry
