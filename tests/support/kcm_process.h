// The controller-manager as a process for the end-to-end tests: build/bin/kcm
// pointed at a LocalCluster, serving HTTPS on a free local port, logging to a
// file in its own temp dir.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "local_cluster.h"
#include "subprocess.h"

namespace kcm::e2e {

// A TCP port on 127.0.0.1 that was free a moment ago.
unsigned short free_local_port();

class KcmProcess {
 public:
  // `args` follow --kubeconfig, --bind-address=127.0.0.1 and --secure-port.
  KcmProcess(const LocalCluster& cluster, std::vector<std::string> args = {});
  ~KcmProcess();  // SIGKILL if still running

  unsigned short port() const { return port_; }
  std::string log() const { return read_file(log_); }
  bool running() { return process_.running(); }
  pid_t pid() const { return process_.pid(); }
  // SIGTERM (or another signal) and wait; the exit status, -signal when killed.
  int stop(int signal = 15, std::chrono::milliseconds timeout = std::chrono::seconds(30));

  // GET https://127.0.0.1:<port><path> (the certificate is self-signed) with curl:
  // the HTTP status and body; status 0 when nothing answered.
  struct HttpAnswer {
    int status = 0;
    std::string body;
  };
  HttpAnswer get(const std::string& path) const;

 private:
  std::unique_ptr<TempDir> dir_;
  std::filesystem::path log_;
  unsigned short port_ = 0;
  Process process_;
};

}  // namespace kcm::e2e
