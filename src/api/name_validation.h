// Name, label and annotation validation: upstream's apimachinery util/validation
// (v1.32 wording), metav1 ValidateLabels and ObjectMeta's ValidateAnnotations,
// and the metadata.name validators. Messages match upstream byte for byte because
// they reach users in 422 responses.
//
// Each is_* returns the list of problems; empty means valid.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::api {

inline constexpr std::size_t kDns1123LabelMaxLength = 63;
inline constexpr std::size_t kDns1123SubdomainMaxLength = 253;
inline constexpr std::size_t kDns1035LabelMaxLength = 63;
inline constexpr std::size_t kQualifiedNameMaxLength = 63;
inline constexpr std::size_t kLabelValueMaxLength = 63;
// Sum of the bytes of every annotation key and value.
inline constexpr std::size_t kTotalAnnotationSizeLimitBytes = 256 * 1024;

// The shared message builders ("must be no more than 63 characters", ...).
std::string max_len_error(std::size_t length);
std::string empty_error();
std::string regex_error(std::string_view msg, std::string_view regex,
                        std::initializer_list<std::string_view> examples = {});

std::vector<std::string> is_dns1123_label(std::string_view value);
std::vector<std::string> is_dns1123_subdomain(std::string_view value);
std::vector<std::string> is_dns1035_label(std::string_view value);
// A label or annotation key: [prefix/]name, prefix a DNS subdomain.
std::vector<std::string> is_qualified_name(std::string_view value);
std::vector<std::string> is_valid_label_value(std::string_view value);

// metav1 ValidateLabelName: one Invalid error per message, on `field`.
FieldErrors validate_label_name(std::string_view name, std::string_view field);
// metav1 ValidateLabels over metadata.labels. Keys are checked in the order of
// the object (upstream iterates a Go map, so its order is unspecified).
FieldErrors validate_labels(const json::object& labels, std::string_view field);
FieldErrors validate_labels(std::span<const std::pair<std::string, std::string>> labels,
                            std::string_view field);
// ObjectMeta ValidateAnnotations: keys are qualified names compared in lower case,
// and the total size is limited to kTotalAnnotationSizeLimitBytes.
FieldErrors validate_annotations(const json::object& annotations, std::string_view field);

// Path-segment names (REST paths, storage keys): "." and ".." are refused, and so
// is any name containing '/' or '%'. The prefix form (for generateName) only
// checks the characters.
std::vector<std::string> is_valid_path_segment_name(std::string_view name);
std::vector<std::string> is_valid_path_segment_prefix(std::string_view name);
std::vector<std::string> validate_path_segment_name(std::string_view name, bool prefix);

// Upstream's ValidateNameFunc: `prefix` is true when validating a generateName, in
// which case a trailing '-' is allowed.
using NameValidator = std::vector<std::string> (*)(std::string_view name, bool prefix);
std::vector<std::string> name_is_dns_subdomain(std::string_view name, bool prefix);
std::vector<std::string> name_is_dns_label(std::string_view name, bool prefix);
std::vector<std::string> name_is_dns1035_label(std::string_view name, bool prefix);

// The name part of ValidateObjectMetaAccessor: generateName (when set) is checked
// with prefix=true, then name is required ("name or generateName is required") and
// checked. Errors are on `<meta_field>.generateName` / `<meta_field>.name`.
// The API server runs this once with the kind's validator and once more with
// validate_path_segment_name after the kind's own validation passed.
FieldErrors validate_object_name(std::string_view name, std::string_view generate_name,
                                 NameValidator validator, std::string_view meta_field = "metadata");

}  // namespace kcm::api
