#include "bench/child_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "bench/kcm_local_process.h"

namespace kcm::bench {

using namespace std::chrono_literals;

Result<std::unique_ptr<ChildProcess>> ChildProcess::start(const ChildOptions& options) {
  std::unique_ptr<ChildProcess> p(new ChildProcess());  // private constructor
  p->stdout_file_ = options.log_prefix.string() + ".stdout";
  p->stderr_file_ = options.log_prefix.string() + ".stderr";
  std::vector<std::string> args = {options.binary.string()};
  args.insert(args.end(), options.args.begin(), options.args.end());
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);

  const int out_fd =
      ::open(p->stdout_file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const int err_fd =
      ::open(p->stderr_file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (out_fd < 0 || err_fd < 0) {
    if (out_fd >= 0) ::close(out_fd);
    if (err_fd >= 0) ::close(err_fd);
    return fail("cannot create " + p->stdout_file_.string() + " or its .stderr");
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(out_fd);
    ::close(err_fd);
    return fail(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out_fd);
  ::close(err_fd);
  p->pid_ = pid;
  return p;
}

ChildProcess::~ChildProcess() {
  stop();
}

std::string ChildProcess::describe(int wait_status) {
  if (WIFEXITED(wait_status)) return "exit " + std::to_string(WEXITSTATUS(wait_status));
  if (WIFSIGNALED(wait_status)) return "signal " + std::to_string(WTERMSIG(wait_status));
  return "unknown";
}

std::string ChildProcess::ended() {
  if (pid_ > 0) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      ended_ = describe(status);
    }
  }
  return ended_;
}

std::string ChildProcess::stop(std::chrono::seconds grace) {
  if (pid_ <= 0) return ended_.empty() ? "not running" : ended_;
  ::kill(pid_, SIGTERM);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (::waitpid(pid_, &status, WNOHANG) != pid_) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(10ms);
  }
  pid_ = -1;
  ended_ = describe(status);
  return ended_;
}

std::string ChildProcess::stdout_text() const {
  auto text = read_file(stdout_file_);
  return text ? *text : std::string();
}

std::string ChildProcess::stderr_text() const {
  auto text = read_file(stderr_file_);
  return text ? *text : std::string();
}

Result<unsigned short> free_tcp_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(std::string("socket: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const std::string error = std::strerror(errno);
    ::close(fd);
    return fail("cannot find a free port: " + error);
  }
  ::close(fd);
  return static_cast<unsigned short>(ntohs(addr.sin_port));
}

}  // namespace kcm::bench
