#include "client/rest_config.h"

#include <gtest/gtest.h>

#include <regex>

namespace kcm::client {
namespace {

TEST(UserAgentTest, BuildsUpstreamFormat) {
  struct Case {
    std::string command, version, os, arch, commit, want;
  };
  const Case cases[] = {
      {"/usr/local/bin/kube-controller-manager", "v1.35.0", "linux", "amd64", "abc1234def",
       "kube-controller-manager/v1.35.0 (linux/amd64) kubernetes/abc1234"},
      {"kcm", "v1.35.0-rc.1+abc", "linux", "arm64", "abc",
       "kcm/v1.35.0 (linux/arm64) kubernetes/abc"},
      {"", "", "", "", "", "unknown/unknown (unknown/unknown) kubernetes/unknown"},
      {"./bin/kcm/", "v0.1.0-kcm", "linux", "amd64", "",
       "kcm/v0.1.0 (linux/amd64) kubernetes/unknown"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(build_user_agent(c.command, c.version, c.os, c.arch, c.commit), c.want);
  }
}

TEST(UserAgentTest, DefaultAndAdded) {
  const std::string ua = default_user_agent();
  EXPECT_TRUE(
      std::regex_match(ua, std::regex(R"(kcm/v0\.1\.0 \([a-z0-9]+/[a-z0-9]+\) kubernetes/\w+)")))
      << ua;
  EXPECT_EQ(default_user_agent("/opt/kcm/bin/kube-controller-manager")
                .rfind("kube-controller-manager/", 0),
            0u);
  RestConfig rc;
  rc.user_agent = "something else";
  add_user_agent(rc, "deployment-controller");
  EXPECT_EQ(rc.user_agent, ua + "/deployment-controller");
}

TEST(ReadFileGoTest, ErrorsUseGoText) {
  auto missing = read_file_go("/nonexistent-kcm/x");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "open /nonexistent-kcm/x: no such file or directory");
  auto dir = read_file_go("/");
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error(), "read /: is a directory");
}

}  // namespace
}  // namespace kcm::client
