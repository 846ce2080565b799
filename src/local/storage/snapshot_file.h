// A snapshot file: the complete object set at one revision, written atomically.
//
// Layout (integers little-endian): a 44-byte header
//
//   8 bytes  "KCMSNAP\0"
//   u32      format version (1)
//   u32      reserved (0)
//   u64      revision                the state is exact at this revision
//   u64      first_segment_after     the first WAL segment holding records after it
//   u64      record count
//   u32      CRC-32C of the 40 bytes above
//
// followed by exactly `record count` frames (record_codec.h), all kPut records with
// revisions at or below the snapshot revision, and nothing else.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "local/storage/record_codec.h"

namespace kcm::local::storage {

struct SnapshotContents {
  std::uint64_t revision = 0;
  std::uint64_t first_segment_after = 0;
  std::vector<Record> records;
};

// "snapshot-<16 lowercase hex digits of revision>.snap".
std::string snapshot_file_name(std::uint64_t revision);
// The revision in a snapshot file name, or nullopt when `name` is not one.
std::optional<std::uint64_t> parse_snapshot_file_name(std::string_view name);
// Suffix of a snapshot being written; such files are leftovers of a crash.
inline constexpr std::string_view kTempSuffix = ".tmp";

// Writes the snapshot to `dir/<name>.tmp`, syncs it, renames it into place and syncs the
// directory (the syncs are skipped when `sync` is false). The temp file is removed on
// failure. Returns the installed path. Rejects records that are not kPut or whose revision
// is above `revision`.
kcm::Result<std::filesystem::path> write_snapshot_file(const std::filesystem::path& dir,
                                                       std::uint64_t revision,
                                                       std::uint64_t first_segment_after,
                                                       std::span<const RecordView> records,
                                                       bool sync);
kcm::Result<std::filesystem::path> write_snapshot_file(const std::filesystem::path& dir,
                                                       std::uint64_t revision,
                                                       std::uint64_t first_segment_after,
                                                       const std::vector<Record>& records,
                                                       bool sync);

// Reads and fully validates a snapshot file. Any damage is an error naming the file and
// the offset.
kcm::Result<SnapshotContents> read_snapshot_file(const std::filesystem::path& path);

}  // namespace kcm::local::storage
