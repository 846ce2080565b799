// How much a controller's client may exceed --kube-api-qps and
// --kube-api-burst (upstream multiplies them for its busiest controllers).
struct ClientRateScale {
  double qps = 1;
  double burst = 1;
};

// What a controller is built from (upstream ControllerContext plus the
// ClientBuilder): the options, the shared informer factory, a client and an
// event recorder per controller, and the metrics registry. The controller
// manager fills it; tests fill it by hand.
#pragma once

#include <functional>
#include <memory>
#include <string_view>

#include "api/result.h"
#include "app/options.h"
#include "cache/informer_factory.h"
#include "client/clientset.h"
#include "metrics/registry.h"
#include "record/event_recorder.h"

namespace kcm::app {

struct ControllerContext {
  const Options& options;

  // Shared by every controller; started by the manager after all controllers
  // are built, so constructors request informers (informer_for, lister_for)
  // and Controller::run waits for their sync.
  cache::SharedInformerFactory& informers;

  // Informers of metadata only (PartialObjectMetadata, upstream
  // metadatainformer), started and shut down with `informers`. The garbage
  // collector watches every resource and needs only metadata. Null (tests):
  // the garbage collector uses `informers` for every resource.
  cache::SharedInformerFactory* metadata_informers = nullptr;

  // ClientBuilder.Client(name): a clientset whose user agent ends in
  // "/<name>" (e.g. "replicaset-controller"), with its own --kube-api-qps and
  // --kube-api-burst limiter, as every upstream controller client has.
  std::function<Result<std::shared_ptr<client::Clientset>>(std::string_view name)> client;
  // The same with the limits scaled (upstream edits ConfigOrDie(name)'s QPS
  // and Burst). Null (tests): `client`.
  std::function<Result<std::shared_ptr<client::Clientset>>(std::string_view name,
                                                           ClientRateScale scale)>
      scaled_client;

  // `scaled_client` when set, else `client`.
  Result<std::shared_ptr<client::Clientset>> client_scaled(std::string_view name,
                                                           ClientRateScale scale) const {
    return scaled_client ? scaled_client(name, scale) : client(name);
  }

  // An event recorder with source component `component` (e.g.
  // "replicaset-controller") and a broadcaster of its own, as each upstream
  // controller has: its events are logged at -v=3 and written through
  // `client` (the controller's, so its rate limiter).
  std::function<std::shared_ptr<record::EventRecorder>(std::string_view component,
                                                       const client::Clientset& client)>
      recorder;

  // Where controllers register their own metric families.
  metrics::Registry& metrics;
};

}  // namespace kcm::app
