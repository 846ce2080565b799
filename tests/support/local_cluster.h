// Test fixtures for the end-to-end tests: a kcm-local process in a fresh
// data directory on a free port, and the real kubectl pointed at it with a
// fresh discovery cache.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "eventually.h"
#include "subprocess.h"

namespace kcm::e2e {

class LocalCluster {
 public:
  struct Options {
    std::string kube_version = "v1.32.4";
    std::vector<std::string> extra_args;
  };
  LocalCluster();
  explicit LocalCluster(Options options);
  ~LocalCluster();

  const std::filesystem::path& data_dir() const { return data_dir_; }
  std::filesystem::path kubeconfig() const { return data_dir_ / "kubeconfig"; }
  const std::string& url() const { return url_; }
  unsigned short port() const { return port_; }
  std::string log() const { return read_file(log_); }
  pid_t pid() const { return process_.pid(); }

  // kill -9, as a crash.
  void kill();
  // SIGTERM and wait.
  int stop();
  // Starts again on the same port and data directory.
  void start();

 private:
  Options options_;
  std::unique_ptr<TempDir> dir_;
  std::filesystem::path data_dir_;
  std::filesystem::path log_;
  Process process_;
  bool stopped_ = false;  // by kill() or stop(), not by a crash
  unsigned short port_ = 0;
  std::string url_;
};

class Kubectl {
 public:
  // `binary`: "kubectl" (the dispatcher) or e.g. "kubectl.1.30" beside it.
  explicit Kubectl(const LocalCluster& cluster, std::string binary = "kubectl");
  CommandResult operator()(const std::vector<std::string>& args, const std::string& input = {},
                           std::chrono::milliseconds timeout = std::chrono::seconds(60)) const;
  // A kubectl with another kubeconfig context ("kcm-local-token").
  Kubectl with_args(std::vector<std::string> leading_args) const;

 private:
  const LocalCluster* cluster_;
  std::string binary_;
  std::shared_ptr<TempDir> cache_;
  std::vector<std::string> leading_;
};

// The path of a bundled kubectl client ("1.30" => .../kubectl.1.30).
std::string versioned_kubectl(const std::string& minor);

// The bundled client versions present on this machine (e.g. "1.27" ... "1.33").
std::vector<std::string> bundled_kubectl_versions();

// test_support::eventually at the pace of a test that runs processes.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(20),
                       std::chrono::milliseconds interval = std::chrono::milliseconds(100)) {
  return test_support::eventually(condition, timeout, interval);
}

// Formats a command result for assertion messages.
std::string describe(const CommandResult& r);

}  // namespace kcm::e2e
