#include "local_cluster.h"

#include <signal.h>
#include <stdlib.h>

#include <iostream>
#include <regex>
#include <stdexcept>

namespace kcm::e2e {

namespace {

std::string kcm_local_binary() {
  return std::string(KCM_BIN_DIR) + "/kcm-local";
}

std::string kubectl_dir() {
  CommandResult r = run_command({"sh", "-c", "readlink -f \"$(command -v kubectl)\""});
  std::string path = r.out.substr(0, r.out.find('\n'));
  if (r.exit_code != 0 || path.empty()) {
    throw std::runtime_error("kubectl is not on PATH; the end-to-end tests drive the real kubectl");
  }
  return std::filesystem::path(path).parent_path().string();
}

}  // namespace

LocalCluster::LocalCluster() : LocalCluster(Options{}) {}

LocalCluster::LocalCluster(Options options)
    : options_(std::move(options)), dir_(std::make_unique<TempDir>("kcm-local-e2e-")) {
  data_dir_ = dir_->path() / "data";
  log_ = dir_->path() / "kcm-local.log";
  start();
}

LocalCluster::~LocalCluster() {
  if (process_.running()) {
    process_.stop(SIGTERM);
  } else if (!stopped_) {
    // It died under the tests: its log says why, and goes with the temp dir.
    const std::string log = read_file(log_);
    const std::size_t from = log.size() > 8000 ? log.size() - 8000 : 0;
    std::cerr << "kcm-local exited unexpectedly; the end of its log:\n" << log.substr(from) << "\n";
  }
}

void LocalCluster::start() {
  const std::string listen = "127.0.0.1:" + std::to_string(port_);
  std::vector<std::string> argv = {
      kcm_local_binary(), "--data-dir",          data_dir_.string(), "--listen", listen,
      "--kube-version",   options_.kube_version, "--unsafe-no-fsync"};
  // No simulated nodes unless a test asks (extra_args come later and win):
  // most tests want pods to stay exactly as they wrote them.
  argv.push_back("--nodes=0");
  argv.insert(argv.end(), options_.extra_args.begin(), options_.extra_args.end());
  const std::size_t log_start = read_file(log_).size();
  process_ = Process(argv, log_);
  stopped_ = false;
  static const std::regex serving(R"(serving on (https://127\.0\.0\.1:(\d+)))");
  const bool up = eventually(
      [&] {
        std::smatch m;
        const std::string log = read_file(log_).substr(log_start);
        if (std::regex_search(log, m, serving)) {
          url_ = m[1];
          port_ = static_cast<unsigned short>(std::stoi(m[2]));
          return true;
        }
        return !process_.running();
      },
      std::chrono::seconds(30), std::chrono::milliseconds(20));
  if (!up || url_.empty() || !process_.running()) {
    throw std::runtime_error("kcm-local did not start:\n" + read_file(log_));
  }
}

void LocalCluster::kill() {
  stopped_ = true;
  process_.stop(SIGKILL);
}

int LocalCluster::stop() {
  stopped_ = true;
  return process_.stop(SIGTERM);
}

Kubectl::Kubectl(const LocalCluster& cluster, std::string binary)
    : cluster_(&cluster),
      binary_(std::move(binary)),
      cache_(std::make_shared<TempDir>("kubecache-")) {}

Kubectl Kubectl::with_args(std::vector<std::string> leading_args) const {
  Kubectl k = *this;
  k.leading_ = std::move(leading_args);
  return k;
}

CommandResult Kubectl::operator()(const std::vector<std::string>& args, const std::string& input,
                                  std::chrono::milliseconds timeout) const {
  std::vector<std::string> argv = {binary_};
  argv.insert(argv.end(), leading_.begin(), leading_.end());
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv,
                     {{"KUBECONFIG", cluster_->kubeconfig().string()},
                      {"KUBECACHEDIR", cache_->path().string()},
                      {"HOME", cache_->path().string()}},
                     input, timeout);
}

std::string versioned_kubectl(const std::string& minor) {
  return kubectl_dir() + "/kubectl." + minor;
}

std::vector<std::string> bundled_kubectl_versions() {
  std::vector<std::string> out;
  const std::string dir = kubectl_dir();
  for (int minor = 20; minor < 60; ++minor) {
    const std::string v = "1." + std::to_string(minor);
    if (std::filesystem::exists(dir + "/kubectl." + v)) out.push_back(v);
  }
  return out;
}

std::string describe(const CommandResult& r) {
  return "exit code " + std::to_string(r.exit_code) + (r.timed_out ? " (timed out)" : "") +
         "\n--- stdout ---\n" + r.out + "--- stderr ---\n" + r.err;
}

}  // namespace kcm::e2e
