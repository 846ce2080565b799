#include "local/storage/record_codec.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <boost/crc.hpp>
#include <cerrno>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace kcm::local::storage {
namespace {

using Crc32c = boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true>;

#if defined(__x86_64__)
// SSE4.2's crc32 instruction computes CRC-32C, eight bytes at a time (a
// little-endian load keeps the reflected CRC's byte order).
__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(std::string_view bytes) {
  const char* p = bytes.data();
  std::size_t n = bytes.size();
  std::uint64_t crc = 0xFFFFFFFFu;
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    crc = _mm_crc32_u64(crc, word);
  }
  auto c = static_cast<std::uint32_t>(crc);
  for (; n > 0; ++p, --n)
    c = _mm_crc32_u8(c, static_cast<unsigned char>(*p));
  return c ^ 0xFFFFFFFFu;
}

bool cpu_has_sse42() {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

constexpr std::uint8_t kFormatVersion = 1;
constexpr std::size_t kReadAhead = 1 << 20;

FrameCheck torn(std::string reason) {
  return {FrameCheck::Status::kTorn, 0, std::move(reason)};
}

FrameCheck malformed(std::string reason) {
  return {FrameCheck::Status::kMalformed, 0, std::move(reason)};
}

// Decodes a payload whose checksum already matched.
FrameCheck decode_payload(std::string_view p, Record* record) {
  if (p.size() < kPayloadFixedBytes) {
    return malformed(fmt::format("payload of {} bytes is shorter than the {}-byte record header",
                                 p.size(), kPayloadFixedBytes));
  }
  const auto format = static_cast<std::uint8_t>(p[0]);
  if (format != kFormatVersion) {
    return malformed(fmt::format("unsupported record format version {}", format));
  }
  const auto op = static_cast<std::uint8_t>(p[1]);
  if (op != static_cast<std::uint8_t>(Record::Op::kPut) &&
      op != static_cast<std::uint8_t>(Record::Op::kDelete)) {
    return malformed(fmt::format("unknown record op {}", op));
  }
  const std::uint64_t revision = get_u64(p.data() + 2);
  const std::uint64_t resource_len = get_u32(p.data() + 10);
  const std::uint64_t key_len = get_u32(p.data() + 14);
  const std::uint64_t value_len = get_u32(p.data() + 18);
  // Sums of three u32 values cannot overflow a u64.
  if (kPayloadFixedBytes + resource_len + key_len + value_len != p.size()) {
    return malformed(fmt::format("field lengths {}+{}+{} do not match the payload length {}",
                                 resource_len, key_len, value_len, p.size()));
  }
  record->op = static_cast<Record::Op>(op);
  record->revision = revision;
  const char* data = p.data() + kPayloadFixedBytes;
  record->resource.assign(data, resource_len);
  record->key.assign(data + resource_len, key_len);
  record->value.assign(data + resource_len + key_len, value_len);
  return {FrameCheck::Status::kOk, kFrameHeaderBytes + p.size(), {}};
}

}  // namespace

std::uint32_t crc32c(std::string_view bytes) {
#if defined(__x86_64__)
  if (cpu_has_sse42()) return crc32c_sse42(bytes);
#endif
  return crc32c_portable(bytes);
}

std::uint32_t crc32c_portable(std::string_view bytes) {
  Crc32c crc;
  crc.process_bytes(bytes.data(), bytes.size());
  return crc.checksum();
}

std::size_t encoded_size(const RecordView& record) {
  return kFrameHeaderBytes + kPayloadFixedBytes + record.resource.size() + record.key.size() +
         record.value.size();
}

void encode_record(const RecordView& record, std::string* out) {
  const std::size_t start = out->size();
  const std::size_t payload_len = encoded_size(record) - kFrameHeaderBytes;
  out->resize(start + kFrameHeaderBytes);  // header filled in once the payload is known
  out->push_back(static_cast<char>(kFormatVersion));
  out->push_back(static_cast<char>(record.op));
  put_u64(out, record.revision);
  put_u32(out, static_cast<std::uint32_t>(record.resource.size()));
  put_u32(out, static_cast<std::uint32_t>(record.key.size()));
  put_u32(out, static_cast<std::uint32_t>(record.value.size()));
  out->append(record.resource);
  out->append(record.key);
  out->append(record.value);

  std::string header;
  header.reserve(kFrameHeaderBytes);
  put_u32(&header, kFrameMagic);
  put_u32(&header, static_cast<std::uint32_t>(payload_len));
  put_u32(&header, crc32c(std::string_view(*out).substr(start + kFrameHeaderBytes)));
  put_u32(&header, crc32c(header));
  std::memcpy(out->data() + start, header.data(), kFrameHeaderBytes);
}

FrameCheck decode_frame(std::string_view bytes, Record* record) {
  if (bytes.empty()) return {};
  if (bytes.size() < kFrameHeaderBytes) {
    return torn(
        fmt::format("incomplete record header ({} of {} bytes)", bytes.size(), kFrameHeaderBytes));
  }
  const char* h = bytes.data();
  if (get_u32(h) != kFrameMagic) return torn("bad record magic");
  if (get_u32(h + 12) != crc32c(bytes.substr(0, 12)))
    return torn("record header checksum mismatch");
  const std::uint64_t payload_len = get_u32(h + 4);
  if (payload_len > kMaxPayloadBytes) {
    return torn(fmt::format("record length {} exceeds the limit of {} bytes", payload_len,
                            kMaxPayloadBytes));
  }
  if (payload_len > bytes.size() - kFrameHeaderBytes) {
    return torn(fmt::format("record of {} bytes extends past the end of the file ({} bytes left)",
                            payload_len, bytes.size() - kFrameHeaderBytes));
  }
  const std::string_view payload = bytes.substr(kFrameHeaderBytes, payload_len);
  if (get_u32(h + 8) != crc32c(payload)) return torn("record checksum mismatch");
  return decode_payload(payload, record);
}

std::string errno_text() {
  return std::strerror(errno);
}

kcm::Result<void> read_exact(int fd, std::uint64_t offset, char* out, std::size_t n) {
  while (n > 0) {
    const ssize_t got = ::pread(fd, out, n, static_cast<off_t>(offset));
    if (got < 0) {
      if (errno == EINTR) continue;
      return kcm::fail(fmt::format("read at offset {}: {}", offset, std::strerror(errno)));
    }
    if (got == 0) return kcm::fail(fmt::format("unexpected end of file at offset {}", offset));
    out += got;
    offset += static_cast<std::uint64_t>(got);
    n -= static_cast<std::size_t>(got);
  }
  return {};
}

kcm::Result<void> write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return kcm::fail(fmt::format("write: {}", std::strerror(errno)));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

kcm::Result<void> sync_directory(const std::filesystem::path& dir) {
  FileDescriptor fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) {
    return kcm::fail(fmt::format("open directory {}: {}", dir.string(), std::strerror(errno)));
  }
  if (::fsync(fd.get()) != 0) {
    return kcm::fail(fmt::format("fsync directory {}: {}", dir.string(), std::strerror(errno)));
  }
  return {};
}

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

kcm::Result<void> FileDescriptor::close() {
  if (fd_ < 0) return {};
  // Linux releases the descriptor even when close fails, so never retry.
  const int rc = ::close(std::exchange(fd_, -1));
  if (rc != 0 && errno != EINTR) return kcm::fail(fmt::format("close: {}", std::strerror(errno)));
  return {};
}

FrameReader::FrameReader(int fd, std::uint64_t file_size, std::uint64_t start_offset)
    : fd_(fd), file_size_(file_size), offset_(start_offset), buffer_offset_(start_offset) {}

kcm::Result<void> FrameReader::fill(std::size_t n) {
  const std::uint64_t left = file_size_ - offset_;
  const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(n, left));
  const std::size_t have = static_cast<std::size_t>(buffer_offset_ + buffer_.size() - offset_);
  if (have >= want) return {};
  // Drop consumed bytes, then read at least what is missing (and a read-ahead chunk).
  buffer_.erase(0, static_cast<std::size_t>(offset_ - buffer_offset_));
  buffer_offset_ = offset_;
  const std::uint64_t end = buffer_offset_ + buffer_.size();
  const std::size_t extra = static_cast<std::size_t>(
      std::min<std::uint64_t>(std::max(want - have, kReadAhead), file_size_ - end));
  const std::size_t old = buffer_.size();
  buffer_.resize(old + extra);
  if (auto r = read_exact(fd_, end, buffer_.data() + old, extra); !r) {
    buffer_.resize(old);
    return r;
  }
  return {};
}

kcm::Result<FrameCheck> FrameReader::next(Record* record) {
  if (auto r = fill(kFrameHeaderBytes); !r) return kcm::fail(r.error());
  std::string_view avail =
      std::string_view(buffer_).substr(static_cast<std::size_t>(offset_ - buffer_offset_));
  if (avail.size() >= kFrameHeaderBytes && get_u32(avail.data()) == kFrameMagic) {
    // Only a header whose checksum matches is trusted for its length.
    const std::uint64_t payload_len = get_u32(avail.data() + 4);
    if (get_u32(avail.data() + 12) == crc32c(avail.substr(0, 12)) &&
        payload_len <= kMaxPayloadBytes) {
      if (auto r = fill(kFrameHeaderBytes + payload_len); !r) return kcm::fail(r.error());
      avail = std::string_view(buffer_).substr(static_cast<std::size_t>(offset_ - buffer_offset_));
    }
  }
  FrameCheck check = decode_frame(avail, record);
  if (check.status == FrameCheck::Status::kOk) offset_ += check.size;
  return check;
}

kcm::Result<std::optional<std::uint64_t>> find_valid_frame_after(int fd, std::uint64_t file_size,
                                                                 std::uint64_t from) {
  const std::string magic = [] {
    std::string m;
    put_u32(&m, kFrameMagic);
    return m;
  }();
  std::string window;
  Record scratch;
  std::uint64_t pos = from + 1;
  while (pos + kFrameHeaderBytes <= file_size) {
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(kReadAhead, file_size - pos));
    window.resize(n);
    if (auto r = read_exact(fd, pos, window.data(), n); !r) return kcm::fail(r.error());
    for (std::size_t i = window.find(magic); i != std::string::npos;
         i = window.find(magic, i + 1)) {
      const std::uint64_t at = pos + i;
      if (at + kFrameHeaderBytes > file_size) break;
      char header[kFrameHeaderBytes];
      if (auto r = read_exact(fd, at, header, sizeof header); !r) return kcm::fail(r.error());
      const std::uint64_t payload_len = get_u32(header + 4);
      if (get_u32(header + 12) != crc32c(std::string_view(header, 12)) ||
          payload_len > kMaxPayloadBytes || payload_len > file_size - at - kFrameHeaderBytes) {
        continue;
      }
      std::string frame(kFrameHeaderBytes + payload_len, '\0');
      if (auto r = read_exact(fd, at, frame.data(), frame.size()); !r) return kcm::fail(r.error());
      if (decode_frame(frame, &scratch).status != FrameCheck::Status::kTorn) return {at};
    }
    if (n < kReadAhead) break;
    pos += n - (magic.size() - 1);  // overlap so a magic across the window edge is seen
  }
  return {std::nullopt};
}

}  // namespace kcm::local::storage
