// Schema-driven decoding of one object message (the generated.proto wire
// format of k8s.io/api) into the JSON kube-apiserver prints for the Go object
// the message decodes to: fields in Go declaration order, the schema's
// omitempty and pointer facts (Field::omitempty, Field::pointer), maps with
// sorted keys, Time/MicroTime as RFC 3339, Quantity in canonical form,
// IntOrString as a number or a string, bytes as base64.
//
// Unlike upstream's generated decoders, a field number the schema does not
// know is an error rather than silently dropped: the server must not lose
// what a newer client sent.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "api/group_version.h"
#include "api/json.h"
#include "api/result.h"
#include "api/schema/type.h"

namespace kcm::local::protobuf {

namespace json = boost::json;

struct DecodeError {
  // "unexpected EOF", "proto: wrong wireType = 0 for field name of
  // v1.ObjectMeta", "the body of the request was in an unknown format: field
  // number 42 of v1.PodSpec is not known to this server".
  std::string message;
  std::string path;        // JSON path of the message or field: "spec.template.spec"
  std::size_t offset = 0;  // byte offset in the request body

  // "<message> (at <path>, byte <offset>)".
  std::string to_string() const;
};

// Decodes `message` as a `type`. `base_offset` is where `message` starts in
// the request body (for error offsets). For a kind's root type pass the
// resolved `type_meta`: Go prints "kind" and "apiVersion" first, from the
// envelope; without it fields that have no protobuf number are left out.
Result<json::object, DecodeError> decode_message(std::string_view message,
                                                 const api::schema::Type& type,
                                                 std::size_t base_offset = 0,
                                                 const api::GroupVersionKind* type_meta = nullptr);

}  // namespace kcm::local::protobuf
