// Any program run as a child process of a benchmark (kcm itself, for the
// controller benchmarks): started with its arguments, stdout and stderr sent
// to files beside each other, stopped with SIGTERM (SIGKILL after a timeout).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "api/result.h"

namespace kcm::bench {

struct ChildOptions {
  std::filesystem::path binary;
  std::vector<std::string> args;  // without argv[0]
  // Output goes to <log_prefix>.stdout and <log_prefix>.stderr.
  std::filesystem::path log_prefix;
};

class ChildProcess {
 public:
  static Result<std::unique_ptr<ChildProcess>> start(const ChildOptions& options);
  ~ChildProcess();  // stop()
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // SIGTERM, then SIGKILL after `grace`; returns how it ended ("exit 0",
  // "signal 9"), or how it had ended before (by itself or an earlier stop).
  std::string stop(std::chrono::seconds grace = std::chrono::seconds(30));

  // Empty while the process runs; how it ended once it has ended by itself.
  std::string ended();

  // The pid while running (-1 once it has been reaped).
  pid_t pid() const { return pid_; }
  std::string stdout_text() const;
  std::string stderr_text() const;
  const std::filesystem::path& stdout_file() const { return stdout_file_; }
  const std::filesystem::path& stderr_file() const { return stderr_file_; }

 private:
  ChildProcess() = default;
  static std::string describe(int wait_status);

  pid_t pid_ = -1;
  std::string ended_;
  std::filesystem::path stdout_file_;
  std::filesystem::path stderr_file_;
};

// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, read
// back, closed): for programs that cannot pick their own.
Result<unsigned short> free_tcp_port();

}  // namespace kcm::bench
