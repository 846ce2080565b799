// Recovery must survive any bytes on disk: the input becomes a WAL segment (and, through
// the same bytes, a snapshot file), and opening must either recover or fail with a message;
// never crash, hang or allocate more than the file could hold. A recovered log must reopen
// to the same records without further warnings.
#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "local/storage/snapshot_file.h"
#include "local/storage/write_ahead_log.h"

namespace {

namespace fs = std::filesystem;
using kcm::local::storage::Recovery;
using kcm::local::storage::WalOptions;
using kcm::local::storage::WriteAheadLog;

const fs::path& scratch() {
  static const fs::path dir = [] {
    std::string tmpl = (fs::temp_directory_path() / "kcm-wal-fuzz-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) abort();
    return fs::path(tmpl);
  }();
  // Registered after `dir` is constructed, so it runs before `dir` is destroyed.
  static const bool cleanup_registered = [] {
    std::atexit([] {
      std::error_code ignored;
      fs::remove_all(scratch(), ignored);
    });
    return true;
  }();
  static_cast<void>(cleanup_registered);
  return dir;
}

void write_file(const fs::path& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path dir = scratch() / "wal";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_file(dir / WriteAheadLog::segment_file_name(1), data, size);

  WalOptions options;
  options.fsync = false;
  Recovery first;
  {
    auto wal = WriteAheadLog::open(dir, options, &first);
    if (!wal.ok()) {
      if (wal.error().empty()) abort();
    } else {
      for (std::size_t i = 1; i < first.tail.size(); ++i) {
        if (first.tail[i].revision <= first.tail[i - 1].revision) abort();
      }
    }
  }
  if (!first.tail.empty() || first.warnings.size() == 1) {
    // What recovery kept (after cutting a torn tail) must read back identically.
    Recovery second;
    auto again = WriteAheadLog::open(dir, options, &second);
    if (!again.ok() || second.tail != first.tail || !second.warnings.empty()) abort();
  }

  const fs::path snapshot = scratch() / kcm::local::storage::snapshot_file_name(1);
  write_file(snapshot, data, size);
  auto contents = kcm::local::storage::read_snapshot_file(snapshot);
  if (!contents.ok() && contents.error().empty()) abort();
  return 0;
}
