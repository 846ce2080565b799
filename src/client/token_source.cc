#include "client/token_source.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <map>
#include <mutex>

#include "api/base64.h"
#include "api/json.h"
#include "api/time.h"
#include "client/ascii_text.h"

extern char** environ;  // NOLINT: POSIX

namespace kcm::client {
namespace {

namespace json = api::json;
using Clock = std::chrono::system_clock;

constexpr std::string_view kExecInfoEnv = "KUBERNETES_EXEC_INFO";
constexpr std::string_view kGroup = "client.authentication.k8s.io";
constexpr std::string_view kInstallHintVerboseHelp =
    "\n\nIt looks like you are trying to use a client-go credential plugin that is not "
    "installed.\n\nTo learn more about this feature, consult the documentation available at:\n"
    "      https://kubernetes.io/docs/reference/access-authn-authz/"
    "authentication/#client-go-credential-plugins";
constexpr std::size_t kMaxStderrInError = 4096;

Clock::time_point now_of(const TokenSourceOptions& o) {
  return o.now ? o.now() : Clock::now();
}

void log_of(const TokenSourceOptions& o, const std::string& message) {
  if (o.log) {
    o.log(message);
  } else {
    std::fprintf(stderr, "%s\n", message.c_str());
  }
}

// ---------------------------------------------------------------------------
// Static sources.

class StaticSource : public TokenSource {
 public:
  explicit StaticSource(std::string authorization) {
    creds_.authorization = std::move(authorization);
  }
  Result<Credentials> credentials() override { return creds_; }
  void invalidate(const Credentials&) override {}

 private:
  Credentials creds_;
};

// ---------------------------------------------------------------------------
// Token file: cachingTokenSource over fileTokenSource.

class FileSource : public TokenSource {
 public:
  FileSource(std::string path, std::string fallback, TokenSourceOptions options)
      : path_(std::move(path)), fallback_(trim_space(fallback)), options_(std::move(options)) {}

  Result<Credentials> credentials() override {
    std::lock_guard lock(mu_);
    const auto now = now_of(options_);
    if (token_ && expiry_ - kLeeway > now) return creds();
    auto data = read_file_go(path_);
    std::string token;
    std::string error;
    if (!data) {
      error = fmt::format("failed to read token file \"{}\": {}", path_, data.error());
    } else {
      token = trim_space(*data);
      if (token.empty()) error = fmt::format("read empty token from file \"{}\"", path_);
    }
    if (!error.empty()) {
      if (token_) {
        log_of(options_, "Unable to rotate token: " + error);
        return creds();
      }
      if (!fallback_.empty()) return Credentials{"Bearer " + fallback_, {}, {}, 0};
      return fail(error);
    }
    token_ = std::move(token);
    expiry_ = now + kPeriod;
    ++generation_;
    return creds();
  }

  void invalidate(const Credentials& used) override {
    std::lock_guard lock(mu_);
    if (token_ && used.generation == generation_) token_.reset();
  }

 private:
  // client-go: half the gap between the kubelet refreshing a projected token
  // and its expiry, minus the cache's leeway.
  static constexpr std::chrono::minutes kPeriod{1};
  static constexpr std::chrono::seconds kLeeway{10};

  Credentials creds() const { return Credentials{"Bearer " + *token_, {}, {}, generation_}; }

  const std::string path_;
  const std::string fallback_;
  const TokenSourceOptions options_;
  std::mutex mu_;
  std::optional<std::string> token_;
  Clock::time_point expiry_;
  std::uint64_t generation_ = 0;
};

// ---------------------------------------------------------------------------
// Exec plugin.

struct RunResult {
  int exit_code = 0;  // -1 when killed by a signal (Go's ExitCode())
  std::string out;
  std::string err;
};

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

// Runs argv[0] (looked up in PATH when it has no '/') with `env`, stdin from
// /dev/null, capturing stdout and stderr. Returns the errno of a failed spawn.
Result<RunResult, int> run_process(const std::vector<std::string>& argv,
                                   const std::vector<std::string>& env) {
  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return fail(errno);
  Fd out_r(out_pipe[0]);
  Fd out_w(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return fail(errno);
  Fd err_r(err_pipe[0]);
  Fd err_w(err_pipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_w.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_w.fd, 2);

  std::vector<char*> cargv;
  for (const auto& a : argv)
    cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  std::vector<char*> cenv;
  for (const auto& e : env)
    cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);

  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, cargv[0], &actions, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return fail(rc);
  out_w.reset();
  err_w.reset();

  RunResult result;
  pollfd fds[2] = {{out_r.fd, POLLIN, 0}, {err_r.fd, POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  char buf[8192];
  while (open_fds > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // EOF or error; the Fd owner closes it
        --open_fds;
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// The environment the plugin sees: ours, then the config's, then the exec
// info; a later value of a name replaces an earlier one (os/exec's dedupEnv).
std::vector<std::string> plugin_env(const ExecConfig& exec, const std::string& exec_info) {
  std::vector<std::string> all;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e)
    all.emplace_back(*e);
  for (const auto& [name, value] : exec.env)
    all.push_back(name + "=" + value);
  all.push_back(std::string(kExecInfoEnv) + "=" + exec_info);
  std::map<std::string, std::size_t> last;
  for (std::size_t i = 0; i < all.size(); ++i)
    last[all[i].substr(0, all[i].find('='))] = i;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (last[all[i].substr(0, all[i].find('='))] == i) out.push_back(std::move(all[i]));
  }
  return out;
}

struct ParsedCredential {
  std::string token;
  std::string cert_pem;
  std::string key_pem;
  std::optional<Clock::time_point> expiry;
};

Result<std::string> status_string(const json::object& status, std::string_view key) {
  const json::value* v = status.if_contains(key);
  if (v == nullptr || v->is_null()) return std::string();
  if (!v->is_string()) {
    return fail(fmt::format("decoding stdout: status.{}: expected string, got {}", key,
                            v->is_number() ? "number"
                            : v->is_bool() ? "boolean"
                                           : "object"));
  }
  return std::string(v->get_string());
}

Result<ParsedCredential> decode_credential(std::string_view stdout_text,
                                           std::string_view api_version) {
  std::string parse_error;
  auto doc = api::parse_json(stdout_text, &parse_error);
  if (!doc) {
    return fail("decoding stdout: couldn't get version/kind; json parse error: " + parse_error);
  }
  if (!doc->is_object()) {
    return fail("decoding stdout: couldn't get version/kind; json parse error: expected an object");
  }
  const json::object& o = doc->get_object();
  const std::string_view kind = api::as_string_view(o.if_contains("kind"));
  const std::string_view version = api::as_string_view(o.if_contains("apiVersion"));
  if (kind.empty()) return fail("decoding stdout: Object 'Kind' is missing in plugin output");
  if (version.empty()) {
    return fail("decoding stdout: Object 'apiVersion' is missing in plugin output");
  }
  const bool known_version = version == "client.authentication.k8s.io/v1" ||
                             version == "client.authentication.k8s.io/v1beta1";
  if (!known_version || kind != "ExecCredential") {
    return fail(fmt::format("decoding stdout: no kind \"{}\" is registered for version \"{}\"",
                            kind, version));
  }
  if (version != api_version) {
    return fail(
        fmt::format("exec plugin is configured to use API version {}, plugin returned version {}",
                    api_version, version));
  }
  const json::value* status = o.if_contains("status");
  if (status == nullptr || status->is_null()) {
    return fail("exec plugin didn't return a status field");
  }
  if (!status->is_object()) {
    return fail("decoding stdout: status: expected object");
  }
  const json::object& s = status->get_object();
  ParsedCredential c;
  auto token = status_string(s, "token");
  if (!token) return fail(token.error());
  auto cert = status_string(s, "clientCertificateData");
  if (!cert) return fail(cert.error());
  auto key = status_string(s, "clientKeyData");
  if (!key) return fail(key.error());
  c.token = std::move(*token);
  c.cert_pem = std::move(*cert);
  c.key_pem = std::move(*key);
  if (const json::value* exp = s.if_contains("expirationTimestamp"); exp && !exp->is_null()) {
    auto t = api::Time::from_json(*exp);
    if (!t) return fail("decoding stdout: " + t.error());
    if (!t->is_zero()) c.expiry = t->time_point();
  }
  if (c.token.empty() && c.cert_pem.empty() && c.key_pem.empty()) {
    return fail("exec plugin didn't return a token or cert/key pair");
  }
  if (c.cert_pem.empty() != c.key_pem.empty()) {
    return fail("exec plugin returned only certificate or key, not both");
  }
  if (!c.cert_pem.empty()) {
    if (auto err = check_key_pair(c.cert_pem, c.key_pem)) {
      return fail("failed parsing client key/certificate: " + *err);
    }
  }
  return c;
}

class ExecSource : public TokenSource {
 public:
  ExecSource(ExecConfig exec, std::string cluster_json, TokenSourceOptions options)
      : exec_(std::move(exec)),
        cluster_json_(std::move(cluster_json)),
        options_(std::move(options)) {}

  Result<Credentials> credentials() override {
    std::lock_guard lock(mu_);
    if (cached_ && !(expiry_ && now_of(options_) > *expiry_)) return *cached_;
    auto refreshed = refresh_locked();
    if (!refreshed) return fail(refreshed.error());
    return *cached_;
  }

  void invalidate(const Credentials& used) override {
    std::lock_guard lock(mu_);
    if (cached_ && cached_->generation == used.generation) cached_.reset();
  }

 private:
  Result<bool> interactive() const {
    const std::string& mode = exec_.interactive_mode;
    if (mode == "Never" || mode == "IfAvailable") return false;  // kcm never lends its stdin
    if (mode == "Always") {
      return fail(std::string("exec plugin cannot support interactive mode: ") +
                  (::isatty(0) != 0 ? "standard input is unavailable"
                                    : "standard input is not a terminal"));
    }
    return fail(fmt::format(
        "exec plugin cannot support interactive mode: unknown interactiveMode: \"{}\"", mode));
  }

  std::string exec_info(bool is_interactive) const {
    json::object spec;
    if (exec_.provide_cluster_info) {
      std::string error;
      auto cluster = api::parse_json(cluster_json_, &error);
      if (cluster) spec["cluster"] = std::move(*cluster);
    }
    spec["interactive"] = is_interactive;
    json::object cred;
    cred["kind"] = "ExecCredential";
    cred["apiVersion"] = exec_.api_version;
    cred["spec"] = std::move(spec);
    // runtime.Encode uses a json.Encoder, which ends the document with a newline.
    return api::to_json_string(cred) + "\n";
  }

  Result<void> refresh_locked() {
    auto is_interactive = interactive();
    if (!is_interactive) return fail(is_interactive.error());
    std::vector<std::string> argv{exec_.command};
    argv.insert(argv.end(), exec_.args.begin(), exec_.args.end());
    auto run = run_process(argv, plugin_env(exec_, exec_info(*is_interactive)));
    if (!run) {
      const int err = run.error();
      if (err == ENOENT || err == EACCES) return fail(not_found_message());
      return fail(fmt::format("exec: fork/exec {}: {}", exec_.command, go_errno_text(err)));
    }
    if (run->exit_code != 0) {
      std::string message = fmt::format("exec: executable {} failed with exit code {}",
                                        exec_.command, run->exit_code);
      std::string err = trim_space(run->err);
      if (err.size() > kMaxStderrInError) err = err.substr(0, kMaxStderrInError) + "...";
      if (!err.empty()) message += "; stderr: " + err;
      return fail(message);
    }
    if (const std::string err = trim_space(run->err); !err.empty()) log_of(options_, err);

    auto parsed = decode_credential(run->out, exec_.api_version);
    if (!parsed) return fail(parsed.error());
    expiry_ = parsed->expiry;
    Credentials c;
    if (!parsed->token.empty()) c.authorization = "Bearer " + parsed->token;
    c.client_cert_pem = std::move(parsed->cert_pem);
    c.client_key_pem = std::move(parsed->key_pem);
    c.generation = ++generation_;
    cached_ = std::move(c);
    return {};
  }

  // The install hint is shown at most 10 times an hour, as upstream's
  // "sometimes" limiter does.
  std::string not_found_message() {
    std::string message = fmt::format("exec: executable {} not found", exec_.command);
    const auto now = now_of(options_);
    if (!hint_window_ || now - *hint_window_ >= std::chrono::hours(1)) {
      hint_window_ = now;
      hint_count_ = 0;
    }
    if (hint_count_ < 10) {
      ++hint_count_;
      message += kInstallHintVerboseHelp;
      if (!exec_.install_hint.empty()) message += "\n\n" + exec_.install_hint;
    }
    return message;
  }

  const ExecConfig exec_;
  const std::string cluster_json_;
  const TokenSourceOptions options_;
  std::mutex mu_;  // also serializes plugin runs, as upstream does
  std::optional<Credentials> cached_;
  std::optional<Clock::time_point> expiry_;
  std::uint64_t generation_ = 0;
  std::optional<Clock::time_point> hint_window_;
  int hint_count_ = 0;
};

Result<std::shared_ptr<TokenSource>> make_exec_source(const RestConfig& config,
                                                      const TokenSourceOptions& options) {
  const ExecConfig& exec = *config.exec;
  if (exec.api_version != fmt::format("{}/v1", kGroup) &&
      exec.api_version != fmt::format("{}/v1beta1", kGroup)) {
    return fail(fmt::format("exec plugin: invalid apiVersion \"{}\"", exec.api_version));
  }
  std::string cluster = exec_cluster_json(config);
  if (options.now) {
    return std::shared_ptr<TokenSource>(std::make_shared<ExecSource>(exec, cluster, options));
  }
  // One authenticator per (config, cluster) for the whole process, so that
  // every client built from one kubeconfig shares the plugin's credentials.
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<TokenSource>> cache;
  json::object key;
  key["command"] = exec.command;
  json::array args(exec.args.begin(), exec.args.end());
  key["args"] = std::move(args);
  json::array env;
  for (const auto& [n, v] : exec.env)
    env.push_back(json::array{json::string(n), json::string(v)});
  key["env"] = std::move(env);
  key["apiVersion"] = exec.api_version;
  key["interactiveMode"] = exec.interactive_mode;
  key["provideClusterInfo"] = exec.provide_cluster_info;
  key["installHint"] = exec.install_hint;
  key["cluster"] = cluster;
  const std::string cache_key = api::to_json_string(key);
  std::lock_guard lock(mu);
  auto& slot = cache[cache_key];
  if (!slot) slot = std::make_shared<ExecSource>(exec, cluster, options);
  return slot;
}

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using BioPtr = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;

}  // namespace

std::optional<std::string> check_key_pair(const std::string& cert_pem, const std::string& key_pem) {
  struct ClearErrors {
    ~ClearErrors() { ERR_clear_error(); }
  } clear;
  BioPtr cert_bio(BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size())));
  X509Ptr cert(PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr));
  if (!cert) {
    if (cert_pem.find("-----BEGIN") == std::string::npos) {
      return "tls: failed to find any PEM data in certificate input";
    }
    return "tls: failed to find \"CERTIFICATE\" PEM block in certificate input";
  }
  BioPtr key_bio(BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size())));
  PkeyPtr key(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
  if (!key) {
    if (key_pem.find("-----BEGIN") == std::string::npos) {
      return "tls: failed to find any PEM data in key input";
    }
    return "tls: failed to parse private key";
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    return "tls: private key does not match public key";
  }
  return std::nullopt;
}

std::string exec_cluster_json(const RestConfig& config) {
  json::object c;
  c["server"] = config.host;
  if (!config.tls_server_name.empty()) c["tls-server-name"] = config.tls_server_name;
  if (config.insecure_skip_tls_verify) c["insecure-skip-tls-verify"] = true;
  if (!config.ca_pem.empty()) c["certificate-authority-data"] = api::base64_encode(config.ca_pem);
  if (!config.proxy_url.empty()) c["proxy-url"] = config.proxy_url;
  if (config.disable_compression) c["disable-compression"] = true;
  if (config.exec && !config.exec->cluster_config_json.empty()) {
    std::string error;
    if (auto ext = api::parse_json(config.exec->cluster_config_json, &error)) {
      c["config"] = std::move(*ext);
    }
  }
  return api::to_json_string(c);
}

std::shared_ptr<TokenSource> make_file_token_source(std::string path, std::string fallback,
                                                    const TokenSourceOptions& options) {
  return std::make_shared<FileSource>(std::move(path), std::move(fallback), options);
}

Result<std::shared_ptr<TokenSource>> make_token_source(const RestConfig& config,
                                                       const TokenSourceOptions& options) {
  const bool token_auth = !config.bearer_token.empty() || !config.bearer_token_file.empty();
  const bool basic_auth = !config.username.empty();
  const bool cert_auth = !config.client_cert_pem.empty() && !config.client_key_pem.empty();
  if (token_auth && basic_auth) {
    return fail("username/password or bearer token may be set, but not both");
  }
  if (token_auth) {
    if (config.bearer_token_file.empty()) {
      return std::shared_ptr<TokenSource>(
          std::make_shared<StaticSource>("Bearer " + config.bearer_token));
    }
    auto source = make_file_token_source(config.bearer_token_file, config.bearer_token, options);
    if (config.bearer_token.empty()) {
      // NewBearerAuthWithRefreshRoundTripper needs a first token up front.
      auto first = source->credentials();
      if (!first) return fail(first.error());
    }
    return source;
  }
  if (basic_auth) {
    return std::shared_ptr<TokenSource>(std::make_shared<StaticSource>(
        "Basic " + api::base64_encode(config.username + ":" + config.password)));
  }
  if (config.exec && !cert_auth) return make_exec_source(config, options);
  return std::shared_ptr<TokenSource>(std::make_shared<StaticSource>(""));
}

}  // namespace kcm::client
