#include "local/protobuf/envelope.h"

#include <fmt/format.h>

#include "local/protobuf/go_text.h"
#include "local/protobuf/wire_reader.h"

namespace kcm::local::protobuf {

namespace {

std::string with_offset(const WireError& e) {
  return fmt::format("{} (byte {})", e.message, e.offset);
}

// The envelope's errors carry the byte offset in their text (unlike
// message_decoder.cc's, whose DecodeError holds it).
std::string unknown_envelope_field(const WireField& f, std::string_view go_type) {
  return fmt::format("field number {} of {} is not known to this server (byte {})", f.number,
                     go_type, f.offset);
}

std::string wrong_envelope_wire_type(const WireField& f, std::string_view field) {
  return fmt::format("proto: wrong wireType = {} for field {} (byte {})",
                     static_cast<int>(f.wire_type), field, f.offset);
}

Result<void> parse_type_meta(const WireField& tm, Envelope& out) {
  WireReader reader(tm.bytes, tm.data_offset, "runtime.TypeMeta");
  while (true) {
    auto next = reader.next();
    if (!next) return fail(with_offset(next.error()));
    if (!next->has_value()) return {};
    const WireField& f = **next;
    if (f.number != 1 && f.number != 2) return fail(unknown_envelope_field(f, "runtime.TypeMeta"));
    if (f.wire_type != WireType::kLengthDelimited) {
      return fail(wrong_envelope_wire_type(f, f.number == 1 ? "APIVersion" : "Kind"));
    }
    (f.number == 1 ? out.api_version : out.kind) = go_json_text(f.bytes);
  }
}

}  // namespace

Result<Envelope> parse_envelope(std::string_view body) {
  if (body.empty()) return fail("empty data");
  if (body.size() < kProtobufPrefix.size() ||
      body.substr(0, kProtobufPrefix.size()) != kProtobufPrefix) {
    return fail(
        "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
  }
  if (body.size() == kProtobufPrefix.size()) return fail("empty body");
  Envelope out;
  out.raw_offset = body.size();
  WireReader reader(body.substr(kProtobufPrefix.size()), kProtobufPrefix.size(), "runtime.Unknown");
  while (true) {
    auto next = reader.next();
    if (!next) return fail(with_offset(next.error()));
    if (!next->has_value()) break;
    const WireField& f = **next;
    static constexpr std::string_view kNames[] = {"", "TypeMeta", "Raw", "ContentEncoding",
                                                  "ContentType"};
    if (f.number < 1 || f.number > 4) return fail(unknown_envelope_field(f, "runtime.Unknown"));
    if (f.wire_type != WireType::kLengthDelimited) {
      return fail(wrong_envelope_wire_type(f, kNames[f.number]));
    }
    switch (f.number) {
      case 1: {
        auto r = parse_type_meta(f, out);
        if (!r) return fail(r.error());
        break;
      }
      case 2:
        out.raw = f.bytes;
        out.raw_offset = f.data_offset;
        break;
      case 3:
        out.content_encoding = go_json_text(f.bytes);
        break;
      default:
        out.content_type = go_json_text(f.bytes);
        break;
    }
  }
  return out;
}

}  // namespace kcm::local::protobuf
