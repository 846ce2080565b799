// The fields of one protobuf message (proto2 wire format), read with
// google::protobuf::io::CodedInputStream. Every field and error carries its
// byte offset in the whole request body, so messages can point at the spot.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"

namespace kcm::local::protobuf {

enum class WireType : std::uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
  kInvalid6 = 6,
  kInvalid7 = 7,
};

struct WireField {
  std::int32_t number = 0;
  WireType wire_type = WireType::kVarint;
  std::uint64_t value = 0;      // varint, fixed32 and fixed64 payloads
  std::string_view bytes;       // length-delimited payload
  std::size_t offset = 0;       // of the tag, in the request body
  std::size_t data_offset = 0;  // of the payload, in the request body
};

struct WireError {
  // gogo-protobuf's wording: "unexpected EOF", "proto: integer overflow",
  // "proto: negative length found during unmarshaling", "proto: v1.Pod:
  // illegal tag 0 (wire type 0)".
  std::string message;
  std::size_t offset = 0;  // in the request body
};

class WireReader {
 public:
  // `message` starts at `base_offset` of the request body; `go_type` (e.g.
  // "v1.PodSpec") names the message in errors, as Go's decoder does.
  WireReader(std::string_view message, std::size_t base_offset, std::string_view go_type);

  // The next field, or nullopt after the last one. Fields of wire type 3, 6
  // and 7 are returned without a payload and end the message: no generated
  // decoder accepts them, so callers must reject them.
  Result<std::optional<WireField>, WireError> next();

 private:
  Result<std::uint64_t, WireError> read_varint();
  WireError error(std::string message, std::size_t at) const;

  std::string_view message_;
  std::size_t base_;
  std::string_view go_type_;
  std::size_t pos_ = 0;
  bool stopped_ = false;
};

// The varints of a packed repeated field's payload.
Result<std::vector<std::uint64_t>, WireError> read_packed_varints(std::string_view payload,
                                                                  std::size_t base_offset);

std::string_view to_string(WireType t);  // "varint", "fixed64", "bytes", ...

}  // namespace kcm::local::protobuf
