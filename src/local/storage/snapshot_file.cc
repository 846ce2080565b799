#include "local/storage/snapshot_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kcm::local::storage {
namespace {

constexpr std::string_view kMagic("KCMSNAP\0", 8);
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 44;
constexpr std::string_view kPrefix = "snapshot-";
constexpr std::string_view kSuffix = ".snap";

kcm::Result<void> write_body(int fd, std::uint64_t revision, std::uint64_t first_segment_after,
                             std::span<const RecordView> records) {
  std::string buf;
  buf.reserve(kWriteChunk + kHeaderBytes);
  buf.append(kMagic);
  put_u32(&buf, kVersion);
  put_u32(&buf, 0);
  put_u64(&buf, revision);
  put_u64(&buf, first_segment_after);
  put_u64(&buf, records.size());
  put_u32(&buf, crc32c(buf));
  for (const RecordView& r : records) {
    encode_record(r, &buf);
    if (buf.size() >= kWriteChunk) {
      if (auto w = write_all(fd, buf); !w) return w;
      buf.clear();
    }
  }
  return write_all(fd, buf);
}

}  // namespace

std::string snapshot_file_name(std::uint64_t revision) {
  return fmt::format("{}{:016x}{}", kPrefix, revision, kSuffix);
}

std::optional<std::uint64_t> parse_snapshot_file_name(std::string_view name) {
  if (name.size() != kPrefix.size() + 16 + kSuffix.size() || !name.starts_with(kPrefix) ||
      !name.ends_with(kSuffix)) {
    return std::nullopt;
  }
  std::uint64_t v = 0;
  for (const char c : name.substr(kPrefix.size(), 16)) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else {
      return std::nullopt;
    }
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  return v;
}

kcm::Result<std::filesystem::path> write_snapshot_file(const std::filesystem::path& dir,
                                                       std::uint64_t revision,
                                                       std::uint64_t first_segment_after,
                                                       const std::vector<Record>& records,
                                                       bool sync) {
  std::vector<RecordView> views;
  views.reserve(records.size());
  for (const Record& r : records)
    views.push_back(view_of(r));
  return write_snapshot_file(dir, revision, first_segment_after, views, sync);
}

kcm::Result<std::filesystem::path> write_snapshot_file(const std::filesystem::path& dir,
                                                       std::uint64_t revision,
                                                       std::uint64_t first_segment_after,
                                                       std::span<const RecordView> records,
                                                       bool sync) {
  for (const RecordView& r : records) {
    if (r.op != Record::Op::kPut) {
      return kcm::fail(fmt::format("snapshot at revision {}: record {} {} is not a put", revision,
                                   r.resource, r.key));
    }
    if (r.revision > revision) {
      return kcm::fail(fmt::format("snapshot at revision {}: record {} {} has later revision {}",
                                   revision, r.resource, r.key, r.revision));
    }
    if (encoded_size(r) > kFrameHeaderBytes + kMaxPayloadBytes) {
      return kcm::fail(fmt::format("snapshot at revision {}: record {} {} exceeds {} bytes",
                                   revision, r.resource, r.key, kMaxPayloadBytes));
    }
  }
  const std::filesystem::path final_path = dir / snapshot_file_name(revision);
  std::filesystem::path temp_path = final_path;
  temp_path += kTempSuffix;

  FileDescriptor fd(::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (!fd.valid()) return kcm::fail(fmt::format("create {}: {}", temp_path.string(), errno_text()));
  auto fail_and_remove = [&](const std::string& what) -> kcm::Result<std::filesystem::path> {
    static_cast<void>(fd.close());  // the write already failed; this error adds nothing
    std::error_code ignored;
    std::filesystem::remove(temp_path, ignored);
    return kcm::fail(fmt::format("{}: {}", temp_path.string(), what));
  };
  if (auto w = write_body(fd.get(), revision, first_segment_after, records); !w) {
    return fail_and_remove(w.error());
  }
  if (sync && ::fdatasync(fd.get()) != 0) return fail_and_remove("fdatasync: " + errno_text());
  if (auto c = fd.close(); !c) return fail_and_remove(c.error());
  if (::rename(temp_path.c_str(), final_path.c_str()) != 0) {
    return fail_and_remove(fmt::format("rename to {}: {}", final_path.string(), errno_text()));
  }
  if (sync) {
    // Until the directory is synced the rename may not survive a crash; the caller must
    // not delete what the snapshot replaces before this succeeds.
    if (auto d = sync_directory(dir); !d) return kcm::fail(d.error());
  }
  return final_path;
}

kcm::Result<SnapshotContents> read_snapshot_file(const std::filesystem::path& path) {
  const std::string name = path.string();
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) return kcm::fail(fmt::format("open {}: {}", name, errno_text()));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return kcm::fail(fmt::format("stat {}: {}", name, errno_text()));
  const auto file_size = static_cast<std::uint64_t>(st.st_size);
  if (file_size < kHeaderBytes) {
    return kcm::fail(
        fmt::format("{}: corrupt snapshot at offset 0: file of {} bytes is shorter "
                    "than the {}-byte header",
                    name, file_size, kHeaderBytes));
  }
  char h[kHeaderBytes];
  if (auto r = read_exact(fd.get(), 0, h, kHeaderBytes); !r) {
    return kcm::fail(fmt::format("{}: {}", name, r.error()));
  }
  if (std::string_view(h, kMagic.size()) != kMagic) {
    return kcm::fail(fmt::format("{}: corrupt snapshot at offset 0: bad magic", name));
  }
  if (get_u32(h + 40) != crc32c(std::string_view(h, 40))) {
    return kcm::fail(
        fmt::format("{}: corrupt snapshot at offset 0: header checksum mismatch", name));
  }
  if (const std::uint32_t version = get_u32(h + 8); version != kVersion) {
    return kcm::fail(
        fmt::format("{}: unsupported snapshot format version {} at offset 8", name, version));
  }
  SnapshotContents out;
  out.revision = get_u64(h + 16);
  out.first_segment_after = get_u64(h + 24);
  const std::uint64_t count = get_u64(h + 32);
  if (const auto named = parse_snapshot_file_name(path.filename().string());
      named && *named != out.revision) {
    return kcm::fail(
        fmt::format("{}: header revision {} does not match the file name", name, out.revision));
  }
  // Every frame takes at least this much, so the count cannot promise more than the file holds.
  const std::uint64_t min_frame = kFrameHeaderBytes + kPayloadFixedBytes;
  if (count > (file_size - kHeaderBytes) / min_frame) {
    return kcm::fail(
        fmt::format("{}: corrupt snapshot at offset 32: {} records cannot fit in {} "
                    "bytes",
                    name, count, file_size));
  }
  out.records.reserve(static_cast<std::size_t>(count));
  FrameReader reader(fd.get(), file_size, kHeaderBytes);
  for (std::uint64_t i = 0; i < count; ++i) {
    Record record;
    const std::uint64_t at = reader.offset();
    auto check = reader.next(&record);
    if (!check) return kcm::fail(fmt::format("{}: {}", name, check.error()));
    if (check->status == FrameCheck::Status::kEnd) {
      return kcm::fail(fmt::format("{}: corrupt snapshot at offset {}: ends after {} of {} records",
                                   name, at, i, count));
    }
    if (check->status != FrameCheck::Status::kOk) {
      return kcm::fail(
          fmt::format("{}: corrupt snapshot at offset {}: {}", name, at, check->reason));
    }
    if (record.op != Record::Op::kPut || record.revision > out.revision) {
      return kcm::fail(fmt::format(
          "{}: corrupt snapshot at offset {}: record {} {} is not a put at or before revision {}",
          name, at, record.resource, record.key, out.revision));
    }
    out.records.push_back(std::move(record));
  }
  if (reader.offset() != file_size) {
    return kcm::fail(
        fmt::format("{}: corrupt snapshot at offset {}: {} unexpected bytes after the "
                    "last record",
                    name, reader.offset(), file_size - reader.offset()));
  }
  return out;
}

}  // namespace kcm::local::storage
