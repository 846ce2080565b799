#include "app/build_info.h"

#include <gtest/gtest.h>

#include "app/options.h"
#include "metrics/registry.h"

namespace kcm::app {
namespace {

TEST(BuildInfoTest, MajorMinor) {
  struct Case {
    std::string version;
    std::string major;
    std::string minor;
  };
  const std::vector<Case> cases = {
      {"v1.33.0", "1", "33"},
      {"v1.33", "1", "33"},
      {"v1.33.0-kcm.0", "1", "33+"},
      {"v1.36.0-alpha.2.15+0123456789abcd", "1", "36+"},
      {"v1.33.0+abc", "1", "33"},
      {"v0.0.0-master+$Format:%H$", "0", "0+"},
      {"1.33.0", "", ""},
      {"v1", "", ""},
      {"v1.x.0", "", ""},
      {"", "", ""},
  };
  for (const auto& c : cases) {
    const auto [major, minor] = major_minor(c.version);
    EXPECT_EQ(major, c.major) << c.version;
    EXPECT_EQ(minor, c.minor) << c.version;
  }
}

TEST(BuildInfoTest, CurrentBuild) {
  const BuildInfo info = current_build_info();
  EXPECT_EQ(info.git_version, kcm_version());
  const auto [major, minor] = major_minor(kcm_version());
  EXPECT_EQ(info.major, major);
  EXPECT_EQ(info.minor, minor);
  EXPECT_FALSE(info.major.empty());
  // 1970-01-01T00:00:00Z unless the build stamps a date.
  EXPECT_EQ(info.build_date.size(), std::string("1970-01-01T00:00:00Z").size()) << info.build_date;
#if defined(__clang__)
  EXPECT_EQ(info.compiler, "clang");
  EXPECT_TRUE(info.go_version.starts_with("clang++ ")) << info.go_version;
#elif defined(__GNUC__)
  EXPECT_EQ(info.compiler, "gcc");
  EXPECT_TRUE(info.go_version.starts_with("g++ ")) << info.go_version;
#endif
#if defined(__linux__) && defined(__x86_64__)
  EXPECT_EQ(info.platform, "linux/amd64");
#endif
}

TEST(BuildInfoTest, RendersAsComponentBase) {
  BuildInfo info;
  info.major = "1";
  info.minor = "33+";
  info.git_version = "v1.33.0-kcm.0";
  info.git_commit = "0123456789abcdef0123456789abcdef01234567";
  info.git_tree_state = "clean";
  info.build_date = "2026-05-01T12:00:00Z";
  info.go_version = "g++ 12.2.0";
  info.compiler = "gcc";
  info.platform = "linux/amd64";
  metrics::Registry registry;
  ASSERT_TRUE(register_build_info(registry, info));
  EXPECT_EQ(registry.render_text(),
            "# HELP kubernetes_build_info [BETA] A metric with a constant '1' value labeled by "
            "major, minor, git version, git commit, git tree state, build date, Go version, and "
            "compiler from which Kubernetes was built, and platform on which it is running.\n"
            "# TYPE kubernetes_build_info gauge\n"
            "kubernetes_build_info{build_date=\"2026-05-01T12:00:00Z\",compiler=\"gcc\","
            "git_commit=\"0123456789abcdef0123456789abcdef01234567\",git_tree_state=\"clean\","
            "git_version=\"v1.33.0-kcm.0\",go_version=\"g++ 12.2.0\",major=\"1\",minor=\"33+\","
            "platform=\"linux/amd64\"} 1\n");

  auto again = register_build_info(registry, info);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error(), "duplicate metrics collector registration attempted");
}

TEST(BuildInfoTest, RegistersTheCurrentBuildByDefault) {
  metrics::Registry registry;
  ASSERT_TRUE(register_build_info(registry));
  const std::string text = registry.render_text();
  EXPECT_NE(text.find("git_version=\"" + std::string(kcm_version()) + "\""), std::string::npos)
      << text;
  EXPECT_NE(text.find("git_commit=\"" + current_build_info().git_commit + "\""), std::string::npos)
      << text;
}

}  // namespace
}  // namespace kcm::app
