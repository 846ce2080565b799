// kcm's HTTPS endpoint (--bind-address:--secure-port, 10257 by default):
// /healthz and /healthz/<check> from the mutable healthz handler, /metrics
// from a metrics registry, /debug/flags with --profiling (app/debug_flags.h),
// the controllers' /debug/controllers/<name> (app/controller_debug.h),
// /configz (app/configz.h), /flagz and /statusz (app/zpages.h),
// "404 page not found" for everything else (the controller-manager's base
// mux). Every answer carries
// "Cache-Control: no-cache, private", as upstream's filter chain adds it.
//
// Authentication and authorization: kcm has no delegated authn/authz yet, so
// every client is served. Upstream always allows /healthz, /readyz and /livez
// (--authorization-always-allow-paths); /metrics would need delegated
// authorization there. See docs/kcm.md, "Serving".
//
// Connections are Asio coroutines on a small thread pool of the server's own,
// so serving never blocks the controllers; stop() closes every connection and
// joins the threads.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "api/result.h"
#include "app/controller_debug.h"
#include "app/healthcheck_slis.h"
#include "app/healthz.h"
#include "app/http_answer.h"
#include "app/serving_certificate.h"
#include "app/zpages.h"

namespace kcm::metrics {
class Registry;
}  // namespace kcm::metrics

namespace kcm::app {

struct SecureServerOptions {
  // "0.0.0.0", "::" or "" listen on every interface (IPv6 and IPv4 where the
  // host allows it).
  std::string bind_address = "0.0.0.0";
  // 0: no HTTPS serving at all (upstream's --secure-port=0).
  std::int32_t port = 10257;
  // Tests: listen on a free ephemeral port instead of `port`; see port().
  bool pick_free_port = false;
  std::size_t threads = 2;
  // How long a kept-alive connection may sit idle (Go's IdleTimeout 90s).
  std::chrono::seconds idle_timeout{90};
  // --profiling: serves /debug/flags (Go's /debug/pprof has no counterpart here).
  bool profiling = true;
};

// What the endpoints serve; every member may be left empty.
struct SecureServerHandlers {
  // /healthz and /healthz/<check>.
  std::shared_ptr<const HealthzHandler> healthz;
  // /metrics; an empty page without one.
  std::shared_ptr<const metrics::Registry> registry;
  // /metrics/slis (a DELETE there resets it).
  std::shared_ptr<HealthcheckSlis> slis;
  // /debug/controllers/<name>/...
  std::shared_ptr<const ControllerDebugHandlers> debug;
  // /configz's answer, made once: the configuration does not change while
  // kcm runs (app/configz.h).
  std::optional<HttpAnswer> configz;
  // /flagz and /statusz, those of them whose gates are on.
  std::shared_ptr<const Zpages> zpages;
};

class SecureServer {
 public:
  SecureServer(SecureServerOptions options, ServingCertificate certificate,
               SecureServerHandlers handlers);
  ~SecureServer();
  SecureServer(const SecureServer&) = delete;
  SecureServer& operator=(const SecureServer&) = delete;

  // False when the port is 0 (and no free port was asked for).
  bool enabled() const;

  // Loads the certificate, binds and starts serving; does nothing when not
  // enabled. Errors read as upstream's, e.g. "failed to listen on
  // 127.0.0.1:10257: listen tcp 127.0.0.1:10257: bind: address already in use".
  Result<void> start();

  // The bound port once started, else 0.
  std::uint16_t port() const;

  // Stops accepting, closes connections and joins the threads. Idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kcm::app
