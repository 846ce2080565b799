// The simulated cluster inside kcm-local: N Ready nodes with kubelets and a
// default-scheduler, so that pods created through the API get scheduled, run
// and terminate as on a real cluster (see scheduler.h and kubelet.h). It runs
// on its own thread and talks to the API server in-process.
#pragma once

#include <memory>

#include "api/result.h"
#include "local/apiserver/rest_store.h"
#include "local/cluster/options.h"

namespace kcm::local::cluster {

class Cluster {
 public:
  // Registers the nodes (waiting until they exist), then starts scheduling and
  // running pods.
  static Result<std::unique_ptr<Cluster>> start(apiserver::RestStore& rest,
                                                const registry::ResourceTable& table,
                                                const ClusterOptions& options);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  // Stops the thread; idempotent. Call before the API server's store goes away.
  void stop();

 private:
  struct Parts;
  Cluster();
  std::unique_ptr<Parts> parts_;
};

}  // namespace kcm::local::cluster
