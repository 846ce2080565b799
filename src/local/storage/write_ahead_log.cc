#include "local/storage/write_ahead_log.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "local/storage/snapshot_file.h"

namespace kcm::local::storage {
namespace {

constexpr std::string_view kSegmentPrefix = "wal-";
constexpr std::string_view kSegmentSuffix = ".log";
constexpr std::string_view kSnapshotTempSuffix = ".snap.tmp";

std::optional<std::uint64_t> parse_hex16(std::string_view s) {
  if (s.size() != 16) return std::nullopt;
  std::uint64_t v = 0;
  for (const char c : s) {
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

std::optional<std::uint64_t> parse_segment_file_name(std::string_view name) {
  if (!name.starts_with(kSegmentPrefix) || !name.ends_with(kSegmentSuffix)) return std::nullopt;
  name.remove_prefix(kSegmentPrefix.size());
  name.remove_suffix(kSegmentSuffix.size());
  return parse_hex16(name);
}

kcm::Result<std::uint64_t> file_size(int fd, const std::filesystem::path& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0)
    return kcm::fail(fmt::format("stat {}: {}", path.string(), errno_text()));
  return static_cast<std::uint64_t>(st.st_size);
}

// What the directory holds, by kind.
struct Listing {
  std::map<std::uint64_t, std::filesystem::path> segments;
  std::map<std::uint64_t, std::filesystem::path> snapshots;
  std::vector<std::filesystem::path> snapshot_temps;
};

kcm::Result<Listing> list_directory(const std::filesystem::path& dir) {
  Listing out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (const auto seg = parse_segment_file_name(name)) {
      out.segments.emplace(*seg, it->path());
    } else if (const auto rev = parse_snapshot_file_name(name)) {
      out.snapshots.emplace(*rev, it->path());
    } else if (name.starts_with("snapshot-") && name.ends_with(kSnapshotTempSuffix)) {
      out.snapshot_temps.push_back(it->path());
    }
  }
  if (ec) return kcm::fail(fmt::format("list {}: {}", dir.string(), ec.message()));
  return out;
}

kcm::Result<void> remove_file(const std::filesystem::path& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return kcm::fail(fmt::format("remove {}: {}", path.string(), errno_text()));
  }
  return {};
}

// Replays one segment into *tail. Only the last segment may end in a torn record, which
// is then cut off (and reported in *warnings).
kcm::Result<std::uint64_t> replay_segment(const std::filesystem::path& path, bool last, bool sync,
                                          std::uint64_t* last_revision, std::vector<Record>* tail,
                                          std::vector<std::string>* warnings) {
  const std::string name = path.string();
  FileDescriptor fd(::open(path.c_str(), (last ? O_RDWR : O_RDONLY) | O_CLOEXEC));
  if (!fd.valid()) return kcm::fail(fmt::format("open {}: {}", name, errno_text()));
  auto size = file_size(fd.get(), path);
  if (!size) return kcm::fail(size.error());
  FrameReader reader(fd.get(), *size, 0);
  for (;;) {
    const std::uint64_t at = reader.offset();
    Record record;
    auto check = reader.next(&record);
    if (!check) return kcm::fail(fmt::format("{}: {}", name, check.error()));
    switch (check->status) {
      case FrameCheck::Status::kOk:
        if (record.revision <= *last_revision) {
          return kcm::fail(fmt::format("{}: record at offset {} has revision {}, not after {}",
                                       name, at, record.revision, *last_revision));
        }
        *last_revision = record.revision;
        tail->push_back(std::move(record));
        continue;
      case FrameCheck::Status::kEnd:
        return *size;
      case FrameCheck::Status::kMalformed:
        return kcm::fail(
            fmt::format("{}: corrupt record at offset {}: {}", name, at, check->reason));
      case FrameCheck::Status::kTorn:
        break;
    }
    if (!last) {
      return kcm::fail(fmt::format("{}: corrupt record at offset {}: {} (not the last segment)",
                                   name, at, check->reason));
    }
    auto next_valid = find_valid_frame_after(fd.get(), *size, at);
    if (!next_valid) return kcm::fail(fmt::format("{}: {}", name, next_valid.error()));
    if (*next_valid) {
      return kcm::fail(
          fmt::format("{}: corrupt record at offset {}: {}; a valid record follows "
                      "at offset {}",
                      name, at, check->reason, **next_valid));
    }
    if (::ftruncate(fd.get(), static_cast<off_t>(at)) != 0) {
      return kcm::fail(fmt::format("truncate {} to {} bytes: {}", name, at, errno_text()));
    }
    if (sync && ::fdatasync(fd.get()) != 0) {
      return kcm::fail(fmt::format("fdatasync {}: {}", name, errno_text()));
    }
    warnings->push_back(fmt::format("{}: cut off {} bytes of a torn record at offset {}: {}", name,
                                    *size - at, at, check->reason));
    return at;
  }
}

}  // namespace

class WriteAheadLog::Impl {
 public:
  Impl(std::filesystem::path dir, WalOptions options)
      : dir_(std::move(dir)), options_(std::move(options)) {}

  ~Impl() {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    work_cv_.notify_one();
    if (flusher_.joinable()) flusher_.join();
  }

  kcm::Result<void> recover(Recovery* recovery);
  void start() {
    flusher_ = std::thread([this] { run_flusher(); });
  }

  void append(RecordView record, std::shared_ptr<const void> owner, DurableCallback on_durable);
  SnapshotCut begin_snapshot(std::uint64_t revision);
  kcm::Result<void> finish_snapshot(const SnapshotCut& cut, std::span<const RecordView> state);

  std::uint64_t bytes_since_snapshot() const {
    std::lock_guard lock(mu_);
    return total_bytes_ - snapshot_bytes_;
  }
  std::uint64_t last_durable_revision() const { return last_durable_revision_.load(); }
  std::uint64_t sync_count() const { return sync_count_.load(); }

 private:
  struct Pending {
    enum class Kind { kRecord, kRotate, kReject };
    Kind kind = Kind::kRecord;
    RecordView record;                  // kRecord: its bytes live in `owner`
    std::shared_ptr<const void> owner;  // until the record is written
    DurableCallback on_durable;
    std::uint64_t segment = 0;  // kRotate: the segment to continue in
    std::string error;          // kReject: why
  };

  void push(Pending p);  // mu_ held
  void run_flusher();
  void flush_batch(std::vector<Pending>& batch);
  // Flusher helpers: on failure they mark the log failed and return false.
  bool write_buffered();
  bool sync_segment();
  bool open_segment(std::uint64_t segment, bool create);
  void set_failed(std::string message);
  kcm::Result<void> remove_covered(std::uint64_t first_segment_after, std::uint64_t revision);

  const std::filesystem::path dir_;
  const WalOptions options_;
  FileDescriptor lock_fd_;

  // Append side and state shared with the flusher, guarded by mu_.
  mutable std::mutex mu_;
  std::condition_variable work_cv_;      // the flusher waits for pending_ or stopping_
  std::condition_variable progress_cv_;  // finish_snapshot waits for flusher_segment_
  std::vector<Pending> pending_;
  bool stopping_ = false;
  std::uint64_t append_segment_ = 0;        // segment the next record goes to
  std::uint64_t append_segment_bytes_ = 0;  // bytes in it, written or pending
  std::uint64_t last_appended_revision_ = 0;
  std::uint64_t total_bytes_ = 0;     // log bytes since open, including the recovered tail
  std::uint64_t snapshot_bytes_ = 0;  // total_bytes_ at the installed snapshot's cut
  std::uint64_t flusher_segment_ = 0;
  std::optional<std::string> shared_failure_;

  // Flusher-owned: only the flusher thread touches these once it runs.
  FileDescriptor segment_fd_;
  std::filesystem::path segment_path_;
  std::uint64_t segment_offset_ = 0;  // bytes in the open segment
  std::uint64_t synced_offset_ = 0;   // of which known to be on disk
  std::string write_buffer_;
  std::optional<std::string> failed_;

  std::atomic<std::uint64_t> last_durable_revision_{0};
  std::atomic<std::uint64_t> sync_count_{0};

  std::mutex snapshot_mu_;               // one finish_snapshot at a time
  std::uint64_t snapshot_revision_ = 0;  // of the installed snapshot; guarded by snapshot_mu_

  std::thread flusher_;
};

kcm::Result<void> WriteAheadLog::Impl::recover(Recovery* recovery) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return kcm::fail(fmt::format("create directory {}: {}", dir_.string(), ec.message()));

  const std::filesystem::path lock_path = dir_ / "LOCK";
  lock_fd_ = FileDescriptor(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  if (!lock_fd_.valid()) {
    return kcm::fail(fmt::format("open {}: {}", lock_path.string(), errno_text()));
  }
  if (::flock(lock_fd_.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      return kcm::fail(fmt::format("{}: the log is already open (another process holds {})",
                                   dir_.string(), lock_path.string()));
    }
    return kcm::fail(fmt::format("lock {}: {}", lock_path.string(), errno_text()));
  }

  auto listing = list_directory(dir_);
  if (!listing) return kcm::fail(listing.error());
  bool removed = false;
  for (const auto& temp : listing->snapshot_temps) {
    // A snapshot that never got renamed into place: the log still covers its state.
    if (auto r = remove_file(temp); !r) return r;
    removed = true;
  }

  std::uint64_t first_segment = 1;
  if (!listing->snapshots.empty()) {
    // Older snapshots may only remain after a crash during cleanup; the newest is the one
    // the segments continue from, so it must be intact.
    const auto& [revision, path] = *listing->snapshots.rbegin();
    auto snapshot = read_snapshot_file(path);
    if (!snapshot) return kcm::fail(snapshot.error());
    if (snapshot->first_segment_after == 0) {
      return kcm::fail(
          fmt::format("{}: corrupt snapshot at offset 24: first segment 0", path.string()));
    }
    recovery->snapshot_revision = snapshot->revision;
    recovery->snapshot = std::move(snapshot->records);
    first_segment = snapshot->first_segment_after;
    snapshot_revision_ = snapshot->revision;
  }

  std::vector<std::pair<std::uint64_t, std::filesystem::path>> live;
  std::vector<std::filesystem::path> covered;
  for (const auto& [number, path] : listing->segments) {
    if (number < first_segment) {
      covered.push_back(path);  // left by a crash between snapshot install and cleanup
    } else {
      live.emplace_back(number, path);
    }
  }
  for (std::size_t i = 0; i < live.size(); ++i) {
    const std::uint64_t expected = first_segment + i;
    if (live[i].first != expected) {
      return kcm::fail(fmt::format("{}: missing segment {} (found {} after it)", dir_.string(),
                                   segment_file_name(expected),
                                   live[i].second.filename().string()));
    }
  }

  std::uint64_t last_revision = recovery->snapshot_revision;
  std::uint64_t last_segment_size = 0;
  for (std::size_t i = 0; i < live.size(); ++i) {
    auto size = replay_segment(live[i].second, i + 1 == live.size(), options_.fsync, &last_revision,
                               &recovery->tail, &recovery->warnings);
    if (!size) return kcm::fail(size.error());
    total_bytes_ += *size;
    last_segment_size = *size;
  }

  // Recovery succeeded: finish any interrupted cleanup.
  for (const auto& path : covered) {
    if (auto r = remove_file(path); !r) return r;
    removed = true;
  }
  for (auto it = listing->snapshots.begin(); it != listing->snapshots.end(); ++it) {
    if (it->first == snapshot_revision_) continue;
    if (auto r = remove_file(it->second); !r) return r;
    removed = true;
  }
  if (removed && options_.fsync) {
    if (auto r = sync_directory(dir_); !r) return r;
  }

  last_appended_revision_ = last_revision;
  last_durable_revision_ = last_revision;
  if (!live.empty() && last_segment_size < options_.segment_bytes) {
    append_segment_ = live.back().first;
    append_segment_bytes_ = last_segment_size;
    if (!open_segment(append_segment_, /*create=*/false)) return kcm::fail(*failed_);
  } else {
    append_segment_ = live.empty() ? first_segment : live.back().first + 1;
    if (!open_segment(append_segment_, /*create=*/true)) return kcm::fail(*failed_);
  }
  flusher_segment_ = append_segment_;
  return {};
}

void WriteAheadLog::Impl::push(Pending p) {
  const bool was_empty = pending_.empty();
  pending_.push_back(std::move(p));
  if (was_empty) work_cv_.notify_one();  // otherwise the flusher has already been woken
}

void WriteAheadLog::Impl::append(RecordView record, std::shared_ptr<const void> owner,
                                 DurableCallback on_durable) {
  const std::size_t size = encoded_size(record);
  Pending p;
  p.on_durable = std::move(on_durable);
  std::lock_guard lock(mu_);
  if (record.revision <= last_appended_revision_) {
    p.kind = Pending::Kind::kReject;
    p.error = fmt::format("write-ahead log: revision {} of {} {} is not after revision {}",
                          record.revision, record.resource, record.key, last_appended_revision_);
  } else if (size > kFrameHeaderBytes + kMaxPayloadBytes) {
    p.kind = Pending::Kind::kReject;
    p.error = fmt::format(
        "write-ahead log: record {} {} at revision {} is {} bytes, over the limit of {}",
        record.resource, record.key, record.revision, size, kFrameHeaderBytes + kMaxPayloadBytes);
  } else {
    if (append_segment_bytes_ > 0 && append_segment_bytes_ + size > options_.segment_bytes) {
      Pending rotate;
      rotate.kind = Pending::Kind::kRotate;
      rotate.segment = ++append_segment_;
      append_segment_bytes_ = 0;
      push(std::move(rotate));
    }
    append_segment_bytes_ += size;
    total_bytes_ += size;
    last_appended_revision_ = record.revision;
    p.record = record;
    p.owner = std::move(owner);
  }
  push(std::move(p));
}

WriteAheadLog::SnapshotCut WriteAheadLog::Impl::begin_snapshot(std::uint64_t revision) {
  std::lock_guard lock(mu_);
  SnapshotCut cut{revision, 0, last_appended_revision_, total_bytes_};
  if (revision < last_appended_revision_) return cut;  // not exact: finish_snapshot refuses
  if (append_segment_bytes_ > 0) {
    Pending rotate;
    rotate.kind = Pending::Kind::kRotate;
    rotate.segment = ++append_segment_;
    append_segment_bytes_ = 0;
    push(std::move(rotate));
  }
  cut.first_segment_after = append_segment_;
  // Records after the cut must be after the snapshot too, or recovery would reject them.
  last_appended_revision_ = revision;
  return cut;
}

kcm::Result<void> WriteAheadLog::Impl::finish_snapshot(const SnapshotCut& cut,
                                                       std::span<const RecordView> state) {
  std::lock_guard snapshot_lock(snapshot_mu_);
  if (cut.first_segment_after == 0) {
    return kcm::fail(
        fmt::format("snapshot at revision {} is not exact: revision {} was already appended "
                    "when it was cut",
                    cut.revision, cut.last_appended_revision));
  }
  if (cut.revision == 0 || cut.revision <= snapshot_revision_) return {};
  {
    // Segments before the cut may only go once the flusher has left them.
    std::unique_lock lock(mu_);
    progress_cv_.wait(lock, [&] {
      return flusher_segment_ >= cut.first_segment_after || shared_failure_.has_value();
    });
    if (shared_failure_) return kcm::fail(*shared_failure_);
  }
  auto written =
      write_snapshot_file(dir_, cut.revision, cut.first_segment_after, state, options_.fsync);
  if (!written) return kcm::fail(written.error());
  snapshot_revision_ = cut.revision;
  {
    std::lock_guard lock(mu_);
    snapshot_bytes_ = cut.bytes_at_cut;
  }
  return remove_covered(cut.first_segment_after, cut.revision);
}

kcm::Result<void> WriteAheadLog::Impl::remove_covered(std::uint64_t first_segment_after,
                                                      std::uint64_t revision) {
  auto listing = list_directory(dir_);
  if (!listing) return kcm::fail(listing.error());
  bool removed = false;
  for (const auto& [number, path] : listing->segments) {
    if (number >= first_segment_after) break;
    if (auto r = remove_file(path); !r) return r;
    removed = true;
  }
  for (const auto& [snapshot_revision, path] : listing->snapshots) {
    if (snapshot_revision >= revision) break;
    if (auto r = remove_file(path); !r) return r;
    removed = true;
  }
  if (removed && options_.fsync) return sync_directory(dir_);
  return {};
}

void WriteAheadLog::Impl::run_flusher() {
  std::vector<Pending> batch;
  for (;;) {
    {
      std::unique_lock lock(mu_);
      work_cv_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      if (pending_.empty()) return;  // stopping, and everything is flushed
      batch.swap(pending_);
    }
    flush_batch(batch);
    batch.clear();
  }
}

void WriteAheadLog::Impl::flush_batch(std::vector<Pending>& batch) {
  std::size_t durable = 0;  // batch[0, durable) is on disk
  if (!failed_) {
    std::size_t i = 0;
    for (; i < batch.size(); ++i) {
      Pending& p = batch[i];
      if (p.kind == Pending::Kind::kRecord) {
        encode_record(p.record, &write_buffer_);
        if (write_buffer_.size() >= kWriteChunk && !write_buffered()) break;
      } else if (p.kind == Pending::Kind::kRotate) {
        if (!write_buffered() || !sync_segment()) break;
        durable = i;
        if (!open_segment(p.segment, /*create=*/true)) break;
        std::lock_guard lock(mu_);
        flusher_segment_ = p.segment;
        progress_cv_.notify_all();
      }
    }
    if (i == batch.size() && write_buffered() && sync_segment()) durable = batch.size();
  }
  if (failed_) {
    // Also lets finish_snapshot waiting for a segment that will never come give up.
    std::lock_guard lock(mu_);
    if (!shared_failure_) shared_failure_ = failed_;
    progress_cv_.notify_all();
  }

  for (std::size_t i = durable; i-- > 0;) {
    if (batch[i].kind == Pending::Kind::kRecord) {
      last_durable_revision_.store(batch[i].record.revision);
      break;
    }
  }
  const kcm::Result<void> ok;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    Pending& p = batch[i];
    if (!p.on_durable) continue;
    if (p.kind == Pending::Kind::kReject) {
      p.on_durable(kcm::fail(p.error));
    } else if (i < durable) {
      p.on_durable(ok);
    } else {
      p.on_durable(kcm::fail(*failed_));
    }
  }
}

bool WriteAheadLog::Impl::write_buffered() {
  if (write_buffer_.empty()) return true;
  if (options_.inject_write_errno) {
    if (const int e = options_.inject_write_errno(); e != 0) {
      set_failed(
          fmt::format("write-ahead log: write {}: {}", segment_path_.string(), std::strerror(e)));
      return false;
    }
  }
  if (auto w = write_all(segment_fd_.get(), write_buffer_); !w) {
    set_failed(fmt::format("write-ahead log: {} at offset {}: {}", segment_path_.string(),
                           segment_offset_, w.error()));
    return false;
  }
  segment_offset_ += write_buffer_.size();
  write_buffer_.clear();
  return true;
}

bool WriteAheadLog::Impl::sync_segment() {
  if (segment_offset_ == synced_offset_) return true;  // e.g. a batch of rejected appends
  if (options_.fsync) {
    if (::fdatasync(segment_fd_.get()) != 0) {
      set_failed(
          fmt::format("write-ahead log: fdatasync {}: {}", segment_path_.string(), errno_text()));
      return false;
    }
    sync_count_.fetch_add(1);
    if (options_.on_sync) options_.on_sync();
  }
  synced_offset_ = segment_offset_;
  return true;
}

bool WriteAheadLog::Impl::open_segment(std::uint64_t segment, bool create) {
  const std::filesystem::path path = dir_ / segment_file_name(segment);
  const int flags = create ? (O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC) : (O_WRONLY | O_CLOEXEC);
  FileDescriptor fd(::open(path.c_str(), flags, 0644));
  if (!fd.valid()) {
    set_failed(fmt::format("write-ahead log: open {}: {}", path.string(), errno_text()));
    return false;
  }
  const off_t end = ::lseek(fd.get(), 0, SEEK_END);
  if (end < 0) {
    set_failed(fmt::format("write-ahead log: seek {}: {}", path.string(), errno_text()));
    return false;
  }
  if (create && options_.fsync) {
    // The new name must be durable before records in it are acknowledged.
    if (auto r = sync_directory(dir_); !r) {
      set_failed("write-ahead log: " + r.error());
      return false;
    }
  }
  if (segment_fd_.valid()) {
    // Everything in the old segment was synced before the switch; a close error here
    // cannot lose acknowledged data.
    static_cast<void>(segment_fd_.close());
  }
  segment_fd_ = std::move(fd);
  segment_path_ = path;
  segment_offset_ = static_cast<std::uint64_t>(end);
  synced_offset_ = segment_offset_;
  return true;
}

void WriteAheadLog::Impl::set_failed(std::string message) {
  if (failed_) return;
  failed_ = std::move(message);
  write_buffer_.clear();
  // Cut any partial frame so the file ends at a record boundary; best effort, as
  // recovery would cut a torn tail anyway.
  if (segment_fd_.valid() && segment_offset_ != synced_offset_) {
    if (::ftruncate(segment_fd_.get(), static_cast<off_t>(synced_offset_)) == 0) {
      segment_offset_ = synced_offset_;
    }
  }
}

// ---- WriteAheadLog ----

WriteAheadLog::WriteAheadLog(PassKey, std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

WriteAheadLog::~WriteAheadLog() = default;

kcm::Result<std::unique_ptr<WriteAheadLog>> WriteAheadLog::open(const std::filesystem::path& dir,
                                                                const WalOptions& options,
                                                                Recovery* recovery) {
  *recovery = Recovery{};
  auto impl = std::make_unique<Impl>(dir, options);
  if (auto r = impl->recover(recovery); !r) {
    *recovery = Recovery{};
    return kcm::fail(r.error());
  }
  impl->start();
  return std::make_unique<WriteAheadLog>(PassKey(), std::move(impl));
}

void WriteAheadLog::append(Record record, DurableCallback on_durable) {
  auto owned = std::make_shared<const Record>(std::move(record));
  const RecordView view = view_of(*owned);
  impl_->append(view, std::move(owned), std::move(on_durable));
}

void WriteAheadLog::append(RecordView record, std::shared_ptr<const void> owner,
                           DurableCallback on_durable) {
  impl_->append(record, std::move(owner), std::move(on_durable));
}

WriteAheadLog::SnapshotCut WriteAheadLog::begin_snapshot(std::uint64_t revision) {
  return impl_->begin_snapshot(revision);
}

kcm::Result<void> WriteAheadLog::finish_snapshot(const SnapshotCut& cut,
                                                 std::span<const RecordView> state) {
  return impl_->finish_snapshot(cut, state);
}

kcm::Result<void> WriteAheadLog::finish_snapshot(const SnapshotCut& cut,
                                                 const std::vector<Record>& state) {
  std::vector<RecordView> views;
  views.reserve(state.size());
  for (const Record& r : state)
    views.push_back(view_of(r));
  return impl_->finish_snapshot(cut, views);
}

std::uint64_t WriteAheadLog::bytes_since_snapshot() const {
  return impl_->bytes_since_snapshot();
}

std::uint64_t WriteAheadLog::last_durable_revision() const {
  return impl_->last_durable_revision();
}

std::uint64_t WriteAheadLog::sync_count() const {
  return impl_->sync_count();
}

std::string WriteAheadLog::segment_file_name(std::uint64_t segment) {
  return fmt::format("{}{:016x}{}", kSegmentPrefix, segment, kSegmentSuffix);
}

}  // namespace kcm::local::storage
