// The on-disk framing of a storage record, shared by WAL segments and snapshot files.
//
// A frame is a 16-byte header followed by the payload, all integers little-endian:
//
//   u32 magic            kFrameMagic; its bytes are "KWL\0" so a frame can never sit inside
//                        JSON text (which has no raw NUL), only at a real record boundary
//   u32 payload_length   at most kMaxPayloadBytes
//   u32 payload_crc      CRC-32C of the payload
//   u32 header_crc       CRC-32C of the 12 bytes above, so a damaged length is detected
//                        before it is trusted
//
//   payload: u8 format (1), u8 op, u64 revision, u32 resource length, u32 key length,
//            u32 value length, then the resource, key and value bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "api/result.h"

namespace kcm::local::storage {

struct Record {
  enum class Op : std::uint8_t { kPut = 1, kDelete = 2 };
  Op op = Op::kPut;
  std::uint64_t revision = 0;  // the global resourceVersion of this write, strictly increasing
  std::string resource;        // e.g. "apps/deployments", "core/pods"
  std::string key;             // "namespace/name" or "name" for cluster-scoped objects
  std::string value;           // object JSON; for kDelete the object's final state

  friend bool operator==(const Record&, const Record&) = default;
};

// A record whose bytes live elsewhere (snapshots are written from the store's
// objects without copying them).
struct RecordView {
  Record::Op op = Record::Op::kPut;
  std::uint64_t revision = 0;
  std::string_view resource;
  std::string_view key;
  std::string_view value;
};
inline RecordView view_of(const Record& r) {
  return {r.op, r.revision, r.resource, r.key, r.value};
}

inline constexpr std::uint32_t kFrameMagic = 0x004C574B;  // "KWL\0"
inline constexpr std::size_t kFrameHeaderBytes = 16;
inline constexpr std::size_t kPayloadFixedBytes = 22;
// Far above any API object (the API server caps requests at a few MiB); a larger length
// in a header is treated as corruption, so a damaged file cannot make recovery allocate
// more than this per record.
inline constexpr std::size_t kMaxPayloadBytes = 64u << 20;

// The little-endian integers of frames and snapshot headers: put_* appends to
// *out, get_* reads from `p`, which must hold 4 (8) bytes.
inline void put_u32(std::string* out, std::uint32_t v) {
  char b[4];
  for (int i = 0; i < 4; ++i)
    b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  out->append(b, 4);
}
inline void put_u64(std::string* out, std::uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i)
    b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  out->append(b, 8);
}
inline std::uint32_t get_u32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | static_cast<std::uint8_t>(p[i]);
  return v;
}
inline std::uint64_t get_u64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | static_cast<std::uint8_t>(p[i]);
  return v;
}

// CRC-32C (Castagnoli) of `bytes`: with the CPU's crc32 instruction where
// there is one (x86-64 with SSE4.2), else crc32c_portable.
std::uint32_t crc32c(std::string_view bytes);
// The same with Boost's table-driven CRC on any CPU (the two must agree).
std::uint32_t crc32c_portable(std::string_view bytes);

// Size of the frame encode_record() appends for `record`.
std::size_t encoded_size(const RecordView& record);
inline std::size_t encoded_size(const Record& record) {
  return encoded_size(view_of(record));
}

// Appends the frame of `record` to *out. The caller checks encoded_size() against
// kMaxPayloadBytes + kFrameHeaderBytes first.
void encode_record(const RecordView& record, std::string* out);
inline void encode_record(const Record& record, std::string* out) {
  encode_record(view_of(record), out);
}

// What one attempt to decode a frame at some offset found.
struct FrameCheck {
  enum class Status {
    kOk,         // a complete, valid frame; `record` and `size` are set
    kEnd,        // no bytes left: a clean end
    kTorn,       // damaged or incomplete: a crash mid-write, or corruption; see `reason`
    kMalformed,  // checksums match but the content is not a record we can read
  };
  Status status = Status::kEnd;
  std::size_t size = 0;  // bytes of the frame (header + payload) when kOk
  std::string reason;    // for kTorn and kMalformed
};

// Decodes the frame at the start of `bytes` into *record. `bytes` holds everything up to
// the end of the file, or at least kFrameHeaderBytes + the payload length.
FrameCheck decode_frame(std::string_view bytes, Record* record);

// Reads frames sequentially from an open file with a read-ahead buffer. Lengths are
// checked against the file size before anything is allocated.
class FrameReader {
 public:
  // `fd` stays owned by the caller; `file_size` bounds every read.
  FrameReader(int fd, std::uint64_t file_size, std::uint64_t start_offset);

  // Decodes the next frame. On kOk the reader moves past it; otherwise it stays at the
  // offset of the bad frame. A read error is returned as an error message.
  kcm::Result<FrameCheck> next(Record* record);

  std::uint64_t offset() const { return offset_; }

 private:
  // Makes at least min(n, bytes left in file) bytes from offset_ available in buffer_.
  kcm::Result<void> fill(std::size_t n);

  int fd_;
  std::uint64_t file_size_;
  std::uint64_t offset_;
  std::string buffer_;  // file bytes [buffer_offset_, buffer_offset_ + buffer_.size())
  std::uint64_t buffer_offset_;
};

// Offset of the first valid frame that starts after `from` in the file, if any: used to
// tell a torn tail (nothing valid follows) from corruption in the middle of a log.
kcm::Result<std::optional<std::uint64_t>> find_valid_frame_after(int fd, std::uint64_t file_size,
                                                                 std::uint64_t from);

// File helpers shared by the WAL and the snapshot file. Messages carry the errno text;
// callers add the file name.

// Bytes the WAL and the snapshot writer buffer before each write().
inline constexpr std::size_t kWriteChunk = 1 << 20;

// strerror(errno), for messages about the system call that just failed.
std::string errno_text();

// Reads exactly `n` bytes at `offset` (looping over short reads).
kcm::Result<void> read_exact(int fd, std::uint64_t offset, char* out, std::size_t n);

// Writes all of `bytes` at the current file offset (looping over short writes).
kcm::Result<void> write_all(int fd, std::string_view bytes);

// fsyncs a directory so that creates, renames and unlinks in it are durable.
kcm::Result<void> sync_directory(const std::filesystem::path& dir);

// An owned file descriptor, closed on destruction.
class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor();

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  // Closes now and reports a close error (which can carry a deferred write error).
  kcm::Result<void> close();

 private:
  int fd_ = -1;
};

}  // namespace kcm::local::storage
