// The frame of a Kubernetes protobuf body: the magic "k8s\0" and a
// runtime.Unknown message {1: TypeMeta{1: apiVersion, 2: kind}, 2: raw,
// 3: contentEncoding, 4: contentType} whose raw bytes are the object message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "api/result.h"

namespace kcm::local::protobuf {

inline constexpr std::string_view kProtobufPrefix{"k8s\0", 4};

struct Envelope {
  std::string api_version;
  std::string kind;
  std::string_view raw;        // the object message, a view into the body
  std::size_t raw_offset = 0;  // where `raw` starts in the body
  std::string content_encoding;
  std::string content_type;
};

// Splits a request body. Errors are worded as apimachinery's protobuf
// serializer words them ("empty data", "empty body", "provided data does not
// appear to be a protobuf message, expected prefix [107 56 115 0]",
// "unexpected EOF" ...), with the byte offset where it matters.
Result<Envelope> parse_envelope(std::string_view body);

}  // namespace kcm::local::protobuf
