#include "local/cluster/cluster.h"

#include <unistd.h>

#include <future>

#include "local/cluster/api_access.h"
#include "local/cluster/events.h"
#include "local/cluster/kubelet.h"
#include "local/cluster/loop.h"
#include "local/cluster/scheduler.h"

namespace kcm::local::cluster {
namespace {

constexpr auto kRegistrationTimeout = std::chrono::seconds(30);

std::string hostname() {
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "kcm-local";
  return buf;
}

}  // namespace

struct Cluster::Parts {
  std::shared_ptr<Loop> loop = std::make_shared<Loop>();
  std::unique_ptr<ApiAccess> api;
  std::unique_ptr<EventRecorder> events;
  std::unique_ptr<Scheduler> scheduler;
  std::unique_ptr<Kubelet> kubelet;
  std::unique_ptr<ApiAccess::Watch> node_watch;
  std::unique_ptr<ApiAccess::Watch> pod_watch;
};

Cluster::Cluster() : parts_(std::make_unique<Parts>()) {}

Cluster::~Cluster() {
  stop();
}

Result<std::unique_ptr<Cluster>> Cluster::start(apiserver::RestStore& rest,
                                                const registry::ResourceTable& table,
                                                const ClusterOptions& options) {
  std::unique_ptr<Cluster> cluster(new Cluster());
  Parts& p = *cluster->parts_;
  p.api = std::make_unique<ApiAccess>(rest, table, p.loop);
  // The scheduler's events.k8s.io recorder names its instance after the host.
  p.events = std::make_unique<EventRecorder>(*p.api, "default-scheduler-" + hostname());
  p.scheduler = std::make_unique<Scheduler>(*p.loop, *p.api, *p.events);
  p.kubelet = std::make_unique<Kubelet>(*p.loop, *p.api, *p.events, options);
  p.loop->start();

  auto registered = std::make_shared<std::promise<Result<void>>>();
  auto future = registered->get_future();
  Kubelet* kubelet = p.kubelet.get();
  p.loop->post([kubelet, registered] {
    kubelet->register_nodes([registered](Result<void> r) { registered->set_value(std::move(r)); });
  });
  if (future.wait_for(kRegistrationTimeout) != std::future_status::ready) {
    return fail("simulated nodes: registration did not complete in 30s");
  }
  if (auto r = future.get(); !r) return fail(r.error());

  Scheduler* scheduler = p.scheduler.get();
  auto nodes = p.api->watch(Kind::kNodes, [scheduler](ApiAccess::EventType t, json::object o) {
    scheduler->on_node(t, o);
  });
  if (!nodes) return fail(nodes.error());
  p.node_watch = std::move(*nodes);
  auto pods =
      p.api->watch(Kind::kPods, [scheduler, kubelet](ApiAccess::EventType t, json::object o) {
        // The scheduler keeps (copies) only pods it has to place, the kubelet
        // every pod bound to its nodes: the object moves to the kubelet.
        scheduler->on_pod(t, o);
        kubelet->on_pod(t, std::move(o));
      });
  if (!pods) return fail(pods.error());
  p.pod_watch = std::move(*pods);
  p.loop->post([kubelet] { kubelet->start_heartbeats(); });
  return cluster;
}

void Cluster::stop() {
  if (!parts_) return;
  parts_->loop->stop();
  // Nothing runs on the loop any more: tear down in reverse order.
  parts_->pod_watch.reset();
  parts_->node_watch.reset();
  parts_->kubelet.reset();
  parts_->scheduler.reset();
  parts_->events.reset();
  parts_->api.reset();
  parts_.reset();
}

}  // namespace kcm::local::cluster
