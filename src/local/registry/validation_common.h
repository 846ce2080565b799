// Field checks shared by the kinds' validation, worded as upstream's
// apimachinery util/validation and core/validation helpers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

inline constexpr std::string_view kNegativeErrorMsg = "must be greater than or equal to 0";
inline constexpr std::string_view kNotPositiveErrorMsg = "must be greater than zero";
inline constexpr std::string_view kFieldImmutableErrorMsg = "field is immutable";
inline constexpr std::string_view kFileModeErrorMsg =
    "must be a number between 0 and 0777 (octal), both inclusive";

// "must be between 1 and 65535, inclusive".
std::string inclusive_range_error(std::int64_t lo, std::int64_t hi);

// ValidateNonnegativeField.
void validate_nonnegative(std::int64_t value, std::string_view field, api::FieldErrors& errs);

// One Invalid error per message of the check, on `field` with `value`.
void append_invalid(std::string_view field, std::string_view value,
                    const std::vector<std::string>& messages, api::FieldErrors& errs);
void validate_dns1123_label(std::string_view value, std::string_view field, api::FieldErrors& errs);
void validate_dns1123_subdomain(std::string_view value, std::string_view field,
                                api::FieldErrors& errs);
void validate_qualified_name(std::string_view value, std::string_view field,
                             api::FieldErrors& errs);

// ValidatePortNumOrName of the IntOrString `holder[key]` (absent reads as the
// integer 0), errors on `field`.
void validate_port_num_or_name(const json::object& holder, std::string_view key,
                               std::string_view field, api::FieldErrors& errs);
// A container's or a Service port's protocol: required, SCTP, TCP or UDP.
void validate_port_protocol(std::string_view protocol, std::string_view field,
                            api::FieldErrors& errs);

// Message lists of apimachinery's util/validation.
std::vector<std::string> is_valid_port_num(std::int64_t port);
std::vector<std::string> is_valid_port_name(std::string_view port);
std::vector<std::string> is_env_var_name(std::string_view value);
std::vector<std::string> is_relaxed_env_var_name(std::string_view value);
std::vector<std::string> is_config_map_key(std::string_view value);
std::vector<std::string> is_http_header_name(std::string_view value);
std::vector<std::string> is_valid_user_id(std::int64_t uid);
std::vector<std::string> is_valid_group_id(std::int64_t gid);
std::vector<std::string> is_dns1123_subdomain_with_underscore(std::string_view value);

// netutils.ParseIPSloppy / ParseCIDRSloppy (IPv4 octets may have leading zeros).
bool parse_ip_sloppy(std::string_view value, bool* is_v6 = nullptr);
bool parse_cidr_sloppy(std::string_view value, bool* is_v6 = nullptr);
// IsValidIP / IsValidCIDR.
void validate_ip(std::string_view value, std::string_view field, api::FieldErrors& errs);
void validate_cidr(std::string_view value, std::string_view field, api::FieldErrors& errs);

// Paths inside volumes: no ".." element, relative, and not starting with "..".
void validate_path_no_backsteps(std::string_view path, std::string_view field,
                                api::FieldErrors& errs);
void validate_local_descending_path(std::string_view path, std::string_view field,
                                    api::FieldErrors& errs);
void validate_local_non_reserved_path(std::string_view path, std::string_view field,
                                      api::FieldErrors& errs);
// defaultMode / mode: 0..0777 when present.
void validate_file_mode(const json::object& o, std::string_view key, std::string_view field,
                        api::FieldErrors& errs);

// ValidateImmutableField for JSON values (absent and null are equal).
void validate_immutable(const json::value* now, const json::value* old, std::string_view field,
                        api::FieldErrors& errs);

// core/validation's extra check on metadata.finalizers of core and apps
// kinds: a name without '/' must be a standard finalizer.
void validate_kube_finalizer_names(const json::object& obj, api::FieldErrors& errs);
// The same check for one finalizer name on `field`.
void validate_kube_finalizer_name(std::string_view name, std::string_view field,
                                  api::FieldErrors& errs);

// Appends `more` to `errs`.
void append(api::FieldErrors& errs, api::FieldErrors more);

}  // namespace kcm::local::registry
