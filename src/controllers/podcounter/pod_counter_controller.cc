#include "controllers/podcounter/pod_counter_controller.h"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "api/labels.h"
#include "controller/run_workers.h"
#include "controllers/podcounter/node_label.h"
#include "log/log.h"
#include "record/event.h"
#include "workqueue/rate_limiters.h"

namespace kcm::controllers::podcounter {
namespace {

const api::GroupVersionResource kPods{"", "v1", "pods"};
const api::GroupVersionResource kNodes{"", "v1", "nodes"};

// One key for the whole cluster. The count is a single number that every
// control-plane node carries, so any pod add or delete changes what every
// such node should read: per-node keys would only fan each pod event out to
// the same few nodes. With one key the queue collapses a burst of thousands
// of pod events into one sync (the key is deduplicated while it waits), and
// that sync reads the count once for all nodes. Nodes are few and only the
// wrong ones are written, so retrying them together costs little.
const std::string kKey = "cluster";

record::ObjectReference pod_reference(const cache::CachedObject& pod) {
  return {.kind = "Pod",
          .namespace_ = std::string(pod.namespace_()),
          .name = std::string(pod.name()),
          .uid = std::string(pod.uid()),
          .api_version = "v1",
          .resource_version = std::string(pod.resource_version())};
}

}  // namespace

PodCounterController::PodCounterController(std::shared_ptr<client::Clientset> clients,
                                           cache::SharedInformerFactory& informers,
                                           std::shared_ptr<record::EventRecorder> recorder)
    : clients_(std::move(clients)),
      recorder_(std::move(recorder)),
      pod_informer_(informers.informer_for(kPods)),
      node_informer_(informers.informer_for(kNodes)),
      pods_(informers.lister_for(kPods)),
      nodes_(informers.lister_for(kNodes)),
      queue_(workqueue::default_controller_rate_limiter<std::string>(), {.name = "pod_counter"}) {
  // Handlers only decide whether the count may have changed and enqueue the
  // key, so they run inline on the informers' threads. A pod update never
  // changes the number of pods, so only adds and deletes matter.
  auto pod_handler = std::make_shared<cache::EventHandlerFuncs>();
  pod_handler->add = [this](const cache::ObjectPtr&, bool) { queue_.add(kKey); };
  pod_handler->remove = [this](const cache::DeletedObject&) { queue_.add(kKey); };
  pod_handler->delivery_mode = cache::HandlerDelivery::kInline;
  // Nodes: only role or count label changes (a hand edit, our own patch, a
  // node gaining or losing the role); kubelet heartbeats are dropped here.
  auto node_handler = std::make_shared<cache::EventHandlerFuncs>();
  node_handler->add = [this](const cache::ObjectPtr& node, bool) {
    if (node_add_needs_sync(*node)) queue_.add(kKey);
  };
  node_handler->update = [this](const cache::ObjectPtr& old_node, const cache::ObjectPtr& node) {
    if (node_update_needs_sync(*old_node, *node)) queue_.add(kKey);
  };
  node_handler->delivery_mode = cache::HandlerDelivery::kInline;

  const auto register_handler =
      [this](const std::shared_ptr<cache::SharedIndexInformer>& informer,
             std::shared_ptr<cache::ResourceEventHandler> handler,
             std::shared_ptr<cache::ResourceEventHandlerRegistration>& registration) {
        auto r = informer->add_event_handler(std::move(handler));
        if (!r.ok()) {  // only when the informer already stopped: never sync
          log::error("Cannot register event handler",
                     {{"controller", kControllerName}, {"err", r.error()}});
          synced_.emplace_back([] { return false; });
          return;
        }
        registration = *r;
        synced_.emplace_back([reg = *r] { return reg->has_synced(); });
      };
  register_handler(pod_informer_, std::move(pod_handler), pod_registration_);
  register_handler(node_informer_, std::move(node_handler), node_registration_);
}

PodCounterController::~PodCounterController() {
  // Waits for a handler in progress, so none runs on a destroyed queue.
  if (pod_registration_) (void)pod_informer_->remove_event_handler(pod_registration_);
  if (node_registration_) (void)node_informer_->remove_event_handler(node_registration_);
  queue_.shut_down();
}

void PodCounterController::run(int workers, std::stop_token stop) {
  controller::run_workers({.controller = kControllerName,
                           .synced = synced_,
                           .on_synced =
                               [this] {
                                 remember_announced_pods();
                                 // Even with no pods and no node notifications,
                                 // write the first count.
                                 queue_.add(kKey);
                               },
                           .process_next = [this] { return process_next_item(); },
                           .shut_down = [this] { queue_.shut_down_with_drain(); }},
                          workers, stop);
}

// Pods announced by an earlier run (before a restart, or by another replica
// that led before us) already have their PodCounted event: read those once
// (one filtered, paged list) so they are not announced again. Events expire
// (the API server's --event-ttl, 1h by default), so a pod whose event is gone
// is announced again; and if the list fails, every pod is.
void PodCounterController::remember_announced_pods() {
  client::ListOptions options;
  options.field_selector = std::string(kPodCountedEventsSelector);
  options.limit = 500;
  auto events = clients_->events().list_all(options);
  if (!events.ok()) {
    log::warning(
        "Cannot list PodCounted events; pods counted before this start will be counted "
        "again",
        {{"controller", kControllerName}, {"err", events.error().message}});
    return;
  }
  for (std::string& uid : counted_pod_uids(events->items))
    counted_.remember(std::move(uid));
  if (log::v(2))
    log::info("Pods announced by earlier runs",
              {{"controller", kControllerName}, {"pods", counted_.size()}});
}

bool PodCounterController::process_next_item() {
  const std::optional<std::string> key = queue_.get();
  if (!key) return false;
  auto synced = sync();
  if (synced.ok()) {
    queue_.forget(*key);
  } else {
    log::error("Error syncing pod count, requeuing", {{"controller", kControllerName},
                                                      {"err", synced.error().message},
                                                      {"requeues", queue_.num_requeues(*key)}});
    queue_.add_rate_limited(*key);
  }
  queue_.done(*key);
  return true;
}

Result<void, api::Status> PodCounterController::sync() {
  // Reads only the caches; writes only what differs.
  const std::vector<cache::ObjectPtr> pods = pods_.list(api::labels::Selector::everything());
  const std::size_t count = pods.size();

  const std::vector<cache::ObjectPtr> fresh = counted_.count(pods);
  if (!fresh.empty()) {
    const std::string message = pod_counted_message(count);
    for (const cache::ObjectPtr& pod : fresh)
      recorder_->event(pod_reference(*pod), record::kEventTypeNormal, kPodCountedReason, message);
  }

  // Every node is tried; the first error requeues the key (with back-off).
  std::optional<api::Status> first_error;
  for (const cache::ObjectPtr& node : nodes_.list(api::labels::Selector::everything())) {
    const std::optional<std::string> patch = pod_count_label_patch(*node, count);
    if (!patch) continue;
    auto patched = clients_->nodes().patch(node->name(), client::PatchType::kMerge, *patch);
    if (!patched.ok()) {
      if (patched.error().is(api::reason::kNotFound)) continue;  // deleted meanwhile
      if (!first_error) first_error = std::move(patched).error();
      continue;
    }
    if (is_control_plane_node(*node))
      log::info("Updated pod count label",
                {{"controller", kControllerName}, {"node", node->name()}, {"pods", count}});
    else
      log::info("Removed pod count label from a node without the control-plane role",
                {{"controller", kControllerName}, {"node", node->name()}});
  }
  if (first_error) return fail(std::move(*first_error));
  return {};
}

}  // namespace kcm::controllers::podcounter
