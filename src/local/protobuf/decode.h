// Protobuf request bodies (Content-Type application/vnd.kubernetes.protobuf),
// which kubectl 1.32+ sends for `create namespace|deployment`, `debug` and
// other typed-client writes, decoded into the JSON the rest of kcm-local
// handles: exactly what kube-apiserver would print for the decoded object.
#pragma once

#include <string_view>

#include "api/group_version.h"
#include "api/json.h"
#include "api/result.h"
#include "api/schema/registry.h"
#include "api/status.h"

namespace kcm::local::protobuf {

namespace json = boost::json;

inline constexpr std::string_view kProtobufMediaType = "application/vnd.kubernetes.protobuf";

// Decodes a body ("k8s\0" + runtime.Unknown) sent to the endpoint of
// `expected`. The envelope's apiVersion and kind default to the endpoint's
// and must match it, as for JSON bodies. The result is an object that starts
// with "kind" and "apiVersion". Failures are 400 BadRequest statuses worded
// as upstream's decoder errors, pointing at the byte offset; an unknown field
// number is an error, never silently dropped. A kind without a schema is 415.
Result<json::value, api::Status> decode_protobuf_object(
    std::string_view body, const api::GroupVersionKind& expected,
    const api::schema::Registry& registry = api::schema::Registry::builtin());

// The same, decoding the object as `type`: for kinds every group shares, such
// as DeleteOptions, whose schema the registry declares once (/v1).
Result<json::value, api::Status> decode_protobuf_object(std::string_view body,
                                                        const api::GroupVersionKind& expected,
                                                        const api::schema::Type& type);

}  // namespace kcm::local::protobuf
