#include "controller/hash.h"

#include <gtest/gtest.h>

#include "upstream_cases.h"

namespace kcm::controller {
namespace {

TEST(Hash, UpstreamSafeEncodeString) {
  const json::object file = kcm::testing::load_upstream_cases("safe_encode_string.json");
  ASSERT_EQ(kcm::testing::cases_of(file).size(), 2u);
  for (const json::value& c : kcm::testing::cases_of(file)) {
    EXPECT_EQ(safe_encode_string(kcm::testing::str(c.at("input").at("decimal"))),
              kcm::testing::str(c.at("expected").at("encoded")))
        << kcm::testing::str(c.at("name"));
  }
}

TEST(Hash, SafeEncodeStringUsesOnlyTheAlphabet) {
  std::string all;
  for (int b = 0; b < 256; ++b)
    all += static_cast<char>(b);
  const std::string encoded = safe_encode_string(all);
  ASSERT_EQ(encoded.size(), 256u);
  EXPECT_EQ(encoded.find_first_not_of("bcdfghjklmnpqrstvwxz2456789"), std::string::npos);
  EXPECT_EQ(encoded[255], 'q');  // 255 % 27 = 12
}

TEST(Hash, Fnv1a32KnownVectors) {
  EXPECT_EQ(fnv1a32(""), 0x811c9dc5u);
  EXPECT_EQ(fnv1a32("a"), 0xe40c292cu);
  EXPECT_EQ(fnv1a32("foobar"), 0xbf9cf968u);
  // Continuing a hash is hashing the concatenation.
  EXPECT_EQ(fnv1a32("bar", fnv1a32("foo")), fnv1a32("foobar"));
}

TEST(Hash, CanonicalJsonSortsMembersAtEveryDepth) {
  const json::value a = json::parse(R"({"b":1,"a":{"y":[{"q":1,"p":2}],"x":"s"}})");
  EXPECT_EQ(canonical_json(a), R"({"a":{"x":"s","y":[{"p":2,"q":1}]},"b":1})");
}

TEST(Hash, ComputeHashIsDeterministicAndSensitive) {
  const json::value t1 = json::parse(
      R"({"metadata":{"labels":{"app":"web","tier":"fe"}},"spec":{"containers":[{"name":"c","image":"nginx:1"}]}})");
  const json::value t1_reordered = json::parse(
      R"({"spec":{"containers":[{"image":"nginx:1","name":"c"}]},"metadata":{"labels":{"tier":"fe","app":"web"}}})");
  const json::value t2 = json::parse(
      R"({"metadata":{"labels":{"app":"web","tier":"fe"}},"spec":{"containers":[{"name":"c","image":"nginx:2"}]}})");
  const std::string h = compute_hash(t1, std::nullopt);
  EXPECT_EQ(h, compute_hash(t1, std::nullopt));
  EXPECT_EQ(h, compute_hash(t1_reordered, std::nullopt));
  EXPECT_NE(h, compute_hash(t2, std::nullopt));
  EXPECT_NE(h, compute_hash(t1, 0));  // a collision count of 0 still adds bytes
  EXPECT_NE(compute_hash(t1, 0), compute_hash(t1, 1));
  EXPECT_LE(h.size(), 10u);
  EXPECT_FALSE(h.empty());
  EXPECT_EQ(h.find_first_not_of("bcdfghjklmnpqrstvwxz2456789"), std::string::npos);
  // Pin the value so that an accidental change of the serialization shows.
  EXPECT_EQ(h, safe_encode_string(std::to_string(fnv1a32(canonical_json(t1)))));
}

TEST(Hash, CollisionCountBytesAreLittleEndianUint32AndFourZeros) {
  const json::value t = json::parse(R"({"a":1})");
  const std::string bytes("\x05\x01\x00\x00\x00\x00\x00\x00", 8);
  EXPECT_EQ(compute_hash(t, 261),
            safe_encode_string(std::to_string(fnv1a32(bytes, fnv1a32(canonical_json(t))))));
  const std::string negative("\xff\xff\xff\xff\x00\x00\x00\x00", 8);
  EXPECT_EQ(compute_hash(t, -1),
            safe_encode_string(std::to_string(fnv1a32(negative, fnv1a32(canonical_json(t))))));
}

}  // namespace
}  // namespace kcm::controller
