#include "local/storage/write_ahead_log.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "local/storage/snapshot_file.h"
#include "storage_test_util.h"

namespace kcm::local::storage {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

Record rec(std::uint64_t revision, Record::Op op = Record::Op::kPut) {
  return {op, revision, "core/pods", fmt::format("default/p{}", revision),
          fmt::format(R"({{"kind":"Pod","metadata":{{"resourceVersion":"{}"}}}})", revision)};
}

std::vector<Record> recs(std::uint64_t from, std::uint64_t to) {
  std::vector<Record> out;
  for (std::uint64_t r = from; r <= to; ++r)
    out.push_back(rec(r));
  return out;
}

std::vector<std::uint64_t> revisions(const std::vector<Record>& records) {
  std::vector<std::uint64_t> out;
  for (const Record& r : records)
    out.push_back(r.revision);
  return out;
}

std::vector<std::uint64_t> range(std::uint64_t from, std::uint64_t to) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t r = from; r <= to; ++r)
    out.push_back(r);
  return out;
}

std::set<std::string> list(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    out.insert(e.path().filename().string());
  return out;
}

fs::path segment(const fs::path& dir, std::uint64_t n) {
  return dir / WriteAheadLog::segment_file_name(n);
}

// Collects on_durable results in the order they arrive.
class Acks {
 public:
  WriteAheadLog::DurableCallback callback(std::uint64_t revision) {
    return [this, revision](const kcm::Result<void>& r) {
      std::lock_guard lock(mu_);
      results_.emplace_back(revision, r.ok() ? "" : r.error());
      cv_.notify_all();
    };
  }
  // Waits for n results (callbacks are in order, so the first n appends).
  std::vector<std::pair<std::uint64_t, std::string>> wait(std::size_t n) {
    std::unique_lock lock(mu_);
    EXPECT_TRUE(cv_.wait_for(lock, 60s, [&] { return results_.size() >= n; }))
        << "only " << results_.size() << " of " << n << " callbacks";
    return results_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::pair<std::uint64_t, std::string>> results_;
};

WalOptions fast() {
  WalOptions o;
  o.fsync = false;
  return o;
}

class WriteAheadLogTest : public ::testing::Test {
 protected:
  std::unique_ptr<WriteAheadLog> open_ok(const WalOptions& options = fast()) {
    recovery_ = Recovery{};
    auto wal = WriteAheadLog::open(dir_.path(), options, &recovery_);
    EXPECT_TRUE(wal.ok()) << wal.error();
    return wal.ok() ? std::move(*wal) : nullptr;
  }
  std::string open_error(const WalOptions& options = fast()) {
    recovery_ = Recovery{};
    auto wal = WriteAheadLog::open(dir_.path(), options, &recovery_);
    EXPECT_FALSE(wal.ok());
    return wal.ok() ? "" : wal.error();
  }
  // Appends and waits until every record is durable.
  void append_all(WriteAheadLog& wal, const std::vector<Record>& records) {
    Acks acks;
    for (const Record& r : records)
      wal.append(r, acks.callback(r.revision));
    for (const auto& [revision, error] : acks.wait(records.size())) {
      EXPECT_EQ(error, "") << "revision " << revision;
    }
  }
  // Writes records 1..n into a closed log, each waited for (so each is its own batch).
  void write_closed_log(std::uint64_t n, const WalOptions& options = fast()) {
    auto wal = open_ok(options);
    ASSERT_NE(wal, nullptr);
    for (std::uint64_t r = 1; r <= n; ++r)
      append_all(*wal, {rec(r)});
  }

  TempDir dir_{"kcm-wal-"};
  Recovery recovery_;
};

TEST_F(WriteAheadLogTest, EmptyDirectoryOpensEmpty) {
  const fs::path nested = dir_.path() / "a" / "b";
  Recovery recovery;
  auto wal = WriteAheadLog::open(nested, fast(), &recovery);
  ASSERT_TRUE(wal.ok()) << wal.error();
  EXPECT_EQ(recovery.snapshot_revision, 0u);
  EXPECT_TRUE(recovery.snapshot.empty());
  EXPECT_TRUE(recovery.tail.empty());
  EXPECT_TRUE(recovery.warnings.empty());
  EXPECT_EQ((*wal)->last_durable_revision(), 0u);
  EXPECT_EQ((*wal)->bytes_since_snapshot(), 0u);
  EXPECT_EQ(list(nested), (std::set<std::string>{"LOCK", "wal-0000000000000001.log"}));
}

TEST_F(WriteAheadLogTest, RestartKeepsEverything) {
  std::vector<Record> all = recs(1, 200);
  all[10].op = Record::Op::kDelete;
  all[20].value = std::string(200000, 'v');  // one large object
  all[30].value = "";
  std::uint64_t bytes = 0;
  for (const Record& r : all)
    bytes += encoded_size(r);
  {
    auto wal = open_ok(WalOptions{});
    append_all(*wal, std::vector<Record>(all.begin(), all.begin() + 100));
    append_all(*wal, std::vector<Record>(all.begin() + 100, all.end()));
    EXPECT_EQ(wal->last_durable_revision(), 200u);
    EXPECT_EQ(wal->bytes_since_snapshot(), bytes);
  }
  auto wal = open_ok(WalOptions{});
  EXPECT_EQ(recovery_.tail, all);
  EXPECT_TRUE(recovery_.warnings.empty());
  EXPECT_EQ(wal->last_durable_revision(), 200u);
  EXPECT_EQ(wal->bytes_since_snapshot(), bytes);

  // Appending continues in the same segment, and a third open sees both runs.
  append_all(*wal, {rec(201)});
  wal.reset();
  wal = open_ok(WalOptions{});
  EXPECT_EQ(revisions(recovery_.tail), range(1, 201));
  EXPECT_EQ(list(dir_.path()), (std::set<std::string>{"LOCK", "wal-0000000000000001.log"}));
}

TEST_F(WriteAheadLogTest, DestructorFlushesPendingRecords) {
  Acks acks;
  {
    auto wal = open_ok(WalOptions{});
    for (const Record& r : recs(1, 500))
      wal->append(r, acks.callback(r.revision));
  }
  const auto results = acks.wait(500);
  ASSERT_EQ(results.size(), 500u);
  open_ok();
  EXPECT_EQ(revisions(recovery_.tail), range(1, 500));
}

TEST_F(WriteAheadLogTest, ViewedRecordsAreWrittenFromTheirOwnersBytes) {
  // Each record's bytes live only in its owner, which the caller drops at once:
  // the log must keep it until the record is written, then let it go.
  std::vector<Record> written = recs(1, 300);
  std::vector<std::weak_ptr<const Record>> owners;
  Acks acks;
  {
    auto wal = open_ok(WalOptions{});
    for (const Record& r : written) {
      auto owner = std::make_shared<const Record>(r);
      owners.push_back(owner);
      const RecordView view = view_of(*owner);
      wal->append(view, std::move(owner), acks.callback(r.revision));
    }
    for (const auto& [revision, error] : acks.wait(written.size())) {
      EXPECT_EQ(error, "") << "revision " << revision;
    }
  }
  for (const auto& owner : owners)
    EXPECT_TRUE(owner.expired());
  open_ok();
  EXPECT_EQ(recovery_.tail, written);
}

TEST_F(WriteAheadLogTest, SegmentsRotateBySize) {
  WalOptions options = fast();
  options.segment_bytes = 2 * encoded_size(rec(1));  // two records per segment
  {
    auto wal = open_ok(options);
    append_all(*wal, recs(1, 5));
  }
  EXPECT_EQ(list(dir_.path()),
            (std::set<std::string>{"LOCK", "wal-0000000000000001.log", "wal-0000000000000002.log",
                                   "wal-0000000000000003.log"}));
  EXPECT_EQ(fs::file_size(segment(dir_.path(), 1)), 2 * encoded_size(rec(1)));
  {
    auto wal = open_ok(options);
    EXPECT_EQ(revisions(recovery_.tail), range(1, 5));
    append_all(*wal, recs(6, 7));  // fills segment 3, then opens 4
  }
  auto wal = open_ok(options);
  EXPECT_EQ(revisions(recovery_.tail), range(1, 7));
  EXPECT_TRUE(fs::exists(segment(dir_.path(), 4)));
}

TEST_F(WriteAheadLogTest, GroupCommitFiresCallbacksInOrderAfterTheSync) {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> events;
  bool release = false;
  int syncs = 0;
  const fs::path seg = segment(dir_.path(), 1);
  std::vector<std::uint64_t> end_offset(501, 0);  // end of each record in the segment
  for (std::uint64_t r = 1; r <= 500; ++r)
    end_offset[r] = end_offset[r - 1] + encoded_size(rec(r));

  WalOptions options;  // fsync on
  options.on_sync = [&] {
    std::unique_lock lock(mu);
    events.push_back("sync");
    ++syncs;
    cv.notify_all();
    // Hold the first batch's sync so everything after it piles up into one batch.
    if (syncs == 1) cv.wait(lock, [&] { return release; });
  };
  auto wal = open_ok(options);
  ASSERT_NE(wal, nullptr);
  auto callback = [&](std::uint64_t revision) {
    return [&, revision](const kcm::Result<void>& r) {
      // The record is in the file by the time it is acknowledged.
      const auto on_disk = fs::file_size(seg);
      std::lock_guard lock(mu);
      events.push_back(r.ok() && on_disk >= end_offset[revision] ? fmt::format("cb{}", revision)
                                                                 : "bad");
      cv.notify_all();
    };
  };
  wal->append(rec(1), callback(1));
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 30s, [&] { return syncs == 1; }));
  }
  for (std::uint64_t r = 2; r <= 500; ++r)
    wal->append(rec(r), callback(r));
  {
    std::lock_guard lock(mu);
    EXPECT_EQ(events, std::vector<std::string>{"sync"});  // nothing acknowledged yet
    release = true;
    cv.notify_all();
  }
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 30s, [&] { return events.size() == 502; }));
  }
  std::vector<std::string> want = {"sync", "cb1", "sync"};
  for (int r = 2; r <= 500; ++r)
    want.push_back(fmt::format("cb{}", r));
  EXPECT_EQ(events, want);
  EXPECT_EQ(wal->sync_count(), 2u);
  EXPECT_EQ(wal->last_durable_revision(), 500u);
}

TEST_F(WriteAheadLogTest, NoSyncsWhenFsyncIsOff) {
  int syncs = 0;
  WalOptions options = fast();
  options.on_sync = [&] { ++syncs; };
  auto wal = open_ok(options);
  append_all(*wal, recs(1, 10));
  EXPECT_EQ(wal->sync_count(), 0u);
  EXPECT_EQ(syncs, 0);
}

TEST_F(WriteAheadLogTest, RejectsRevisionsThatDoNotIncrease) {
  auto wal = open_ok();
  Acks acks;
  wal->append(rec(5), acks.callback(5));
  wal->append(rec(5), acks.callback(5));
  wal->append(rec(4), acks.callback(4));
  wal->append(rec(6), acks.callback(6));
  const auto results = acks.wait(4);
  const std::vector<std::pair<std::uint64_t, std::string>> want = {
      {5, ""},
      {5, "write-ahead log: revision 5 of core/pods default/p5 is not after revision 5"},
      {4, "write-ahead log: revision 4 of core/pods default/p4 is not after revision 5"},
      {6, ""},
  };
  EXPECT_EQ(results, want);
  wal.reset();
  open_ok();
  EXPECT_EQ(revisions(recovery_.tail), (std::vector<std::uint64_t>{5, 6}));
}

TEST_F(WriteAheadLogTest, RejectsOversizedRecords) {
  auto wal = open_ok();
  Acks acks;
  Record big = rec(7);
  big.value.assign(kMaxPayloadBytes, 'x');
  const std::size_t size = encoded_size(big);
  wal->append(std::move(big), acks.callback(7));
  wal->append(rec(8), acks.callback(8));
  const auto results = acks.wait(2);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].second,
            fmt::format("write-ahead log: record core/pods default/p7 at revision 7 is {} bytes, "
                        "over the limit of 67108880",
                        size));
  EXPECT_EQ(results[1].second, "");
}

// Damage at the end of the last segment: a crash mid-write. It is cut off with a warning.
TEST_F(WriteAheadLogTest, TornTailIsCutAndReported) {
  const std::uint64_t frame = encoded_size(rec(5));
  struct Case {
    std::string name;
    std::function<void(std::string*)> damage;
    std::uint64_t kept;  // records that survive
    std::uint64_t cut;   // bytes cut off
    std::string reason;
  };
  const std::vector<Case> cases = {
      {"payload cut short", [](std::string* b) { b->resize(b->size() - 10); }, 4, frame - 10,
       fmt::format("record of {} bytes extends past the end of the file ({} bytes left)",
                   frame - 16, frame - 26)},
      {"header cut short", [&](std::string* b) { b->resize(b->size() - frame + 7); }, 4, 7,
       "incomplete record header (7 of 16 bytes)"},
      {"last byte flipped", [](std::string* b) { b->back() ^= 0x20; }, 4, frame,
       "record checksum mismatch"},
      {"zeros after the last record", [](std::string* b) { b->append(4096, '\0'); }, 5, 4096,
       "bad record magic"},
      {"half a header after the last record",
       [](std::string* b) { b->append(std::string("KWL\0\x10\x00", 6)); }, 5, 6,
       "incomplete record header (6 of 16 bytes)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    fs::remove_all(dir_.path());
    write_closed_log(5);
    const fs::path seg = segment(dir_.path(), 1);
    std::string bytes = read_file(seg);
    c.damage(&bytes);
    write_file(seg, bytes);
    const std::uint64_t at = bytes.size() - c.cut;
    {
      auto wal = open_ok();
      ASSERT_NE(wal, nullptr);
      EXPECT_EQ(revisions(recovery_.tail), range(1, c.kept));
      EXPECT_EQ(recovery_.warnings,
                std::vector<std::string>{fmt::format("{}: cut off {} bytes of a torn record at "
                                                     "offset {}: {}",
                                                     seg.string(), c.cut, at, c.reason)});
      EXPECT_EQ(fs::file_size(seg), at);
      EXPECT_EQ(wal->last_durable_revision(), c.kept);
      append_all(*wal, {rec(10)});  // appending after the cut works
    }
    open_ok();
    EXPECT_TRUE(recovery_.warnings.empty());
    std::vector<std::uint64_t> want = range(1, c.kept);
    want.push_back(10);
    EXPECT_EQ(revisions(recovery_.tail), want);
  }
}

// Damage followed by valid records is not a torn write: open refuses and changes nothing.
TEST_F(WriteAheadLogTest, CorruptionInTheMiddleIsAnError) {
  write_closed_log(5);
  const fs::path seg = segment(dir_.path(), 1);
  const std::string good = read_file(seg);
  const std::uint64_t frame = encoded_size(rec(1));
  struct Case {
    std::string name;
    std::size_t byte;  // flipped
    std::string reason;
  };
  const std::vector<Case> cases = {
      {"payload", frame + 40, "record checksum mismatch"},
      {"length", frame + 4, "record header checksum mismatch"},
      {"magic", frame, "bad record magic"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::string bytes = good;
    bytes[c.byte] ^= 0x01;
    write_file(seg, bytes);
    EXPECT_EQ(open_error(), fmt::format("{}: corrupt record at offset {}: {}; a valid record "
                                        "follows at offset {}",
                                        seg.string(), frame, c.reason, 2 * frame));
    EXPECT_EQ(read_file(seg), bytes);  // nothing truncated
    EXPECT_TRUE(recovery_.tail.empty());
  }
}

TEST_F(WriteAheadLogTest, DamageInAnEarlierSegmentIsAnError) {
  WalOptions options = fast();
  options.segment_bytes = 1;  // one record per segment
  write_closed_log(4, options);
  const fs::path seg2 = segment(dir_.path(), 2);
  const std::string good = read_file(seg2);

  std::string flipped = good;
  flipped[30] ^= 0x01;
  write_file(seg2, flipped);
  EXPECT_EQ(open_error(options),
            seg2.string() +
                ": corrupt record at offset 0: record checksum mismatch (not the last "
                "segment)");

  write_file(seg2, good.substr(0, good.size() - 1));
  EXPECT_EQ(open_error(options),
            fmt::format("{}: corrupt record at offset 0: record of {} bytes extends past the end "
                        "of the file ({} bytes left) (not the last segment)",
                        seg2.string(), good.size() - 16, good.size() - 17));
}

TEST_F(WriteAheadLogTest, MissingSegmentIsAnError) {
  WalOptions options = fast();
  options.segment_bytes = 1;
  write_closed_log(3, options);
  fs::remove(segment(dir_.path(), 2));
  EXPECT_EQ(open_error(options),
            dir_.path().string() +
                ": missing segment wal-0000000000000002.log (found wal-0000000000000003.log after "
                "it)");
  fs::remove(segment(dir_.path(), 1));
  EXPECT_EQ(open_error(options),
            dir_.path().string() +
                ": missing segment wal-0000000000000001.log (found wal-0000000000000003.log after "
                "it)");
}

TEST_F(WriteAheadLogTest, RevisionsMustIncreaseOnDisk) {
  std::string bytes;
  encode_record(rec(5), &bytes);
  const std::size_t second = bytes.size();
  encode_record(rec(3), &bytes);
  write_file(segment(dir_.path(), 1), bytes);
  EXPECT_EQ(open_error(), fmt::format("{}: record at offset {} has revision 3, not after 5",
                                      segment(dir_.path(), 1).string(), second));
}

TEST_F(WriteAheadLogTest, MalformedRecordIsAnErrorEvenAtTheEnd) {
  Record r = rec(1);
  std::string bytes;
  encode_record(r, &bytes);
  // A record with valid checksums but an op this version does not know: not a torn write.
  bytes[17] = 9;
  const std::string payload = bytes.substr(16);
  const std::uint32_t crc = crc32c(payload);
  for (int i = 0; i < 4; ++i)
    bytes[8 + i] = static_cast<char>((crc >> (8 * i)) & 0xff);
  const std::uint32_t hcrc = crc32c(std::string_view(bytes).substr(0, 12));
  for (int i = 0; i < 4; ++i)
    bytes[12 + i] = static_cast<char>((hcrc >> (8 * i)) & 0xff);
  write_file(segment(dir_.path(), 1), bytes);
  EXPECT_EQ(open_error(),
            segment(dir_.path(), 1).string() + ": corrupt record at offset 0: unknown record op 9");
}

TEST_F(WriteAheadLogTest, SecondOpenOfTheSameDirectoryFails) {
  auto wal = open_ok();
  EXPECT_EQ(open_error(), fmt::format("{}: the log is already open (another process holds {})",
                                      dir_.path().string(), (dir_.path() / "LOCK").string()));
  wal.reset();
  open_ok();
}

TEST_F(WriteAheadLogTest, SnapshotCompactsAndRecoveryIsSnapshotPlusTail) {
  WalOptions options;         // fsync on
  options.segment_bytes = 1;  // one record per segment
  std::vector<Record> state;
  {
    auto wal = open_ok(options);
    append_all(*wal, recs(1, 10));
    const auto cut = wal->begin_snapshot(10);
    EXPECT_EQ(cut.revision, 10u);
    EXPECT_EQ(cut.first_segment_after, 11u);
    append_all(*wal, recs(11, 13));
    std::uint64_t tail_bytes = 0;
    for (const Record& r : recs(11, 13))
      tail_bytes += encoded_size(r);
    state = recs(1, 10);
    state.erase(state.begin() + 3);  // as if object 4 had been deleted
    const std::uint64_t before = wal->bytes_since_snapshot();
    EXPECT_GT(before, tail_bytes);
    auto done = wal->finish_snapshot(cut, state);
    ASSERT_TRUE(done.ok()) << done.error();
    EXPECT_EQ(wal->bytes_since_snapshot(), tail_bytes);
    EXPECT_EQ(
        list(dir_.path()),
        (std::set<std::string>{"LOCK", "snapshot-000000000000000a.snap", "wal-000000000000000b.log",
                               "wal-000000000000000c.log", "wal-000000000000000d.log"}));
  }
  {
    auto wal = open_ok(options);
    EXPECT_EQ(recovery_.snapshot_revision, 10u);
    EXPECT_EQ(recovery_.snapshot, state);
    EXPECT_EQ(recovery_.tail, recs(11, 13));
    EXPECT_TRUE(recovery_.warnings.empty());
    EXPECT_EQ(wal->last_durable_revision(), 13u);

    // A second snapshot replaces the first.
    append_all(*wal, recs(14, 15));
    const auto cut = wal->begin_snapshot(15);
    EXPECT_EQ(cut.first_segment_after, 16u);
    ASSERT_TRUE(wal->finish_snapshot(cut, recs(1, 15)).ok());
    EXPECT_EQ(wal->bytes_since_snapshot(), 0u);
    EXPECT_EQ(list(dir_.path()), (std::set<std::string>{"LOCK", "snapshot-000000000000000f.snap",
                                                        "wal-0000000000000010.log"}));
  }
  auto wal = open_ok(options);
  EXPECT_EQ(recovery_.snapshot_revision, 15u);
  EXPECT_EQ(recovery_.snapshot, recs(1, 15));
  EXPECT_TRUE(recovery_.tail.empty());
  EXPECT_EQ(wal->last_durable_revision(), 15u);
}

TEST_F(WriteAheadLogTest, SnapshotOfAnEmptyActiveSegmentDoesNotRotate) {
  auto wal = open_ok();
  auto cut = wal->begin_snapshot(0);
  EXPECT_EQ(cut.first_segment_after, 1u);
  ASSERT_TRUE(
      wal->finish_snapshot(cut, std::vector<Record>{}).ok());  // revision 0: nothing to write
  append_all(*wal, recs(1, 3));
  cut = wal->begin_snapshot(3);
  EXPECT_EQ(cut.first_segment_after, 2u);
  const auto again = wal->begin_snapshot(3);  // nothing appended since: same segment
  EXPECT_EQ(again.first_segment_after, 2u);
  ASSERT_TRUE(wal->finish_snapshot(again, recs(1, 3)).ok());
  ASSERT_TRUE(wal->finish_snapshot(cut, recs(1, 3)).ok());  // already installed: no-op
  EXPECT_EQ(list(dir_.path()), (std::set<std::string>{"LOCK", "snapshot-0000000000000003.snap",
                                                      "wal-0000000000000002.log"}));
}

TEST_F(WriteAheadLogTest, CrashBetweenSnapshotInstallAndSegmentDeletion) {
  WalOptions options = fast();
  options.segment_bytes = 1;
  const fs::path saved = dir_.path() / "saved";
  {
    auto wal = open_ok(options);
    append_all(*wal, recs(1, 5));
    auto cut = wal->begin_snapshot(5);
    ASSERT_TRUE(wal->finish_snapshot(cut, recs(1, 5)).ok());
    const fs::path first_snapshot = dir_.path() / snapshot_file_name(5);
    append_all(*wal, recs(6, 8));
    fs::create_directory(saved);
    fs::copy(first_snapshot, saved);
    for (std::uint64_t n = 6; n <= 8; ++n)
      fs::copy(segment(dir_.path(), n), saved);
    cut = wal->begin_snapshot(8);
    EXPECT_EQ(cut.first_segment_after, 9u);
    append_all(*wal, recs(9, 10));
    ASSERT_TRUE(wal->finish_snapshot(cut, recs(1, 8)).ok());
  }
  // Put back what the cleanup deleted, as if the process died right after the rename.
  for (const auto& e : fs::directory_iterator(saved)) {
    fs::copy(e.path(), dir_.path() / e.path().filename());
  }
  fs::remove_all(saved);
  // And a snapshot temp file a crash left behind.
  write_file(dir_.path() / "snapshot-0000000000000009.snap.tmp", "partial");
  {
    auto wal = open_ok(options);
    EXPECT_EQ(recovery_.snapshot_revision, 8u);
    EXPECT_EQ(recovery_.snapshot, recs(1, 8));
    EXPECT_EQ(recovery_.tail, recs(9, 10));
    EXPECT_TRUE(recovery_.warnings.empty());
  }
  // The interrupted cleanup was finished by the open (which started segment b, as a is full).
  EXPECT_EQ(
      list(dir_.path()),
      (std::set<std::string>{"LOCK", "snapshot-0000000000000008.snap", "wal-0000000000000009.log",
                             "wal-000000000000000a.log", "wal-000000000000000b.log"}));
}

TEST_F(WriteAheadLogTest, CorruptSnapshotIsAnError) {
  {
    auto wal = open_ok();
    append_all(*wal, recs(1, 3));
    ASSERT_TRUE(wal->finish_snapshot(wal->begin_snapshot(3), recs(1, 3)).ok());
  }
  const fs::path snap = dir_.path() / snapshot_file_name(3);
  std::string bytes = read_file(snap);
  bytes[44 + 30] ^= 0x01;  // inside the first record
  write_file(snap, bytes);
  EXPECT_EQ(open_error(),
            snap.string() + ": corrupt snapshot at offset 44: record checksum mismatch");
}

TEST_F(WriteAheadLogTest, SegmentMissingAfterASnapshotIsAnError) {
  WalOptions options = fast();
  options.segment_bytes = 1;
  {
    auto wal = open_ok(options);
    append_all(*wal, recs(1, 3));
    ASSERT_TRUE(wal->finish_snapshot(wal->begin_snapshot(3), recs(1, 3)).ok());
    append_all(*wal, recs(4, 5));  // segments 4 and 5
  }
  fs::remove(segment(dir_.path(), 4));
  EXPECT_EQ(open_error(options),
            dir_.path().string() +
                ": missing segment wal-0000000000000004.log (found wal-0000000000000005.log after "
                "it)");
}

TEST_F(WriteAheadLogTest, InexactCutIsRefusedAndKeepsTheLog) {
  auto wal = open_ok();
  append_all(*wal, recs(1, 5));
  const auto cut = wal->begin_snapshot(3);
  auto r = wal->finish_snapshot(cut, recs(1, 3));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "snapshot at revision 3 is not exact: revision 5 was already appended when it was cut");
  wal.reset();
  open_ok();
  EXPECT_EQ(recovery_.snapshot_revision, 0u);
  EXPECT_EQ(revisions(recovery_.tail), range(1, 5));
}

TEST_F(WriteAheadLogTest, CutAheadOfTheLastAppendHoldsLaterAppendsAboveIt) {
  auto wal = open_ok();
  append_all(*wal, recs(1, 8));
  const auto cut = wal->begin_snapshot(10);  // revisions 9 and 10 were consumed elsewhere
  Acks acks;
  wal->append(rec(9), acks.callback(9));
  wal->append(rec(11), acks.callback(11));
  const auto results = acks.wait(2);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].second,
            "write-ahead log: revision 9 of core/pods default/p9 is not after revision 10");
  EXPECT_EQ(results[1].second, "");
  ASSERT_TRUE(wal->finish_snapshot(cut, recs(1, 8)).ok());
  wal.reset();
  open_ok();
  EXPECT_EQ(recovery_.snapshot_revision, 10u);
  EXPECT_EQ(revisions(recovery_.tail), std::vector<std::uint64_t>{11});
}

TEST_F(WriteAheadLogTest, WriteFailureFailsThatRecordAndEveryLaterOne) {
  std::atomic<int> inject{0};
  WalOptions options = fast();
  options.inject_write_errno = [&] { return inject.load(); };
  auto wal = open_ok(options);
  append_all(*wal, recs(1, 3));
  inject = ENOSPC;
  Acks acks;
  wal->append(rec(4), acks.callback(4));
  wal->append(rec(5), acks.callback(5));
  acks.wait(2);
  inject = 0;
  wal->append(rec(6), acks.callback(6));
  const auto results = acks.wait(3);
  const std::string error = fmt::format("write-ahead log: write {}: No space left on device",
                                        segment(dir_.path(), 1).string());
  const std::vector<std::pair<std::uint64_t, std::string>> want = {
      {4, error}, {5, error}, {6, error}};
  EXPECT_EQ(results, want);
  EXPECT_EQ(wal->last_durable_revision(), 3u);
  auto snap = wal->finish_snapshot(wal->begin_snapshot(6), recs(1, 6));
  ASSERT_FALSE(snap.ok());
  EXPECT_EQ(snap.error(), error);
  wal.reset();
  open_ok(options);
  EXPECT_EQ(revisions(recovery_.tail), range(1, 3));
  EXPECT_TRUE(recovery_.warnings.empty());
}

TEST_F(WriteAheadLogTest, ConcurrentAppendersLoseNothing) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 500;
  std::mutex order_mu;  // the caller's lock: assigns revisions and appends
  std::uint64_t next_revision = 0;
  std::mutex seen_mu;
  std::vector<std::uint64_t> acked;  // in callback order
  std::atomic<int> failures{0};
  {
    auto wal = open_ok(WalOptions{});  // fsync on: group commit across threads
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < kPerThread; ++i) {
          std::mutex done_mu;
          std::condition_variable done_cv;
          bool done = false;
          {
            std::lock_guard lock(order_mu);
            Record r = rec(++next_revision);
            r.key = fmt::format("t{}/{}", t, i);
            wal->append(std::move(r), [&, revision = next_revision](const kcm::Result<void>& res) {
              if (!res.ok()) ++failures;
              {
                std::lock_guard seen(seen_mu);
                acked.push_back(revision);
              }
              std::lock_guard l(done_mu);
              done = true;
              done_cv.notify_one();
            });
          }
          std::unique_lock l(done_mu);
          done_cv.wait(l, [&] { return done; });
        }
      });
    }
    for (auto& th : threads)
      th.join();
    // Group commit: some syncs covered records from several threads.
    EXPECT_LT(wal->sync_count(), static_cast<std::uint64_t>(kThreads * kPerThread));
  }
  EXPECT_EQ(failures.load(), 0);
  constexpr std::uint64_t kTotal = kThreads * kPerThread;
  EXPECT_EQ(acked, range(1, kTotal));  // callbacks in revision order
  open_ok();
  ASSERT_EQ(recovery_.tail.size(), kTotal);
  EXPECT_EQ(revisions(recovery_.tail), range(1, kTotal));
  std::set<std::string> keys;
  for (const Record& r : recovery_.tail)
    keys.insert(r.key);
  EXPECT_EQ(keys.size(), kTotal);
  EXPECT_TRUE(keys.count(fmt::format("t{}/{}", kThreads - 1, kPerThread - 1)));
}

TEST_F(WriteAheadLogTest, SnapshotConcurrentWithAppends) {
  WalOptions options = fast();
  options.segment_bytes = 4096;
  std::mutex caller_mu;
  std::uint64_t revision = 0;
  std::atomic<bool> stop{false};
  {
    auto wal = open_ok(options);
    std::thread writer([&] {
      while (!stop) {
        {
          std::lock_guard lock(caller_mu);
          for (int i = 0; i < 50; ++i)
            wal->append(rec(++revision), nullptr);
        }
        std::this_thread::sleep_for(100us);  // let the snapshotting thread take the lock
      }
    });
    for (int i = 0; i < 5; ++i) {
      std::this_thread::sleep_for(5ms);
      WriteAheadLog::SnapshotCut cut{};
      {
        std::lock_guard lock(caller_mu);
        cut = wal->begin_snapshot(revision);
      }
      auto r = wal->finish_snapshot(cut, recs(1, cut.revision));
      ASSERT_TRUE(r.ok()) << r.error();
    }
    stop = true;
    writer.join();
  }
  open_ok(options);
  EXPECT_GT(recovery_.snapshot_revision, 0u);
  EXPECT_EQ(revisions(recovery_.snapshot), range(1, recovery_.snapshot_revision));
  EXPECT_EQ(revisions(recovery_.tail), range(recovery_.snapshot_revision + 1, revision));
}

}  // namespace
}  // namespace kcm::local::storage
