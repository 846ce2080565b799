#include "local/storage/record_codec.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "storage_test_util.h"

namespace kcm::local::storage {
namespace {

Record make(std::uint64_t revision, std::string value = R"({"kind":"Pod"})") {
  return {Record::Op::kPut, revision, "core/pods", "default/p" + std::to_string(revision),
          std::move(value)};
}

std::string encode(const Record& r) {
  std::string out;
  encode_record(r, &out);
  return out;
}

void put_u32_at(std::string* s, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    (*s)[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// Rewrites the header checksums after a test edited the header or payload on purpose.
void reseal(std::string* frame) {
  put_u32_at(frame, 8, crc32c(std::string_view(*frame).substr(kFrameHeaderBytes)));
  put_u32_at(frame, 12, crc32c(std::string_view(*frame).substr(0, 12)));
}

TEST(RecordCodecTest, Crc32cMatchesTheCheckValue) {
  // The standard check value of CRC-32C (Castagnoli).
  EXPECT_EQ(crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(crc32c(""), 0u);
  EXPECT_EQ(crc32c_portable("123456789"), 0xE3069283u);
  EXPECT_EQ(crc32c_portable(""), 0u);
}

// The hardware path (where the CPU has one) and the portable one agree on every
// length around the 8-byte steps and every offset of the data in memory.
TEST(RecordCodecTest, Crc32cAgreesWithThePortableCrc) {
  std::string data(4096 + 16, '\0');
  std::uint32_t x = 2463534242u;  // xorshift32: fixed, varied bytes
  for (char& c : data) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    c = static_cast<char>(x);
  }
  const std::string_view all(data);
  for (std::size_t offset = 0; offset < 8; ++offset) {
    for (std::size_t size : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 63u, 64u, 65u, 1000u, 4096u}) {
      const std::string_view bytes = all.substr(offset, size);
      EXPECT_EQ(crc32c(bytes), crc32c_portable(bytes)) << "offset " << offset << " size " << size;
    }
  }
}

TEST(RecordCodecTest, RoundTrips) {
  const std::vector<Record> cases = {
      make(1),
      {Record::Op::kDelete, 2, "apps/deployments", "ns/web", R"({"metadata":{}})"},
      {Record::Op::kPut, 3, "", "", ""},
      {Record::Op::kPut, 0xffffffffffffffffull, "core/nodes", "node-1", std::string("a\0b", 3)},
      make(5, std::string(3 << 20, 'x')),  // larger than the read-ahead
  };
  for (const Record& r : cases) {
    SCOPED_TRACE(r.key);
    const std::string bytes = encode(r);
    EXPECT_EQ(bytes.size(), encoded_size(r));
    Record back;
    const FrameCheck check = decode_frame(bytes, &back);
    ASSERT_EQ(check.status, FrameCheck::Status::kOk) << check.reason;
    EXPECT_EQ(check.size, bytes.size());
    EXPECT_EQ(back, r);
  }
}

TEST(RecordCodecTest, HeaderLayout) {
  const std::string bytes = encode({Record::Op::kDelete, 0x0102030405060708, "r", "k", "v"});
  EXPECT_EQ(bytes.substr(0, 4), std::string("KWL\0", 4));
  EXPECT_EQ(bytes.substr(4, 4), std::string("\x19\0\0\0", 4));  // 22 fixed + 3 bytes
  EXPECT_EQ(bytes[16], 1);                                      // format version
  EXPECT_EQ(bytes[17], 2);                                      // kDelete
  EXPECT_EQ(bytes.substr(18, 8), "\x08\x07\x06\x05\x04\x03\x02\x01");
  EXPECT_EQ(bytes.substr(38), "rkv");
}

TEST(RecordCodecTest, DecodeRejectsDamage) {
  const std::string good = encode(make(7));  // 16 + 22 + 9 + 10 + 14 = 71 bytes
  ASSERT_EQ(good.size(), 71u);
  struct Case {
    std::string name;
    std::string bytes;
    FrameCheck::Status status;
    std::string reason;
  };
  std::vector<Case> cases;
  cases.push_back({"empty", "", FrameCheck::Status::kEnd, ""});
  cases.push_back({"short header", good.substr(0, 5), FrameCheck::Status::kTorn,
                   "incomplete record header (5 of 16 bytes)"});
  cases.push_back({"zeros", std::string(40, '\0'), FrameCheck::Status::kTorn, "bad record magic"});
  {
    std::string b = good;
    b[5] ^= 0x01;  // length, without resealing
    cases.push_back(
        {"length flipped", b, FrameCheck::Status::kTorn, "record header checksum mismatch"});
  }
  cases.push_back({"cut payload", good.substr(0, 60), FrameCheck::Status::kTorn,
                   "record of 55 bytes extends past the end of the file (44 bytes left)"});
  {
    std::string b = good;
    b[50] ^= 0x40;
    cases.push_back({"payload flipped", b, FrameCheck::Status::kTorn, "record checksum mismatch"});
  }
  {
    std::string b = good.substr(0, kFrameHeaderBytes);
    put_u32_at(&b, 4, static_cast<std::uint32_t>(kMaxPayloadBytes + 1));
    put_u32_at(&b, 12, crc32c(std::string_view(b).substr(0, 12)));
    cases.push_back({"huge length", b, FrameCheck::Status::kTorn,
                     "record length 67108865 exceeds the limit of 67108864 bytes"});
  }
  {
    std::string b = good;
    b[16] = 9;
    reseal(&b);
    cases.push_back(
        {"version", b, FrameCheck::Status::kMalformed, "unsupported record format version 9"});
  }
  {
    std::string b = good;
    b[17] = 3;
    reseal(&b);
    cases.push_back({"op", b, FrameCheck::Status::kMalformed, "unknown record op 3"});
  }
  {
    std::string b = good;
    put_u32_at(&b, 34, 15);  // value length 14 -> 15
    reseal(&b);
    cases.push_back({"inner lengths", b, FrameCheck::Status::kMalformed,
                     "field lengths 9+10+15 do not match the payload length 55"});
  }
  {
    std::string b = good.substr(0, kFrameHeaderBytes + 10);
    put_u32_at(&b, 4, 10);
    reseal(&b);
    cases.push_back({"short payload", b, FrameCheck::Status::kMalformed,
                     "payload of 10 bytes is shorter than the 22-byte record header"});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Record r;
    const FrameCheck check = decode_frame(c.bytes, &r);
    EXPECT_EQ(check.status, c.status);
    EXPECT_EQ(check.reason, c.reason);
  }
}

TEST(RecordCodecTest, ReaderWalksFramesAndStopsAtDamage) {
  TempDir dir("kcm-codec-");
  std::string bytes;
  std::vector<Record> records = {make(1), make(2, std::string(1500000, 'y')), make(3)};
  for (const Record& r : records)
    encode_record(r, &bytes);
  const std::size_t good_size = bytes.size();
  bytes += encode(make(4)).substr(0, 30);  // torn
  const auto path = dir.path() / "seg";
  write_file(path, bytes);

  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  FrameReader reader(fd, bytes.size(), 0);
  for (const Record& want : records) {
    Record got;
    auto check = reader.next(&got);
    ASSERT_TRUE(check.ok()) << check.error();
    ASSERT_EQ(check->status, FrameCheck::Status::kOk) << check->reason;
    EXPECT_EQ(got, want);
  }
  EXPECT_EQ(reader.offset(), good_size);
  Record got;
  auto check = reader.next(&got);
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check->status, FrameCheck::Status::kTorn);
  EXPECT_EQ(check->reason, "record of 55 bytes extends past the end of the file (14 bytes left)");
  EXPECT_EQ(reader.offset(), good_size);  // stays at the bad frame

  auto after = find_valid_frame_after(fd, bytes.size(), good_size);
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(after->has_value());
  auto from_first = find_valid_frame_after(fd, bytes.size(), 0);
  ASSERT_TRUE(from_first.ok());
  EXPECT_EQ(*from_first, std::optional<std::uint64_t>(encoded_size(records[0])));
  ::close(fd);
}

TEST(RecordCodecTest, FindValidFrameSkipsLookalikes) {
  TempDir dir("kcm-codec-");
  // A magic with a broken header, then a whole frame with a broken payload: neither counts.
  std::string bytes = std::string(10, 'z') + std::string("KWL\0", 4) + std::string(20, 'q');
  std::string bad = encode(make(8));
  bad.back() ^= 1;
  bytes += bad;
  const auto path = dir.path() / "seg";
  write_file(path, bytes);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  auto none = find_valid_frame_after(fd, bytes.size(), 0);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  ::close(fd);

  const std::size_t at = bytes.size();
  bytes += encode(make(9));
  write_file(path, bytes);
  const int fd2 = ::open(path.c_str(), O_RDONLY);
  auto found = find_valid_frame_after(fd2, bytes.size(), 0);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, std::optional<std::uint64_t>(at));
  ::close(fd2);
}

}  // namespace
}  // namespace kcm::local::storage
