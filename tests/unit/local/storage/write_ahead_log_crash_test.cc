// A child process appends and acknowledges records over a pipe; the parent kills it with
// SIGKILL mid-stream and checks that reopening the log finds every acknowledged record.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "local/storage/write_ahead_log.h"
#include "storage_test_util.h"

namespace kcm::local::storage {
namespace {

namespace fs = std::filesystem;

Record configmap_record(std::uint64_t revision) {
  return {Record::Op::kPut, revision, "core/configmaps", fmt::format("default/cm-{}", revision),
          fmt::format(R"({{"data":{{"n":"{}"}},"pad":"{}"}})", revision,
                      std::string(revision % 700, 'p'))};
}

// Runs in the child: appends forever, keeping at most `window` records unacknowledged,
// and writes each acknowledged revision to `ack_fd`. Never returns.
[[noreturn]] void run_child(const fs::path& dir, int ack_fd, std::size_t segment_bytes) {
  Recovery recovery;
  WalOptions options;
  options.segment_bytes = segment_bytes;
  auto wal = WriteAheadLog::open(dir, options, &recovery);
  if (!wal.ok()) ::_exit(2);
  std::atomic<std::uint64_t> acked{0};
  for (std::uint64_t revision = 1;; ++revision) {
    while (revision - acked.load() > 256)
      std::this_thread::yield();
    (*wal)->append(configmap_record(revision),
                   [&acked, ack_fd, revision](const kcm::Result<void>& r) {
                     if (!r.ok()) ::_exit(3);
                     acked.store(revision);
                     // 8 bytes < PIPE_BUF: the write is atomic.
                     if (::write(ack_fd, &revision, sizeof revision) != sizeof revision) ::_exit(4);
                   });
    if (revision % 1000 == 0) {
      // Snapshot now and then, so the kill can also land mid-compaction.
      auto cut = (*wal)->begin_snapshot(revision);
      std::vector<Record> state;
      for (std::uint64_t r = 1; r <= revision; r += 97)
        state.push_back(configmap_record(r));
      if (!(*wal)->finish_snapshot(cut, state).ok()) ::_exit(5);
    }
  }
}

TEST(WriteAheadLogCrashTest, KillNineKeepsEveryAcknowledgedRecord) {
  for (const std::size_t segment_bytes : {std::size_t{64} << 20, std::size_t{16} << 10}) {
    SCOPED_TRACE(segment_bytes);
    TempDir dir("kcm-walcrash-");
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(fds[0]);
      run_child(dir.path(), fds[1], segment_bytes);
    }
    ::close(fds[1]);

    std::uint64_t max_acked = 0;
    std::size_t acks = 0;
    bool killed = false;
    std::uint64_t value = 0;
    std::size_t have = 0;  // bytes of `value` read so far
    for (;;) {
      const ssize_t n = ::read(fds[0], reinterpret_cast<char*>(&value) + have, sizeof value - have);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // EOF: the child is gone
      have += static_cast<std::size_t>(n);
      if (have < sizeof value) continue;
      have = 0;
      EXPECT_EQ(value, max_acked + 1) << "acknowledgements out of order";
      max_acked = value;
      if (++acks == 3000 && !killed) {
        ::kill(pid, SIGKILL);  // right after a callback fired
        killed = true;
      }
    }
    ::close(fds[0]);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
    ASSERT_GE(max_acked, 3000u);

    Recovery recovery;
    auto wal = WriteAheadLog::open(dir.path(), WalOptions{}, &recovery);
    ASSERT_TRUE(wal.ok()) << wal.error();
    // Snapshot + tail is a gapless prefix of what the child appended, covering every ack.
    std::uint64_t next = recovery.snapshot_revision + 1;
    for (const Record& r : recovery.tail) {
      ASSERT_EQ(r.revision, next);
      ASSERT_EQ(r, configmap_record(r.revision));
      ++next;
    }
    EXPECT_GE(next - 1, max_acked) << "an acknowledged record was lost";
    for (const Record& r : recovery.snapshot)
      EXPECT_EQ(r, configmap_record(r.revision));
    for (const std::string& w : recovery.warnings)
      std::cerr << "warning: " << w << "\n";
  }
}

}  // namespace
}  // namespace kcm::local::storage
