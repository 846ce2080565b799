// A tiny protobuf wire-format writer for hand-made test bodies, written with
// google::protobuf::io::CodedOutputStream.
#pragma once

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace kcm::local::protobuf::testing {

class ProtoWriter {
 public:
  // Field `number` as a varint (int32, int64, bool, enum-like numbers).
  ProtoWriter& varint(int number, std::uint64_t v) {
    tag(number, 0);
    raw_varint(v);
    return *this;
  }
  // Field `number` as a length-delimited string, bytes or message.
  ProtoWriter& bytes(int number, std::string_view s) {
    tag(number, 2);
    raw_varint(s.size());
    out_.append(s);
    return *this;
  }
  ProtoWriter& message(int number, const ProtoWriter& m) { return bytes(number, m.str()); }
  // Field `number` as fixed64 (double).
  ProtoWriter& fixed64(int number, std::uint64_t v) {
    tag(number, 1);
    std::string s;
    {
      google::protobuf::io::StringOutputStream sink(&s);
      google::protobuf::io::CodedOutputStream out(&sink);
      out.WriteLittleEndian64(v);
    }
    out_.append(s);
    return *this;
  }
  // Any tag with any wire type, for malformed input.
  ProtoWriter& tag(int number, int wire_type) {
    raw_varint((static_cast<std::uint64_t>(number) << 3) | static_cast<std::uint64_t>(wire_type));
    return *this;
  }
  ProtoWriter& raw_varint(std::uint64_t v) {
    std::string s;
    {
      google::protobuf::io::StringOutputStream sink(&s);
      google::protobuf::io::CodedOutputStream out(&sink);
      out.WriteVarint64(v);
    }
    out_.append(s);
    return *this;
  }
  ProtoWriter& raw(std::string_view s) {
    out_.append(s);
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

// "k8s\0" + Unknown{TypeMeta{apiVersion, kind}, raw}.
inline std::string envelope(std::string_view api_version, std::string_view kind,
                            const ProtoWriter& object) {
  ProtoWriter type_meta;
  type_meta.bytes(1, api_version).bytes(2, kind);
  ProtoWriter unknown;
  unknown.message(1, type_meta).bytes(2, object.str()).bytes(3, "").bytes(4, "");
  return std::string("k8s\0", 4) + unknown.str();
}

}  // namespace kcm::local::protobuf::testing
