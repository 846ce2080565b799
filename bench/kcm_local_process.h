// A kcm-local server run as a separate process for the benchmarks: started on
// a fresh data directory with --listen 127.0.0.1:0, its port read from the
// "serving on" line, its credentials from <data-dir>/pki; memory and disk use
// measured from outside (/proc/<pid>/status, the data directory's files).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "api/result.h"

namespace kcm::bench {

struct KcmLocalOptions {
  std::filesystem::path binary;    // the kcm-local executable
  std::filesystem::path data_dir;  // created if absent; should be empty
  bool fsync = true;               // false: --unsafe-no-fsync
  std::vector<std::string> extra_args;
};

class KcmLocalProcess {
 public:
  static Result<std::unique_ptr<KcmLocalProcess>> start(const KcmLocalOptions& options);
  ~KcmLocalProcess();  // stops the server (SIGTERM, then SIGKILL after 30 s)
  KcmLocalProcess(const KcmLocalProcess&) = delete;
  KcmLocalProcess& operator=(const KcmLocalProcess&) = delete;

  // Stops the server and returns how it ended ("exit 0", "signal 9", ...).
  std::string stop();

  pid_t pid() const { return pid_; }
  unsigned short port() const { return port_; }
  const std::string& token() const { return token_; }
  const std::string& ca_pem() const { return ca_pem_; }
  const std::filesystem::path& data_dir() const { return data_dir_; }

  // VmRSS and VmHWM (peak) of the server process, in bytes.
  Result<std::uint64_t> rss_bytes() const;
  Result<std::uint64_t> peak_rss_bytes() const;
  // CPU time (user + system) the server has used so far, in seconds.
  Result<double> cpu_seconds() const;
  // Total size of the regular files under the data directory.
  std::uint64_t data_dir_bytes() const;
  // Everything the server wrote to stderr so far (warnings, errors).
  std::string stderr_text() const;

 private:
  KcmLocalProcess() = default;
  Result<std::uint64_t> status_field(std::string_view field) const;

  pid_t pid_ = -1;
  unsigned short port_ = 0;
  std::string token_;
  std::string ca_pem_;
  std::filesystem::path data_dir_;
  std::filesystem::path stdout_file_;
  std::filesystem::path stderr_file_;
};

// CPU time (user + system) of this process so far, in seconds.
double own_cpu_seconds();

// Reads a whole file; an error names the file.
Result<std::string> read_file(const std::filesystem::path& file);

}  // namespace kcm::bench
