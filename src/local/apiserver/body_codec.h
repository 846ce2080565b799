// Request bodies in, response bodies out: media types, the kind/apiVersion
// checks upstream's decoder makes, and list documents assembled from stored
// JSON without re-parsing it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "local/registry/resource_info.h"
#include "local/storage/stored_object.h"

namespace kcm::local::apiserver {

namespace json = boost::json;

// The media type of a Content-Type header, lower-cased, without parameters.
std::string media_type(std::string_view content_type);

// Decodes any JSON or YAML body into a value ("" content type means JSON, as
// for kubectl's conditional scale), or a protobuf body of `protobuf_kind`
// (when given). Other media types are 415.
Result<json::value, api::Status> decode_body(std::string_view content_type, std::string_view body,
                                             const api::GroupVersionKind* protobuf_kind = nullptr);

// Decodes an object body for `info` (create/update): must be an object whose
// apiVersion and kind, when given, name this resource's kind.
Result<json::object, api::Status> decode_object(const registry::ResourceInfo& info,
                                                const api::GroupVersionKind& expected,
                                                std::string_view content_type,
                                                std::string_view body);

// Removes null members (what decoding into upstream's typed structs does;
// a zero creationTimestamp stays null as Go prints it) and, when
// `drop_directives`, strategic-merge directive keys ("$patch", "$retainKeys"...).
void drop_nulls(json::value& value, bool drop_directives = false);

// {"kind":"<Kind>List","apiVersion":...,"metadata":{...},"items":[...]}
std::string encode_list(std::string_view api_version, std::string_view list_kind,
                        std::uint64_t revision, std::string_view continue_token,
                        std::optional<std::int64_t> remaining,
                        const std::vector<storage::ObjectPtr>& items);

}  // namespace kcm::local::apiserver
