#include "ecsbind/controller.h"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "controller/finalizers.h"
#include "controller/owner_event_handler.h"
#include "controller/run_workers.h"
#include "log/log.h"
#include "record/event.h"
#include "workqueue/rate_limiters.h"

namespace kcm::ecsbind {
namespace {

std::string status_text(const api::Status& s) {
  return s.message.empty() ? std::string(s.reason) : s.message;
}

}  // namespace

EcsBindController::EcsBindController(std::shared_ptr<client::Clientset> clients,
                                     cache::SharedInformerFactory& informers,
                                     std::shared_ptr<record::EventRecorder> recorder,
                                     std::shared_ptr<metrics::CounterVec> reconciles)
    : clients_(std::move(clients)),
      recorder_(std::move(recorder)),
      reconciles_(std::move(reconciles)),
      binds_client_(client::typed_client<EcsBind>(*clients_)),
      nodes_client_(client::typed_client<Node>(*clients_)),
      binds_(cache::typed_informer<EcsBind>(informers)),
      nodes_(cache::typed_informer<Node>(informers)),
      queue_(workqueue::default_controller_rate_limiter<std::string>(), {.name = "ecsbind"}) {
  // Every change of an EcsBind (spec, finalizers, deletionTimestamp, our own
  // status writes) is one reconcile of its name; the queue collapses bursts.
  auto bind_handler = std::make_shared<cache::EventHandlerFuncs>();
  bind_handler->add = [this](const cache::ObjectPtr& bind, bool) {
    queue_.add(std::string(bind->key()));
  };
  bind_handler->update = [this](const cache::ObjectPtr&, const cache::ObjectPtr& bind) {
    queue_.add(std::string(bind->key()));
  };
  bind_handler->remove = [this](const cache::DeletedObject& bind) {
    queue_.add(std::string(cache::key_of(bind)));
  };

  // Nodes: a change to a Node we control (someone edited its label or
  // address, or deleted it) reconciles its EcsBind ("own and watch").
  auto owned_nodes = controller::enqueue_for_owner({.group = std::string(EcsBind::kind_info.group),
                                                    .kind = std::string(EcsBind::kind_info.kind),
                                                    .namespaced = false},
                                                   queue_);
  // A deleted Node frees its name: an EcsBind that failed because the name
  // was taken may now bind, so reconcile every EcsBind that wants the name.
  auto freed_names = std::make_shared<cache::EventHandlerFuncs>();
  freed_names->remove = [this](const cache::DeletedObject& node) {
    const std::string name(cache::key_of(node));
    auto binds = binds_.lister.list();
    if (!binds.ok()) return;
    for (const EcsBind& bind : *binds) {
      if (desired_node_name(bind) == name) queue_.add(bind.metadata.name);
    }
  };

  const auto register_handler =
      [this](const std::shared_ptr<cache::SharedIndexInformer>& informer,
             std::shared_ptr<cache::ResourceEventHandler> handler,
             std::vector<std::shared_ptr<cache::ResourceEventHandlerRegistration>>& registrations) {
        auto r = informer->add_event_handler(std::move(handler));
        if (!r.ok()) {  // only when the informer already stopped: never sync
          log::error("Cannot register event handler",
                     {{"controller", kControllerName}, {"err", r.error()}});
          synced_.emplace_back([] { return false; });
          return;
        }
        registrations.push_back(*r);
        synced_.emplace_back([reg = *r] { return reg->has_synced(); });
      };
  register_handler(binds_.informer, std::move(bind_handler), bind_registrations_);
  register_handler(nodes_.informer, std::move(owned_nodes), node_registrations_);
  register_handler(nodes_.informer, std::move(freed_names), node_registrations_);
}

EcsBindController::~EcsBindController() {
  // Waits for a handler in progress, so none runs on a destroyed queue.
  for (const auto& r : bind_registrations_)
    (void)binds_.informer->remove_event_handler(r);
  for (const auto& r : node_registrations_)
    (void)nodes_.informer->remove_event_handler(r);
  queue_.shut_down();
}

void EcsBindController::run(int workers, std::stop_token stop) {
  controller::run_workers({.controller = kControllerName,
                           .synced = synced_,
                           .process_next = [this] { return process_next_item(); },
                           .shut_down = [this] { queue_.shut_down_with_drain(); }},
                          workers, stop);
}

bool EcsBindController::process_next_item() {
  const std::optional<std::string> name = queue_.get();
  if (!name) return false;
  auto done = reconcile(*name);
  if (done.ok()) {
    queue_.forget(*name);
    count("success");
  } else {
    log::error("Error syncing EcsBind, requeuing", {{"controller", kControllerName},
                                                    {"ecsbind", *name},
                                                    {"err", done.error()},
                                                    {"requeues", queue_.num_requeues(*name)}});
    queue_.add_rate_limited(*name);
    count("error");
  }
  queue_.done(*name);
  return true;
}

Result<void> EcsBindController::reconcile(const std::string& name) {
  // The cache, not the API server: cheap, and a stale copy is harmless
  // because every write carries its resourceVersion (a 409 retries).
  auto cached = binds_.lister.untyped().get(name);
  if (!cached.ok()) {
    // Gone: it held our finalizer, so its Node went first.
    if (cached.error().is(api::reason::kNotFound)) return {};
    return fail(status_text(cached.error()));
  }
  auto bind = cache::decode_cached<EcsBind>(**cached);
  if (!bind.ok()) {
    // The schema makes this impossible; retrying would not help.
    log::error("Cannot decode EcsBind",
               {{"controller", kControllerName}, {"err", status_text(bind.error())}});
    return {};
  }

  const api::json::value raw = (*cached)->object();
  controller::FinalizeResult result = controller::finalize(
      binds_client_.dynamic(), raw.as_object(), kFinalizer,
      [&](const api::json::object&) { return apply(*bind); },
      [&](const api::json::object&) { return cleanup(*bind); });
  if (result.conflict()) return requeued_by_newer_version(name);
  // Gone meanwhile: a second look at a deletion we already completed (the
  // cache still had it).
  if (result.error && result.error->status && result.error->status->is(api::reason::kNotFound))
    return {};
  if (!result.ok()) return fail(result.error->message);

  if (result.action == controller::FinalizeAction::kAddedFinalizer && result.object) {
    // First sight: say so. The finalizer patch's watch event brings the next
    // reconcile, which creates the Node.
    auto patched = api::decode_object<EcsBind>(*result.object);
    if (!patched.ok()) return fail(status_text(patched.error()));
    return write_status(*patched, pending_outcome(*patched));
  }
  return {};
}

Result<void> EcsBindController::apply(const EcsBind& bind) {
  // Nodes we made under an earlier name (spec.nodeName or spec.instanceId
  // was edited) go first.
  auto nodes = nodes_.lister.list();
  if (!nodes.ok()) return fail(status_text(nodes.error()));
  for (const std::string& stale : stale_node_names(bind, *nodes)) {
    auto removed = nodes_client_.remove(stale);
    if (!removed.ok() && !removed.error().is(api::reason::kNotFound))
      return fail("deleting node \"" + stale + "\": " + status_text(removed.error()));
    record(bind, record::kEventTypeNormal, "NodeDeleted",
           "Deleted node \"" + stale + "\" (no longer wanted)");
  }

  auto outcome = ensure_node(bind);
  if (!outcome.ok()) return fail(outcome.error());
  return write_status(bind, *outcome);
}

Result<Outcome> EcsBindController::ensure_node(const EcsBind& bind) {
  const std::string name = desired_node_name(bind);
  std::optional<Node> existing;
  if (auto cached = nodes_.lister.get(name); cached.ok()) {
    existing = std::move(*cached);
  } else if (!cached.error().is(api::reason::kNotFound)) {
    return fail(status_text(cached.error()));
  }

  NodePlan plan = plan_node(bind, existing);
  if (plan.action == NodeAction::kCreate) {
    auto created = nodes_client_.create(plan.node);
    if (created.ok()) {
      record(bind, record::kEventTypeNormal, "NodeCreated", "Created node \"" + name + "\"");
      return bound_outcome(bind);
    }
    if (!created.error().is(api::reason::kAlreadyExists))
      return fail("creating node \"" + name + "\": " + status_text(created.error()));
    // The cache had not seen it yet (ours from a moment ago, or someone
    // else's): decide on the live object.
    auto live = nodes_client_.get(name);
    if (!live.ok()) return fail("reading node \"" + name + "\": " + status_text(live.error()));
    plan = plan_node(bind, *live);
  }

  switch (plan.action) {
    case NodeAction::kCreate:  // handled above; a live node exists by now
    case NodeAction::kInSync:
      return bound_outcome(bind);
    case NodeAction::kTaken: {
      Outcome taken = taken_outcome(bind);
      if (bind.status.reason != taken.reason)  // once per failure, not per resync
        record(bind, record::kEventTypeWarning, taken.reason, taken.message);
      return taken;
    }
    case NodeAction::kRepair:
      break;
  }
  // Node updates ignore status and status updates ignore the rest (as
  // upstream's node strategy), hence two writes. A 409 means the cache was
  // behind: the error requeues and the next try reads the newer node.
  if (plan.metadata_changed) {
    auto updated = nodes_client_.update(plan.node);
    if (!updated.ok())
      return fail("updating node \"" + name + "\": " + status_text(updated.error()));
    plan.node.metadata.resource_version = updated->metadata.resource_version;
  }
  if (plan.addresses_changed) {
    auto updated = nodes_client_.update_status(plan.node);
    if (!updated.ok())
      return fail("updating the status of node \"" + name + "\": " + status_text(updated.error()));
  }
  record(bind, record::kEventTypeNormal, "NodeUpdated", "Updated node \"" + name + "\"");
  return bound_outcome(bind);
}

Result<void> EcsBindController::cleanup(const EcsBind& bind) {
  // The API server, not the cache: a Node created a moment ago may not be
  // cached yet, and missing it would leave it behind for good once the
  // finalizer is gone.
  auto nodes = nodes_client_.list_all();
  if (!nodes.ok()) return fail("listing nodes: " + status_text(nodes.error()));
  std::vector<std::string> remaining;
  for (const Node& node : nodes->items) {
    if (!controlled_by(node, bind)) continue;
    const std::string& name = node.metadata.name;
    if (!node.metadata.deletion_timestamp) {
      auto removed = nodes_client_.remove(name);
      if (!removed.ok() && !removed.error().is(api::reason::kNotFound))
        return fail("deleting node \"" + name + "\": " + status_text(removed.error()));
      record(bind, record::kEventTypeNormal, "NodeDeleted", "Deleted node \"" + name + "\"");
    }
    // Gone at once unless it has finalizers of its own: check.
    auto live = nodes_client_.get(name);
    if (live.ok()) {
      remaining.push_back(name);
    } else if (!live.error().is(api::reason::kNotFound)) {
      return fail("reading node \"" + name + "\": " + status_text(live.error()));
    }
  }
  // The finalizer stays until the Node is really gone; its delete event
  // reconciles us again (and the back-off retries regardless).
  if (!remaining.empty())
    return fail("waiting for node \"" + remaining.front() + "\" to be deleted");
  return {};
}

Result<void> EcsBindController::write_status(const EcsBind& bind, const Outcome& outcome) {
  std::optional<EcsBindStatus> status = status_update(bind, outcome);
  if (!status) return {};
  EcsBind next = bind;
  next.status = std::move(*status);
  // PUT .../status with the resourceVersion we read: a 409 requeues rather
  // than overwrite a newer spec's status with this one.
  auto written = binds_client_.update_status(next);
  if (!written.ok() && written.error().is(api::reason::kConflict))
    return requeued_by_newer_version(bind.metadata.name);
  if (!written.ok())
    return fail("updating the status of EcsBind \"" + bind.metadata.name +
                "\": " + status_text(written.error()));
  if (next.status.phase != bind.status.phase)
    log::info("EcsBind phase changed", {{"controller", kControllerName},
                                        {"ecsbind", bind.metadata.name},
                                        {"phase", next.status.phase},
                                        {"reason", next.status.reason}});
  return {};
}

Result<void> EcsBindController::requeued_by_newer_version(const std::string& name) {
  // 409: the cache was behind. The newer version's watch event enqueues the
  // name again (the queue re-adds a name that arrives while it is being
  // processed), so this is no error and needs no back-off.
  if (log::v(2))
    log::info("EcsBind changed meanwhile, waiting for the newer version",
              {{"controller", kControllerName}, {"ecsbind", name}});
  return {};
}

void EcsBindController::record(const EcsBind& bind, std::string_view type, std::string_view reason,
                               const std::string& message) {
  recorder_->event({.kind = std::string(EcsBind::kind_info.kind),
                    .namespace_ = "",
                    .name = bind.metadata.name,
                    .uid = bind.metadata.uid,
                    .api_version = EcsBind::kind_info.api_version(),
                    .resource_version = bind.metadata.resource_version,
                    .field_path = ""},
                   type, reason, message);
}

void EcsBindController::count(std::string_view result) {
  if (!reconciles_) return;
  if (auto c = reconciles_->with_label_values({std::string(result)}); c.ok()) (*c)->inc();
}

}  // namespace kcm::ecsbind
