// kcm-local's apiextensions controllers, in one loop: the naming and
// establishing controllers (status.acceptedNames and the NamesAccepted and
// Established conditions), serving (the custom resources of established CRDs
// join the catalog, so discovery, routing and OpenAPI show them), and the
// finalizer that deletes a deleted CRD's objects before the CRD goes.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "api/result.h"
#include "local/apiserver/rest_store.h"
#include "local/registry/resource_catalog.h"

namespace kcm::local::apiserver {

class CrdController {
 public:
  // Serves the CRDs already stored before returning, then follows changes.
  static Result<std::unique_ptr<CrdController>> start(RestStore& rest,
                                                      registry::ResourceCatalog& catalog);
  ~CrdController();  // stops the loop
  CrdController(const CrdController&) = delete;
  CrdController& operator=(const CrdController&) = delete;

  // One pass over every CRD: status, serving, cleanup. Returns whether work is
  // left that only time can finish (objects still being deleted). The loop
  // calls it on every change; tests may call it too (passes never overlap).
  bool sync();

 private:
  struct Sink;
  CrdController(RestStore& rest, registry::ResourceCatalog& catalog);
  void run(std::stop_token stop);
  void notify();
  // Deletes the objects of a deleted CRD; true once none is left.
  bool delete_instances(const std::vector<std::shared_ptr<const registry::ResourceInfo>>& served);

  RestStore& rest_;
  registry::ResourceCatalog& catalog_;
  const registry::ResourceInfo* crds_;
  std::mutex sync_mu_;  // one pass at a time
  std::mutex mu_;       // guards dirty_
  std::condition_variable_any wake_;
  bool dirty_ = false;
  std::string served_signature_;  // what the catalog was last built from
  std::unique_ptr<storage::Store::WatchHandle> watch_;
  std::jthread loop_;
};

}  // namespace kcm::local::apiserver
