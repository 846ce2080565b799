#include "bench/kcm_local_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "bench/proc_stats.h"

namespace kcm::bench {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

Result<std::string> read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return fail("cannot read " + file.string() + ": " + std::strerror(errno));
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

Result<std::unique_ptr<KcmLocalProcess>> KcmLocalProcess::start(const KcmLocalOptions& options) {
  std::error_code ec;
  fs::create_directories(options.data_dir, ec);
  if (ec) return fail("cannot create " + options.data_dir.string() + ": " + ec.message());
  std::unique_ptr<KcmLocalProcess> p(new KcmLocalProcess());  // private constructor
  p->data_dir_ = options.data_dir;
  // The logs live beside the data directory so they do not count as its size.
  p->stdout_file_ = options.data_dir.string() + ".stdout";
  p->stderr_file_ = options.data_dir.string() + ".stderr";

  std::vector<std::string> args = {options.binary.string(), "--data-dir", options.data_dir.string(),
                                   "--listen", "127.0.0.1:0"};
  if (!options.fsync) args.emplace_back("--unsafe-no-fsync");
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
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
    return fail("cannot create the server's log files beside " + options.data_dir.string());
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

  // Wait for "kcm-local: serving on https://127.0.0.1:PORT (...)".
  constexpr std::string_view kServing = "serving on https://";
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  for (;;) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      p->pid_ = -1;
      const std::string how = WIFEXITED(status)
                                  ? "with status " + std::to_string(WEXITSTATUS(status))
                                  : "by signal " + std::to_string(WTERMSIG(status));
      return fail("kcm-local exited " + how + " before serving: " + p->stderr_text());
    }
    auto out = read_file(p->stdout_file_);
    if (out) {
      const auto at = out->find(kServing);
      const auto eol = at == std::string::npos ? std::string::npos : out->find('\n', at);
      if (eol != std::string::npos) {
        const std::string url = out->substr(at + kServing.size(), eol - at - kServing.size());
        const auto colon = url.rfind(':');
        if (colon == std::string::npos) return fail("cannot read the port from: " + url);
        p->port_ = static_cast<unsigned short>(std::stoul(url.substr(colon + 1)));
        break;
      }
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return fail("kcm-local did not report serving within 60 s: " + p->stderr_text());
    }
    std::this_thread::sleep_for(10ms);
  }
  auto token = read_file(options.data_dir / "pki" / "token");
  if (!token) return fail(token.error());
  while (!token->empty() && (token->back() == '\n' || token->back() == '\r'))
    token->pop_back();
  p->token_ = std::move(*token);
  auto ca = read_file(options.data_dir / "pki" / "ca.crt");
  if (!ca) return fail(ca.error());
  p->ca_pem_ = std::move(*ca);
  return p;
}

KcmLocalProcess::~KcmLocalProcess() {
  stop();
}

std::string KcmLocalProcess::stop() {
  if (pid_ <= 0) return "not running";
  ::kill(pid_, SIGTERM);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (::waitpid(pid_, &status, WNOHANG) != pid_) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(10ms);
  }
  pid_ = -1;
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
  return "unknown";
}

Result<std::uint64_t> KcmLocalProcess::status_field(std::string_view field) const {
  if (pid_ <= 0) return fail("kcm-local is not running");
  return proc_status_bytes(pid_, field);
}

Result<std::uint64_t> KcmLocalProcess::rss_bytes() const {
  return status_field("VmRSS");
}

Result<std::uint64_t> KcmLocalProcess::peak_rss_bytes() const {
  return status_field("VmHWM");
}

Result<double> KcmLocalProcess::cpu_seconds() const {
  if (pid_ <= 0) return fail("kcm-local is not running");
  return proc_cpu_seconds(pid_);
}

double own_cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::uint64_t KcmLocalProcess::data_dir_bytes() const {
  std::uint64_t total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(data_dir_, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::error_code size_ec;
    if (it->is_regular_file(size_ec)) {
      const auto size = it->file_size(size_ec);
      if (!size_ec) total += size;
    }
  }
  return total;
}

std::string KcmLocalProcess::stderr_text() const {
  auto text = read_file(stderr_file_);
  return text ? *text : std::string();
}

}  // namespace kcm::bench
