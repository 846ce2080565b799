#include "local/protobuf/wire_reader.h"

#include <fmt/format.h>
#include <google/protobuf/io/coded_stream.h>

#include <limits>

namespace kcm::local::protobuf {

namespace {

using google::protobuf::io::CodedInputStream;

constexpr std::size_t kMaxVarintBytes = 10;

CodedInputStream stream_over(std::string_view data) {
  // Bodies are limited far below 2 GiB by the server; clamp to be safe.
  const std::size_t size = std::min<std::size_t>(data.size(), std::numeric_limits<int>::max());
  return CodedInputStream(reinterpret_cast<const std::uint8_t*>(data.data()),
                          static_cast<int>(size));
}

// Why a varint could not be read at the start of `data`: it runs past the
// end (Go: io.ErrUnexpectedEOF) or past ten bytes (ErrIntOverflowGenerated).
std::string varint_failure(std::string_view data) {
  return data.size() < kMaxVarintBytes ? "unexpected EOF" : "proto: integer overflow";
}

}  // namespace

WireReader::WireReader(std::string_view message, std::size_t base_offset, std::string_view go_type)
    : message_(message), base_(base_offset), go_type_(go_type) {}

WireError WireReader::error(std::string message, std::size_t at) const {
  return WireError{std::move(message), base_ + at};
}

Result<std::uint64_t, WireError> WireReader::read_varint() {
  const std::string_view rest = message_.substr(pos_);
  CodedInputStream in = stream_over(rest);
  std::uint64_t v = 0;
  if (!in.ReadVarint64(&v)) return fail(error(varint_failure(rest), pos_));
  pos_ += static_cast<std::size_t>(in.CurrentPosition());
  return v;
}

Result<std::optional<WireField>, WireError> WireReader::next() {
  if (stopped_ || pos_ >= message_.size()) return std::optional<WireField>{};
  WireField f;
  f.offset = base_ + pos_;
  auto tag = read_varint();
  if (!tag) return fail(tag.error());
  // Go keeps the number as int32(tag >> 3): huge tags wrap around.
  f.number = static_cast<std::int32_t>(static_cast<std::uint32_t>(*tag >> 3));
  f.wire_type = static_cast<WireType>(*tag & 0x7);
  if (f.wire_type == WireType::kEndGroup) {
    return fail(
        WireError{fmt::format("proto: {}: wiretype end group for non-group", go_type_), f.offset});
  }
  if (f.number <= 0) {
    return fail(WireError{fmt::format("proto: {}: illegal tag {} (wire type {})", go_type_,
                                      f.number, static_cast<int>(f.wire_type)),
                          f.offset});
  }
  f.data_offset = base_ + pos_;
  switch (f.wire_type) {
    case WireType::kVarint: {
      auto v = read_varint();
      if (!v) return fail(v.error());
      f.value = *v;
      break;
    }
    case WireType::kFixed64:
    case WireType::kFixed32: {
      const std::size_t width = f.wire_type == WireType::kFixed64 ? 8 : 4;
      if (message_.size() - pos_ < width) return fail(error("unexpected EOF", pos_));
      CodedInputStream in = stream_over(message_.substr(pos_, width));
      if (width == 8) {
        (void)in.ReadLittleEndian64(&f.value);
      } else {
        std::uint32_t v32 = 0;
        (void)in.ReadLittleEndian32(&v32);
        f.value = v32;
      }
      pos_ += width;
      break;
    }
    case WireType::kLengthDelimited: {
      const std::size_t length_at = pos_;
      auto length = read_varint();
      if (!length) return fail(length.error());
      if (static_cast<std::int64_t>(*length) < 0) {
        return fail(error("proto: negative length found during unmarshaling", length_at));
      }
      if (*length > message_.size() - pos_) return fail(error("unexpected EOF", pos_));
      f.data_offset = base_ + pos_;
      CodedInputStream in = stream_over(message_.substr(pos_));
      if (!in.Skip(static_cast<int>(*length))) return fail(error("unexpected EOF", pos_));
      f.bytes = message_.substr(pos_, static_cast<std::size_t>(*length));
      pos_ += static_cast<std::size_t>(*length);
      break;
    }
    default:
      // Groups and the undefined wire types 6 and 7: no payload we could skip.
      stopped_ = true;
      break;
  }
  return std::optional<WireField>(f);
}

Result<std::vector<std::uint64_t>, WireError> read_packed_varints(std::string_view payload,
                                                                  std::size_t base_offset) {
  std::vector<std::uint64_t> out;
  CodedInputStream in = stream_over(payload);
  while (static_cast<std::size_t>(in.CurrentPosition()) < payload.size()) {
    const auto at = static_cast<std::size_t>(in.CurrentPosition());
    std::uint64_t v = 0;
    if (!in.ReadVarint64(&v)) {
      return fail(WireError{varint_failure(payload.substr(at)), base_offset + at});
    }
    out.push_back(v);
  }
  return out;
}

std::string_view to_string(WireType t) {
  switch (t) {
    case WireType::kVarint:
      return "varint";
    case WireType::kFixed64:
      return "fixed64";
    case WireType::kLengthDelimited:
      return "bytes";
    case WireType::kStartGroup:
      return "start group";
    case WireType::kEndGroup:
      return "end group";
    case WireType::kFixed32:
      return "fixed32";
    case WireType::kInvalid6:
    case WireType::kInvalid7:
      break;
  }
  return "invalid";
}

}  // namespace kcm::local::protobuf
