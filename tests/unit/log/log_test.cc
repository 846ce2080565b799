#include "log/log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kcm::log {
namespace {

TEST(LogTest, KlogTextFormat) {
  EXPECT_EQ(
      format_line(Severity::kInfo, "1130 15:42:41.123456", 12345, "/src/a/replica_set.cc", 201,
                  "Too few replicas", {{"replicaSet", "default/web"}, {"need", 3}, {"ok", false}}),
      "I1130 15:42:41.123456   12345 replica_set.cc:201] \"Too few replicas\" "
      "replicaSet=\"default/web\" need=3 ok=false");
  EXPECT_EQ(format_line(Severity::kError, "0101 00:00:00.000000", 1, "x.cc", 1,
                        "quote \" and\nnewline", {{"err", "a\tb"}}),
            "E0101 00:00:00.000000       1 x.cc:1] \"quote \\\" and\\nnewline\" err=\"a\\tb\"");
  EXPECT_EQ(format_line(Severity::kWarning, "0101 00:00:00.000000", 1, "x.cc", 1, "w", {})[0], 'W');
}

TEST(LogTest, VerbosityAndSink) {
  std::vector<std::string> lines;
  set_sink([&](std::string_view l) { lines.emplace_back(l); });
  set_verbosity(2);
  EXPECT_TRUE(v(2));
  EXPECT_FALSE(v(3));
  info("hello", {{"n", 1}});
  set_sink(nullptr);
  set_verbosity(0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].front(), 'I');
  EXPECT_NE(lines[0].find("log_test.cc:"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("] \"hello\" n=1"), std::string::npos) << lines[0];
}

}  // namespace
}  // namespace kcm::log
