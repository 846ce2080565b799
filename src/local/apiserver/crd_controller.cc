#include "local/apiserver/crd_controller.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>

#include "api/time.h"
#include "local/apiserver/stored_codec.h"
#include "local/crd/crd_status.h"
#include "local/registry/custom_resources.h"
#include "local/registry/strategies.h"

namespace kcm::local::apiserver {
namespace {

// The API server's own controllers write as kube-apiserver in managedFields.
WriteOptions kube_apiserver_write() {
  WriteOptions options;
  options.field_manager = "kube-apiserver";
  return options;
}

}  // namespace

namespace {

constexpr std::string_view kCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";

// Runs one asynchronous RestStore call to completion.
Result<WriteResult, api::Status> wait_for(const std::function<void(WriteDone)>& call) {
  auto done = std::make_shared<std::promise<Result<WriteResult, api::Status>>>();
  auto result = done->get_future();
  call([done](Result<WriteResult, api::Status> r) { done->set_value(std::move(r)); });
  return result.get();
}

std::string name_of(const json::object& obj) {
  const json::object* meta = api::find_object(obj, "metadata");
  return meta ? std::string(api::find_string(*meta, "name").value_or("")) : std::string();
}

bool being_deleted(const json::object& obj) {
  const json::object* meta = api::find_object(obj, "metadata");
  return meta && meta->contains("deletionTimestamp");
}

bool has_cleanup_finalizer(const json::object& obj) {
  const json::object* meta = api::find_object(obj, "metadata");
  const json::array* finalizers = meta ? api::find_array(*meta, "finalizers") : nullptr;
  if (finalizers == nullptr) return false;
  return std::any_of(finalizers->begin(), finalizers->end(), [](const json::value& f) {
    return api::as_string_view(&f) == kCleanupFinalizer;
  });
}

std::string group_of(const json::object& crd) {
  const json::object* spec = api::find_object(crd, "spec");
  return spec ? std::string(api::find_string(*spec, "group").value_or("")) : std::string();
}

// A served resource of a CRD that is being deleted: objects can still be
// read and deleted, not created (upstream's crdHandler answers 405).
std::shared_ptr<const registry::ResourceInfo> terminating(
    const std::shared_ptr<const registry::ResourceInfo>& info) {
  auto copy = std::make_shared<registry::ResourceInfo>(*info);
  copy->terminating = true;
  return copy;
}

}  // namespace

struct CrdController::Sink final : storage::WatchSink {
  explicit Sink(CrdController* owner) : owner(owner) {}
  void deliver(const storage::Event& /*event*/) override { owner->notify(); }
  CrdController* owner;
};

CrdController::CrdController(RestStore& rest, registry::ResourceCatalog& catalog)
    : rest_(rest),
      catalog_(catalog),
      crds_(catalog.builtins().find("apiextensions.k8s.io", "v1", "customresourcedefinitions")) {}

Result<std::unique_ptr<CrdController>> CrdController::start(RestStore& rest,
                                                            registry::ResourceCatalog& catalog) {
  std::unique_ptr<CrdController> controller(new CrdController(rest, catalog));
  if (controller->crds_ == nullptr) return fail("CustomResourceDefinitions are not served");
  storage::Store::WatchOptions options;
  options.resource = rest.resource_id(*controller->crds_);
  auto watch = rest.store().watch(options, std::make_shared<Sink>(controller.get()));
  if (!watch)
    return fail(std::string("cannot watch CustomResourceDefinitions: ") +
                std::string(storage::to_string(watch.error())));
  controller->watch_ = std::move(*watch);
  const bool pending = controller->sync();
  if (pending) controller->notify();
  controller->loop_ = std::jthread([c = controller.get()](std::stop_token stop) { c->run(stop); });
  return controller;
}

CrdController::~CrdController() {
  watch_.reset();  // no more notifications
  loop_.request_stop();
  if (loop_.joinable()) loop_.join();
}

void CrdController::notify() {
  {
    std::lock_guard lock(mu_);
    dirty_ = true;
  }
  wake_.notify_one();
}

void CrdController::run(std::stop_token stop) {
  bool pending = false;
  while (!stop.stop_requested()) {
    {
      std::unique_lock lock(mu_);
      // Objects of a deleted CRD are re-checked every second until gone.
      wake_.wait_for(lock, stop, pending ? std::chrono::seconds(1) : std::chrono::seconds(30),
                     [this] { return dirty_; });
      if (stop.stop_requested()) return;
      dirty_ = false;
    }
    pending = sync();
  }
}

bool CrdController::delete_instances(
    const std::vector<std::shared_ptr<const registry::ResourceInfo>>& served) {
  if (served.empty()) return true;
  const registry::ResourceInfo& info = *served.front();
  auto listed = rest_.list(info, ListRequest{});
  if (!listed) return false;
  for (const auto& item : listed->items) {
    if (being_deleted(parse_stored(*item))) continue;
    auto r = wait_for([&](WriteDone done) {
      rest_.remove(info, item->namespace_, item->name, DeleteOptions{}, std::move(done));
    });
    if (!r && r.error().code != 404) {
      std::fprintf(stderr, "kcm-local: warning: deleting %s %s/%s: %s\n", info.gvr.resource.c_str(),
                   item->namespace_.c_str(), item->name.c_str(), r.error().message.c_str());
    }
  }
  auto left = rest_.list(info, ListRequest{});
  return left && left->items.empty();
}

bool CrdController::sync() {
  std::lock_guard pass(sync_mu_);
  auto listed = rest_.list(*crds_, ListRequest{});
  if (!listed) return true;
  std::vector<json::object> crds;
  for (const auto& item : listed->items)
    crds.push_back(parse_stored(*item));
  // The older CRD keeps a contested name (upstream's naming controller sees
  // the other CRDs' accepted names).
  std::stable_sort(crds.begin(), crds.end(), [](const json::object& a, const json::object& b) {
    auto created = [](const json::object& o) {
      const json::object* meta = api::find_object(o, "metadata");
      return meta ? std::string(api::find_string(*meta, "creationTimestamp").value_or(""))
                  : std::string();
    };
    return created(a) < created(b);
  });

  bool pending = false;
  std::vector<std::shared_ptr<const registry::ResourceInfo>> served;
  for (std::size_t i = 0; i < crds.size(); ++i) {
    json::object& crd = crds[i];
    const std::string name = name_of(crd);
    if (being_deleted(crd)) {
      auto resources = registry::served_resources(crd);
      if (has_cleanup_finalizer(crd)) {
        if (delete_instances(resources)) {
          auto r = wait_for([&](WriteDone done) {
            rest_.update_with(
                *crds_, "", name, Subresource::kNone,
                [](const json::object& current) -> Result<json::object, api::Status> {
                  json::object next = current;
                  json::object& meta = api::ensure_object(next, "metadata");
                  json::array kept;
                  if (const json::array* f = api::find_array(meta, "finalizers")) {
                    for (const auto& v : *f) {
                      if (api::as_string_view(&v) != kCleanupFinalizer) kept.push_back(v);
                    }
                  }
                  meta["finalizers"] = std::move(kept);
                  return next;
                },
                kube_apiserver_write(), std::move(done));
          });
          if (!r && r.error().code != 404) pending = true;
          continue;  // gone (or going): no longer served
        }
        pending = true;
      }
      for (const auto& r : resources)
        served.push_back(terminating(r));
      continue;
    }

    crd::TakenNames taken;
    for (std::size_t j = 0; j < crds.size(); ++j) {
      if (j != i && group_of(crds[j]) == group_of(crd)) crd::add_accepted_names(crds[j], taken);
    }
    json::object status = crd::crd_status(crd, taken, api::Time::now().to_string());
    const json::value* current_status = crd.if_contains("status");
    if (current_status == nullptr || *current_status != json::value(status)) {
      auto r = wait_for([&](WriteDone done) {
        rest_.update_with(
            *crds_, "", name, Subresource::kStatus,
            [&taken](const json::object& current) -> Result<json::object, api::Status> {
              json::object next = current;
              next["status"] = crd::crd_status(current, taken, api::Time::now().to_string());
              return next;
            },
            kube_apiserver_write(), std::move(done));
      });
      if (r && r->object) {
        crd = parse_stored(*r->object);
      } else {
        pending = true;
      }
    }
    if (crd::crd_condition_true(crd, "Established")) {
      for (auto& r : registry::served_resources(crd))
        served.push_back(std::move(r));
    }
  }

  // Rebuild the catalog only when what is served changed (discovery and
  // OpenAPI documents are rebuilt after it).
  std::string signature;
  for (const auto& r : served) {
    signature += r->gvr.group + "/" + r->gvr.version + "/" + r->gvr.resource + "/" + r->kind +
                 (r->terminating ? "/T;" : ";");
  }
  for (const auto& crd : crds) {
    const json::object* meta = api::find_object(crd, "metadata");
    if (meta && !being_deleted(crd)) {
      signature += std::string(api::find_string(*meta, "uid").value_or("")) + "@" +
                   std::to_string(api::find_int(*meta, "generation").value_or(0)) + ",";
    }
  }
  if (signature != served_signature_) {
    catalog_.set_custom(std::move(served));
    served_signature_ = std::move(signature);
  }
  return pending;
}

}  // namespace kcm::local::apiserver
