#include "leaderelection/lease_lock.h"

#include <utility>

#include "record/event.h"

namespace kcm::leaderelection {
namespace {

api::Status local_error(std::string message) {
  api::Status s;
  s.code = 0;  // no response from a server, like the client's own errors
  s.message = std::move(message);
  return s;
}

void merge_labels(api::json::object& lease, const api::StringMap& labels) {
  if (labels.empty()) return;
  auto& l = api::ensure_object(api::ensure_object(lease, "metadata"), "labels");
  for (const auto& [k, v] : labels)
    l[k] = v;
}

}  // namespace

LeaseLock::LeaseLock(std::shared_ptr<LeaseStore> store, LeaseLockConfig config)
    : store_(std::move(store)), config_(std::move(config)) {}

Result<ObservedRecord, api::Status> LeaseLock::get() {
  auto lease = store_->get(config_.namespace_, config_.name);
  if (!lease) return fail(std::move(lease).error());
  const api::json::value* spec = nullptr;
  if (lease->is_object()) spec = api::find(lease->get_object(), "spec");
  auto record = lease_spec_to_record(spec != nullptr ? *spec : api::json::value());
  if (!record) return fail(local_error("decoding Lease " + describe() + ": " + record.error()));
  {
    std::lock_guard lock(mu_);
    lease_ = std::move(*lease);
  }
  ObservedRecord out;
  out.raw = raw_record(*record);
  out.record = std::move(*record);
  return out;
}

Result<void, api::Status> LeaseLock::create(const LeaderElectionRecord& record) {
  api::json::object lease;
  lease["apiVersion"] = "coordination.k8s.io/v1";
  lease["kind"] = "Lease";
  api::json::object meta;
  meta["name"] = config_.name;
  meta["namespace"] = config_.namespace_;
  lease["metadata"] = std::move(meta);
  merge_labels(lease, config_.labels);
  lease["spec"] = record_to_lease_spec(record);
  auto created = store_->create(config_.namespace_, lease);
  std::lock_guard lock(mu_);
  // Like upstream, a failed create leaves no Lease to update over.
  if (!created) {
    lease_.reset();
    return fail(std::move(created).error());
  }
  lease_ = std::move(*created);
  return {};
}

Result<void, api::Status> LeaseLock::update(const LeaderElectionRecord& record) {
  api::json::value desired;
  {
    std::lock_guard lock(mu_);
    if (!lease_ || !lease_->is_object()) {
      return fail(local_error("lease not initialized, call get or create first"));
    }
    desired = *lease_;
  }
  auto& obj = desired.get_object();
  // Replace the members the record models; anything newer in the spec stays.
  auto& spec = api::ensure_object(obj, "spec");
  for (const auto* key : {"holderIdentity", "leaseDurationSeconds", "acquireTime", "renewTime",
                          "leaseTransitions", "strategy", "preferredHolder"}) {
    spec.erase(key);
  }
  for (auto& [k, v] : record_to_lease_spec(record))
    spec[k] = v;
  merge_labels(obj, config_.labels);
  auto updated = store_->update(config_.namespace_, desired);
  if (!updated) return fail(std::move(updated).error());
  std::lock_guard lock(mu_);
  lease_ = std::move(*updated);
  return {};
}

void LeaseLock::record_event(std::string_view message) {
  if (!config_.event_recorder) return;
  record::ObjectReference ref;
  ref.kind = "Lease";
  ref.api_version = "coordination.k8s.io/v1";
  ref.namespace_ = config_.namespace_;
  ref.name = config_.name;
  {
    std::lock_guard lock(mu_);
    if (lease_ && lease_->is_object()) {
      if (const auto* meta = api::find_object(lease_->get_object(), "metadata")) {
        ref.uid = std::string(api::find_string(*meta, "uid").value_or(""));
        ref.resource_version = std::string(api::find_string(*meta, "resourceVersion").value_or(""));
      }
    }
  }
  config_.event_recorder->event(ref, record::kEventTypeNormal, "LeaderElection",
                                config_.identity + " " + std::string(message));
}

}  // namespace kcm::leaderelection
