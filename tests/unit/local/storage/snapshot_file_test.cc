#include "local/storage/snapshot_file.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "storage_test_util.h"

namespace kcm::local::storage {
namespace {

std::vector<Record> state() {
  return {
      {Record::Op::kPut, 3, "core/namespaces", "default", R"({"kind":"Namespace"})"},
      {Record::Op::kPut, 9, "apps/deployments", "default/web", R"({"kind":"Deployment"})"},
      {Record::Op::kPut, 12, "core/pods", "default/web-1", R"({"kind":"Pod"})"},
  };
}

TEST(SnapshotFileTest, FileNames) {
  EXPECT_EQ(snapshot_file_name(0x2a), "snapshot-000000000000002a.snap");
  EXPECT_EQ(parse_snapshot_file_name("snapshot-000000000000002a.snap"),
            std::optional<std::uint64_t>(42));
  for (const char* bad :
       {"snapshot-000000000000002A.snap", "snapshot-2a.snap", "snapshot-000000000000002a.snap.tmp",
        "wal-000000000000002a.log", "snapshot-00000000000000zz.snap"}) {
    EXPECT_EQ(parse_snapshot_file_name(bad), std::nullopt) << bad;
  }
}

TEST(SnapshotFileTest, RoundTrips) {
  TempDir dir("kcm-snap-");
  auto path = write_snapshot_file(dir.path(), 12, 4, state(), /*sync=*/true);
  ASSERT_TRUE(path.ok()) << path.error();
  EXPECT_EQ(*path, dir.path() / "snapshot-000000000000000c.snap");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "snapshot-000000000000000c.snap.tmp"));
  auto back = read_snapshot_file(*path);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back->revision, 12u);
  EXPECT_EQ(back->first_segment_after, 4u);
  EXPECT_EQ(back->records, state());
}

TEST(SnapshotFileTest, EmptyStateRoundTrips) {
  TempDir dir("kcm-snap-");
  auto path = write_snapshot_file(dir.path(), 5, 2, std::vector<Record>{}, /*sync=*/false);
  ASSERT_TRUE(path.ok()) << path.error();
  EXPECT_EQ(std::filesystem::file_size(*path), 44u);
  auto back = read_snapshot_file(*path);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_TRUE(back->records.empty());
}

TEST(SnapshotFileTest, RejectsStateThatIsNotAPutAtOrBeforeTheRevision) {
  TempDir dir("kcm-snap-");
  std::vector<Record> deleted = state();
  deleted[1].op = Record::Op::kDelete;
  auto r1 = write_snapshot_file(dir.path(), 12, 4, deleted, false);
  ASSERT_FALSE(r1.ok());
  EXPECT_EQ(r1.error(),
            "snapshot at revision 12: record apps/deployments default/web is not a put");
  auto r2 = write_snapshot_file(dir.path(), 11, 4, state(), false);
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error(),
            "snapshot at revision 11: record core/pods default/web-1 has later revision 12");
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(SnapshotFileTest, DamageIsAnErrorNamingFileAndOffset) {
  TempDir dir("kcm-snap-");
  auto path = write_snapshot_file(dir.path(), 12, 4, state(), false);
  ASSERT_TRUE(path.ok()) << path.error();
  const std::string good = read_file(*path);
  const std::string name = path->string();
  std::string first_record;
  encode_record(state()[0], &first_record);
  const std::size_t second = 44 + first_record.size();

  struct Case {
    std::string label;
    std::string bytes;
    std::string error;
  };
  std::vector<Case> cases;
  cases.push_back({"short", good.substr(0, 20),
                   name + ": corrupt snapshot at offset 0: file of 20 bytes is shorter than the "
                          "44-byte header"});
  {
    std::string b = good;
    b[0] = 'X';
    cases.push_back({"magic", b, name + ": corrupt snapshot at offset 0: bad magic"});
  }
  {
    std::string b = good;
    b[33] ^= 1;  // record count
    cases.push_back(
        {"header", b, name + ": corrupt snapshot at offset 0: header checksum mismatch"});
  }
  {
    std::string b = good;
    b[second + 30] ^= 1;
    cases.push_back(
        {"record", b,
         fmt::format("{}: corrupt snapshot at offset {}: record checksum mismatch", name, second)});
  }
  const std::size_t last_frame = encoded_size(state()[2]);  // 16 + 22 + 9 + 13 + 14
  ASSERT_EQ(last_frame, 74u);
  const std::size_t third = good.size() - last_frame;
  cases.push_back({"truncated", good.substr(0, good.size() - 3),
                   fmt::format("{}: corrupt snapshot at offset {}: record of 58 bytes extends past "
                               "the end of the file (55 bytes left)",
                               name, third)});
  {
    cases.push_back(
        {"missing record", good.substr(0, third),
         fmt::format("{}: corrupt snapshot at offset {}: ends after 2 of 3 records", name, third)});
  }
  cases.push_back({"trailing", good + "junk",
                   fmt::format("{}: corrupt snapshot at offset {}: 4 unexpected bytes after the "
                               "last record",
                               name, good.size())});
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    write_file(*path, c.bytes);
    auto r = read_snapshot_file(*path);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), c.error);
  }
}

TEST(SnapshotFileTest, HeaderRevisionMustMatchName) {
  TempDir dir("kcm-snap-");
  auto path = write_snapshot_file(dir.path(), 12, 4, state(), false);
  ASSERT_TRUE(path.ok()) << path.error();
  const auto renamed = dir.path() / snapshot_file_name(13);
  std::filesystem::rename(*path, renamed);
  auto r = read_snapshot_file(renamed);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), renamed.string() + ": header revision 12 does not match the file name");
}

}  // namespace
}  // namespace kcm::local::storage
