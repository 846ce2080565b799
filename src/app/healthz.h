// kcm's /healthz: the controller-manager's mutable healthz handler
// (k8s.io/controller-manager/pkg/healthz MutableHealthzHandler over
// k8s.io/apiserver/pkg/server/healthz). Checks are added after start (the
// leader-election check first, the controllers' checks once leading), so the
// set is swapped whole under a lock and requests run checks on a snapshot,
// never blocking an add.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "app/http_answer.h"

namespace kcm::app {

// A health check: success, or an error whose text only /healthz/<name> and
// the log show (the aggregate answer withholds it).
using HealthCheck = std::function<Result<void>()>;

struct NamedHealthCheck {
  std::string name;
  HealthCheck check;
};

// A check that always passes (healthz.PingHealthz, or a controller's
// NamedPingChecker when it supplies no real check).
NamedHealthCheck ping_check(std::string name = "ping");

// Told the outcome of every check the aggregate endpoint runs (excluded ones
// are not run), with the endpoint's name ("healthz") as the type: upstream's
// slis.ObserveHealthcheck. /healthz/<name> is not observed, as upstream's.
using HealthCheckObserver =
    std::function<void(std::string_view check, std::string_view type, bool success)>;

class HealthzHandler {
 public:
  // `path` is the root ("/healthz"); its last segment names the aggregate
  // ("healthz check passed"). With no checks at all, `ping` is installed.
  explicit HealthzHandler(std::vector<NamedHealthCheck> checks = {}, std::string path = "/healthz",
                          HealthCheckObserver observer = {});

  // AddHealthChecker: appends in one swap. An empty or already-installed name
  // is refused (upstream's mux would panic on the duplicate path), and then
  // nothing is added. The implicit `ping` is dropped once real checks exist.
  Result<void> add_checks(std::vector<NamedHealthCheck> checks);

  // The installed checks' names, in order.
  std::vector<std::string> check_names() const;

  // The answer for `path` ("/healthz" or "/healthz/<name>") and its raw query
  // (without '?'); nullopt when the path is not one of ours (404).
  std::optional<HttpAnswer> serve(std::string_view path, std::string_view raw_query) const;

  const std::string& path() const { return path_; }

 private:
  using CheckList = std::vector<NamedHealthCheck>;
  std::shared_ptr<const CheckList> snapshot() const;
  HttpAnswer serve_root(const CheckList& checks, std::string_view raw_query) const;

  const std::string path_;
  const std::string name_;  // "healthz"
  const HealthCheckObserver observer_;
  mutable std::mutex mu_;
  CheckList added_;                          // what callers added
  std::shared_ptr<const CheckList> checks_;  // installed: added_, or {ping}
};

}  // namespace kcm::app
