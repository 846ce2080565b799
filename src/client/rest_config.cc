#include "client/rest_config.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

namespace kcm::client {
namespace {

#ifdef KCM_GIT_COMMIT
constexpr std::string_view kGitCommit = KCM_GIT_COMMIT;
#else
constexpr std::string_view kGitCommit = "";
#endif

// Go's GOOS and GOARCH names for the platform kcm was built for.
constexpr std::string_view kOs =
#if defined(__linux__)
    "linux";
#elif defined(__APPLE__)
    "darwin";
#elif defined(__FreeBSD__)
    "freebsd";
#else
    "unknown";
#endif

constexpr std::string_view kArch =
#if defined(__x86_64__)
    "amd64";
#elif defined(__aarch64__)
    "arm64";
#elif defined(__i386__)
    "386";
#elif defined(__arm__)
    "arm";
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
        "ppc64le";
#elif defined(__s390x__)
        "s390x";
#elif defined(__riscv) && __riscv_xlen == 64
        "riscv64";
#else
        "unknown";
#endif

std::string_view or_unknown(std::string_view s) {
  return s.empty() ? "unknown" : s;
}

// filepath.Base: the last element, trailing slashes dropped; "/" for all slashes.
std::string_view base_name(std::string_view p) {
  if (p.empty()) return p;
  while (p.size() > 1 && p.back() == '/')
    p.remove_suffix(1);
  if (p == "/") return p;
  const auto slash = p.rfind('/');
  return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

}  // namespace

std::string build_user_agent(std::string_view command, std::string_view git_version,
                             std::string_view os, std::string_view arch,
                             std::string_view git_commit) {
  const std::string_view cmd = command.empty() ? "unknown" : base_name(command);
  const std::string_view version =
      git_version.empty() ? "unknown" : git_version.substr(0, git_version.find('-'));
  const std::string_view commit = git_commit.empty() ? "unknown" : git_commit.substr(0, 7);
  return fmt::format("{}/{} ({}/{}) kubernetes/{}", cmd, version, or_unknown(os), or_unknown(arch),
                     commit);
}

std::string default_user_agent(std::string_view binary) {
  return build_user_agent(binary, kGitVersion, kOs, kArch, kGitCommit);
}

void add_user_agent(RestConfig& config, std::string_view name, std::string_view binary) {
  config.user_agent = default_user_agent(binary) + "/" + std::string(name);
}

std::string go_errno_text(int err) {
  std::string text = std::strerror(err);
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

Result<std::string> read_file_go(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(fmt::format("open {}: {}", path, go_errno_text(errno)));
  std::string data;
  char buf[8192];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return fail(fmt::format("read {}: {}", path, go_errno_text(err)));
    }
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return data;
}

}  // namespace kcm::client
