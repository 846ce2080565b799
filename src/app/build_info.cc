#include "app/build_info.h"

#include <regex>
#include <tuple>
#include <utility>

#include "app/options.h"
#include "metrics/gauge.h"

namespace kcm::app {
namespace {

#ifdef KCM_GIT_COMMIT
constexpr std::string_view kGitCommit = KCM_GIT_COMMIT;
#else
constexpr std::string_view kGitCommit = "";
#endif

#ifdef KCM_GIT_TREE_STATE
constexpr std::string_view kGitTreeState = KCM_GIT_TREE_STATE;
#else
constexpr std::string_view kGitTreeState = "";
#endif

#ifdef KCM_BUILD_DATE
constexpr std::string_view kBuildDate = KCM_BUILD_DATE;
#else
constexpr std::string_view kBuildDate = "1970-01-01T00:00:00Z";
#endif

#define KCM_STR2(x) #x
#define KCM_STR(x) KCM_STR2(x)
#if defined(__clang__)
constexpr std::string_view kCompiler = "clang";
constexpr std::string_view kCompilerVersion = "clang++ " KCM_STR(__clang_major__) "." KCM_STR(
    __clang_minor__) "." KCM_STR(__clang_patchlevel__);
#elif defined(__GNUC__)
constexpr std::string_view kCompiler = "gcc";
constexpr std::string_view kCompilerVersion =
    "g++ " KCM_STR(__GNUC__) "." KCM_STR(__GNUC_MINOR__) "." KCM_STR(__GNUC_PATCHLEVEL__);
#else
constexpr std::string_view kCompiler = "unknown";
constexpr std::string_view kCompilerVersion = "unknown";
#endif
#undef KCM_STR
#undef KCM_STR2

// Go's GOOS/GOARCH names for the build target.
constexpr std::string_view kPlatform =
#if defined(__linux__)
#if defined(__x86_64__)
    "linux/amd64";
#elif defined(__aarch64__)
    "linux/arm64";
#else
    "linux/unknown";
#endif
#else
    "unknown/unknown";
#endif

}  // namespace

std::pair<std::string, std::string> major_minor(std::string_view git_version) {
  static const std::regex re(R"(^v([0-9]+)\.([0-9]+)(\.[0-9]+)?([-].*)?([+].*)?$)");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(git_version.begin(), git_version.end(), m, re)) return {};
  std::string minor = m[2].str();
  if (m[4].matched) minor += "+";
  return {m[1].str(), std::move(minor)};
}

BuildInfo current_build_info() {
  BuildInfo info;
  info.git_version = std::string(kcm_version());
  std::tie(info.major, info.minor) = major_minor(info.git_version);
  info.git_commit = std::string(kGitCommit);
  info.git_tree_state = std::string(kGitTreeState);
  info.build_date = std::string(kBuildDate);
  info.go_version = std::string(kCompilerVersion);
  info.compiler = std::string(kCompiler);
  info.platform = std::string(kPlatform);
  return info;
}

Result<void> register_build_info(metrics::Registry& registry, const BuildInfo& info) {
  metrics::Opts opts;
  opts.name = "kubernetes_build_info";
  opts.help =
      "A metric with a constant '1' value labeled by major, minor, git version, git commit, git "
      "tree state, build date, Go version, and compiler from which Kubernetes was built, and "
      "platform on which it is running.";
  opts.stability = metrics::StabilityLevel::kBeta;
  auto gauge = metrics::GaugeVec::create(
      opts, {"major", "minor", "git_version", "git_commit", "git_tree_state", "build_date",
             "go_version", "compiler", "platform"});
  if (!gauge) return fail(gauge.error());
  auto series = (*gauge)->with_label_values({info.major, info.minor, info.git_version,
                                             info.git_commit, info.git_tree_state, info.build_date,
                                             info.go_version, info.compiler, info.platform});
  if (!series) return fail(series.error());
  (*series)->set(1);
  return registry.register_collector(*gauge);
}

}  // namespace kcm::app
