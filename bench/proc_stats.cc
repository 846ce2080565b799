#include "bench/proc_stats.h"

#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "bench/kcm_local_process.h"

namespace kcm::bench {

Result<std::uint64_t> proc_status_bytes(pid_t pid, std::string_view field) {
  if (pid <= 0) return fail("no process");
  const std::filesystem::path file = "/proc/" + std::to_string(pid) + "/status";
  auto text = read_file(file);
  if (!text) return fail(text.error());
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > field.size() && line.compare(0, field.size(), field) == 0 &&
        line[field.size()] == ':') {
      // "VmRSS:	  123456 kB"
      return std::stoull(line.substr(field.size() + 1)) * 1024;
    }
  }
  return fail("no " + std::string(field) + " in " + file.string());
}

Result<double> proc_cpu_seconds(pid_t pid) {
  if (pid <= 0) return fail("no process");
  const std::filesystem::path file = "/proc/" + std::to_string(pid) + "/stat";
  auto text = read_file(file);
  if (!text) return fail(text.error());
  // "pid (comm) state ppid ...": the command name may hold spaces and
  // parentheses, so count the fields from the last closing parenthesis.
  const auto paren = text->rfind(')');
  if (paren == std::string::npos) return fail("cannot parse " + file.string());
  std::istringstream in(text->substr(paren + 1));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

char proc_state(pid_t pid) {
  if (pid <= 0) return '?';
  auto text = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!text) return '?';
  const auto paren = text->rfind(')');
  return paren != std::string::npos && paren + 2 < text->size() ? (*text)[paren + 2] : '?';
}

std::string load_average() {
  auto text = read_file("/proc/loadavg");
  if (!text) return "?";
  std::istringstream in(*text);
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

}  // namespace kcm::bench
