// The Accept header's clauses in goautoneg's order (upstream's negotiation).
#include "api/accept_header.h"

#include <gtest/gtest.h>

namespace kcm::api {
namespace {

TEST(AcceptHeaderTest, ParsesClausesInGoautonegOrder) {
  const auto clauses = parse_accept(
      " text/plain;q=0.2 , */*;q=0.2,application/json;as=Table; g = meta.k8s.io ;q=0.9,"
      "bad,a/b/c,application/*");
  ASSERT_EQ(clauses.size(), 4u);
  EXPECT_EQ(clauses[0].type, "application");
  EXPECT_EQ(clauses[0].subtype, "*");
  EXPECT_EQ(clauses[1].subtype, "json");
  EXPECT_FLOAT_EQ(clauses[1].q, 0.9f);
  EXPECT_EQ(clauses[1].param("as"), "Table");
  EXPECT_EQ(clauses[1].param("g"), "meta.k8s.io");
  EXPECT_EQ(clauses[1].param("v"), "");
  EXPECT_EQ(clauses[2].type, "text");
  EXPECT_EQ(clauses[3].type, "*");
}

TEST(AcceptHeaderTest, UnparsableQReadsAsZeroAndRepeatedKeysKeepTheLast) {
  const auto clauses = parse_accept("application/json;q=x;as=A;as=B, text/html");
  ASSERT_EQ(clauses.size(), 2u);
  EXPECT_EQ(clauses[0].type, "text");
  EXPECT_FLOAT_EQ(clauses[1].q, 0.0f);
  EXPECT_EQ(clauses[1].param("as"), "B");
}

}  // namespace
}  // namespace kcm::api
