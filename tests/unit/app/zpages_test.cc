// /flagz and /statusz (component-base zpages, 1.33): upstream's
// httputil_test, flagz_test and statusz_test cases, byte for byte.
#include "app/zpages.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

namespace kcm::app {
namespace {

constexpr std::string_view kWarning =
    "Warning: This endpoint is not meant to be machine parseable, has no formatting "
    "compatibility guarantees and is for debugging purposes only.\n";

TEST(ZpagesTest, AcceptsWhatHttputilAccepts) {
  struct Case {
    std::string accept;
    bool want;
  };
  const std::vector<Case> cases = {
      {"text/plain", true},
      {"text/*", true},
      {"*/plain", true},
      {"*/*", true},
      {"*", true},
      {"text/plain; charset=utf-8", true},
      {"text/plain;charset=UTF-8", true},
      {"text/plain;q=0", true},  // q is never a refusal here
      {"application/json, */*", true},
      {"application/json,text/plain", true},
      {"", false},
      {"text/foo", false},
      {"text/plain; foo=bar", false},
      {"text/plain; charset=iso-8859-1", false},
      {"text/plain; charset=utf-8; foo=bar", false},
      {"application/json", false},
      {"TEXT/PLAIN", false},
      {"some header", false},
      {"text", false},
      {"text/plain/x", false},
  };
  for (const Case& c : cases)
    EXPECT_EQ(accepts_text_plain(c.accept), c.want) << c.accept;
}

TEST(ZpagesTest, FlagzListsEveryFlagSortedWithTheDelimiter) {
  const std::map<std::string, std::string> flags = {
      {"test-flag-foo", "test-value-foo"}, {"test-flag-bar", "test-value-bar"}, {"empty", ""}};
  EXPECT_EQ(flagz_text("kube-controller-manager", flags, "="),
            "\nkube-controller-manager flags\n" + std::string(kWarning) +
                "\nempty=\ntest-flag-bar=test-value-bar\ntest-flag-foo=test-value-foo\n");
  EXPECT_EQ(flagz_text("c", {}, ": "), "\nc flags\n" + std::string(kWarning) + "\n");
}

class UtcZone : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* tz = std::getenv("TZ")) saved_ = tz;
    setenv("TZ", "UTC", 1);
    tzset();
  }
  void TearDown() override {
    if (saved_) {
      setenv("TZ", saved_->c_str(), 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }
  std::optional<std::string> saved_;
};

using StatuszTest = UtcZone;

TEST_F(StatuszTest, LinesAsUpstreamsTemplate) {
  ZpagesOptions o;
  o.started = std::chrono::system_clock::time_point(std::chrono::seconds(1725603591));
  o.go_version = "1.21";
  o.binary_version = "1.31.0+dev";
  o.emulation_version = "1.30";
  const auto now = o.started + std::chrono::hours(27) + std::chrono::minutes(3) +
                   std::chrono::seconds(9) + std::chrono::milliseconds(900);
  EXPECT_EQ(statusz_text(o, ":", now), "\nkube-controller-manager statusz\n" +
                                           std::string(kWarning) +
                                           "\nStarted: Fri Sep  6 06:19:51 UTC 2024\n"
                                           "Up: 27 hr 03 min 09 sec\n"
                                           "Go version: 1.21\n"
                                           "Binary version: 1.31.0+dev\n"
                                           "Emulation version: 1.30\n");
  // Without an emulation version the last line is empty; the delimiter is
  // always followed by one more space.
  o.emulation_version.clear();
  EXPECT_EQ(statusz_text(o, " ", o.started),
            "\nkube-controller-manager statusz\n" + std::string(kWarning) +
                "\nStarted  Fri Sep  6 06:19:51 UTC 2024\nUp  0 hr 00 min 00 sec\n"
                "Go version  1.21\nBinary version  1.31.0+dev\n\n");
}

TEST_F(StatuszTest, ServesOnlyEnabledPagesAndOnlyToTextPlain) {
  std::size_t next = 0;
  ZpagesOptions o;
  o.flagz = true;
  o.flags = {{"v", "2"}};
  o.started = std::chrono::system_clock::now();
  o.binary_version = "1.33.0";
  o.emulation_version = "1.33";
  o.pick = [&](std::size_t) { return next++; };  // ":", ": ", "=", " " in turn
  const Zpages pages(o);
  EXPECT_FALSE(pages.serve("/statusz", "*/*"));  // its gate is off
  EXPECT_FALSE(pages.serve("/flagz/", "*/*"));
  EXPECT_FALSE(pages.serve("/other", "*/*"));

  const auto refused = pages.serve("/flagz", "");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 406);
  EXPECT_EQ(refused->body, "media type not acceptable, must be: text/plain\n");
  EXPECT_TRUE(refused->nosniff);
  EXPECT_EQ(next, 0u);  // a refused request draws nothing

  const auto first = pages.serve("/flagz", "text/plain; charset=utf-8");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(first->content_type, "text/plain; charset=utf-8");
  EXPECT_FALSE(first->nosniff);
  EXPECT_TRUE(first->body.ends_with("\nv:2\n")) << first->body;
  // Made once: the same delimiter ever after.
  EXPECT_EQ(pages.serve("/flagz", "*/*")->body, first->body);

  o.flagz = false;
  o.statusz = true;
  next = 2;
  const Zpages status(o);
  EXPECT_FALSE(status.serve("/flagz", "*/*"));
  const std::string a = status.serve("/statusz", "*/*")->body;
  const std::string b = status.serve("/statusz", "*/*")->body;
  EXPECT_NE(a.find("\nBinary version= 1.33.0\nEmulation version= 1.33\n"), std::string::npos) << a;
  // A fresh delimiter per request.
  EXPECT_NE(b.find("\nUp  0 hr 00 min 0"), std::string::npos) << b;
}

TEST(ZpagesTest, ProcessStartIsThisProcesssAndWholeSeconds) {
  const auto start = process_start_time();
  const auto now = std::chrono::system_clock::now();
  EXPECT_LE(start, now);
  EXPECT_GT(start, now - std::chrono::hours(1));
  const auto since_epoch = start.time_since_epoch();
  EXPECT_EQ(std::chrono::floor<std::chrono::seconds>(since_epoch), since_epoch);
}

}  // namespace
}  // namespace kcm::app
