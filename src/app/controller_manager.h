// kcm's Run (upstream cmd/kube-controller-manager/app/controllermanager.go):
// parse the command line, build the clients, serve /healthz and /metrics,
// then, under leader election when enabled, build the enabled controllers,
// start the informers and run the controllers until SIGTERM or SIGINT (the
// workers drain) or until leadership is lost (exit 1).
#pragma once

#include <string>
#include <vector>

namespace kcm::app {

// The whole process after argv[0]; returns its exit code.
int run_controller_manager(const std::vector<std::string>& args);

}  // namespace kcm::app
