// Runs programs for the end-to-end tests: one-shot commands with captured
// output (kubectl) and long-running processes (kcm-local) that the tests stop,
// kill -9 and restart.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kcm::e2e {

struct CommandResult {
  int exit_code = -1;  // -1 when killed by a signal or timed out
  bool timed_out = false;
  std::string out;
  std::string err;
};

// Runs `argv` with `env` added to the environment, feeding `input` on stdin.
CommandResult run_command(const std::vector<std::string>& argv,
                          const std::map<std::string, std::string>& env = {},
                          const std::string& input = {},
                          std::chrono::milliseconds timeout = std::chrono::seconds(60));

// A background process whose stdout and stderr go to a log file.
class Process {
 public:
  Process() = default;
  Process(const std::vector<std::string>& argv, const std::filesystem::path& log,
          const std::map<std::string, std::string>& env = {});
  ~Process();
  Process(Process&& other) noexcept;
  Process& operator=(Process&& other) noexcept;

  pid_t pid() const { return pid_; }
  bool running();
  // Sends `signal` and waits for the exit; returns the exit status (or -signal).
  int stop(int signal, std::chrono::milliseconds timeout = std::chrono::seconds(20));

 private:
  pid_t pid_ = -1;
  int status_ = 0;
};

// The whole content of a file ("" when missing).
std::string read_file(const std::filesystem::path& path);

// A fresh directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "kcm-e2e-");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace kcm::e2e
