#include "kcm_process.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace kcm::e2e {

unsigned short free_local_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket() failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot find a free port");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

KcmProcess::KcmProcess(const LocalCluster& cluster, std::vector<std::string> args)
    : dir_(std::make_unique<TempDir>("kcm-process-")),
      log_(dir_->path() / "kcm.log"),
      port_(free_local_port()) {
  std::vector<std::string> argv = {
      std::string(KCM_BIN_DIR) + "/kcm", "--kubeconfig=" + cluster.kubeconfig().string(),
      "--bind-address=127.0.0.1", "--secure-port=" + std::to_string(port_)};
  argv.insert(argv.end(), args.begin(), args.end());
  process_ = Process(argv, log_);
}

KcmProcess::~KcmProcess() {
  if (process_.running()) process_.stop(9);
}

int KcmProcess::stop(int signal, std::chrono::milliseconds timeout) {
  return process_.stop(signal, timeout);
}

KcmProcess::HttpAnswer KcmProcess::get(const std::string& path) const {
  const CommandResult r =
      run_command({"curl", "-sk", "-o", "-", "-w", "\n%{http_code}", "--max-time", "5",
                   "https://127.0.0.1:" + std::to_string(port_) + path},
                  {}, {}, std::chrono::seconds(10));
  HttpAnswer answer;
  const auto cut = r.out.rfind('\n');
  if (cut == std::string::npos) return answer;
  answer.body = r.out.substr(0, cut);
  try {
    answer.status = std::stoi(r.out.substr(cut + 1));
  } catch (const std::exception&) {
    answer.status = 0;
  }
  return answer;
}

}  // namespace kcm::e2e
