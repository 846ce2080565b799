// The durable log under kcm-local's in-memory store: every write is appended to a
// segmented write-ahead log with group commit (one fsync covers every record buffered
// since the previous one); snapshots bound the log, and recovery replays snapshot + tail.
//
// Directory layout:
//   wal-<16 hex segment number>.log      records (record_codec.h), in revision order
//   snapshot-<16 hex revision>.snap      full state at a revision (snapshot_file.h)
//   LOCK                                  flock()ed while open, so two processes cannot
//                                         write the same log
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "api/result.h"
#include "local/storage/record_codec.h"

namespace kcm::local::storage {

struct WalOptions {
  std::size_t segment_bytes = 64 << 20;  // rotate the active segment after this size
  bool fsync = true;                     // tests may turn it off for speed

  // Test hooks, run on the flusher thread. `on_sync` runs after every successful data
  // sync of a segment. `inject_write_errno`, when it returns non-zero, makes the next
  // segment write fail with that errno (e.g. ENOSPC).
  std::function<void()> on_sync;
  std::function<int()> inject_write_errno;
};

struct Recovery {
  std::uint64_t snapshot_revision = 0;  // 0 when there is no snapshot
  std::vector<Record> snapshot;         // full state at snapshot_revision (kPut records)
  std::vector<Record> tail;             // records after the snapshot, in revision order
  std::vector<std::string> warnings;    // e.g. a truncated tail that was cut off
};

class WriteAheadLog {
 public:
  using DurableCallback = std::function<void(const kcm::Result<void>&)>;

  // Opens (creating if needed) the log in `dir` and recovers its content into *recovery.
  // A torn or corrupt record at the very end of the last segment (a crash mid-write) is
  // truncated away and reported in recovery->warnings with the file and offset. A corrupt
  // record followed by valid data, a missing segment in the sequence, or a corrupt
  // snapshot is an error naming the file and offset.
  static kcm::Result<std::unique_ptr<WriteAheadLog>> open(const std::filesystem::path& dir,
                                                          const WalOptions& options,
                                                          Recovery* recovery);
  ~WriteAheadLog();  // flushes and stops the flusher thread

  WriteAheadLog(const WriteAheadLog&) = delete;
  WriteAheadLog& operator=(const WriteAheadLog&) = delete;

  // Appends a record; only buffers. Callers serialize appends and assign strictly
  // increasing revisions. `on_durable` runs on the flusher thread, in append order, once
  // the record and everything before it is synced. It must not block on this log (e.g.
  // call finish_snapshot) nor throw.
  //
  // Errors reach on_durable: a revision not above the last appended one or a record
  // larger than kMaxPayloadBytes is rejected (and not written). A failed write or sync
  // leaves the log failed: that record and every later one get the error, so what is on
  // disk stays a prefix of what was appended. Reopen the log to recover from it.
  void append(Record record, DurableCallback on_durable);
  // The same for a record whose bytes `owner` keeps alive until it is written: the
  // store logs its objects' JSON without copying it.
  void append(RecordView record, std::shared_ptr<const void> owner, DurableCallback on_durable);

  // Snapshots. begin_snapshot(rev) is called under the caller's lock, right after the
  // append of revision `rev`, and starts a new segment so that the cut is exact.
  // finish_snapshot then writes `state` (the complete object set at `rev`), fsyncs it and
  // the directory, atomically installs it, and deletes segments wholly covered by it.
  struct SnapshotCut {
    std::uint64_t revision;
    std::uint64_t first_segment_after;  // 0 when the cut is unusable (see finish_snapshot)
    std::uint64_t last_appended_revision = 0;
    std::uint64_t bytes_at_cut = 0;
  };
  SnapshotCut begin_snapshot(std::uint64_t revision);
  // Fails, keeping every segment, when the cut revision is below a revision already
  // appended, when the log has failed, or when the snapshot cannot be written. A cut at or
  // below the installed snapshot's revision is a no-op. Waits for the flusher to reach
  // the cut's segment, so it must not run on the flusher thread.
  kcm::Result<void> finish_snapshot(const SnapshotCut& cut, const std::vector<Record>& state);
  kcm::Result<void> finish_snapshot(const SnapshotCut& cut, std::span<const RecordView> state);

  std::uint64_t bytes_since_snapshot() const;  // so the caller can decide when to compact
  std::uint64_t last_durable_revision() const;

  // Number of data syncs issued so far (metrics and tests).
  std::uint64_t sync_count() const;

  // "wal-<16 lowercase hex digits>.log".
  static std::string segment_file_name(std::uint64_t segment);

 private:
  class Impl;
  // Only open() can name this, so only open() can construct a log.
  class PassKey {
    PassKey() = default;
    friend class WriteAheadLog;
  };

 public:
  WriteAheadLog(PassKey, std::unique_ptr<Impl> impl);  // use open()

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kcm::local::storage
