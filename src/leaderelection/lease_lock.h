// LeaseLock (resourcelock.LeaseLock): the election record lives in the spec
// of a coordination.k8s.io/v1 Lease. The lock keeps the Lease it last read
// or wrote and sends updates over it, so its resourceVersion makes a
// concurrent writer's update fail with Conflict.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "api/object_meta.h"
#include "leaderelection/lease_store.h"
#include "leaderelection/resource_lock.h"
#include "record/event_recorder.h"

namespace kcm::leaderelection {

struct LeaseLockConfig {
  std::string namespace_;
  std::string name;
  // Unique among the candidates (see new_identity()).
  std::string identity;
  // Receives "became leader" / "stopped leading"; optional.
  std::shared_ptr<record::EventRecorder> event_recorder;
  // Set on create and merged into the Lease's labels on every update.
  api::StringMap labels;
};

class LeaseLock : public ResourceLock {
 public:
  LeaseLock(std::shared_ptr<LeaseStore> store, LeaseLockConfig config);

  Result<ObservedRecord, api::Status> get() override;
  Result<void, api::Status> create(const LeaderElectionRecord& record) override;
  // Fails without a request ("lease not initialized, call get or create
  // first") until a get or create succeeded.
  Result<void, api::Status> update(const LeaderElectionRecord& record) override;
  void record_event(std::string_view message) override;
  std::string identity() const override { return config_.identity; }
  std::string describe() const override { return config_.namespace_ + "/" + config_.name; }

 private:
  const std::shared_ptr<LeaseStore> store_;
  const LeaseLockConfig config_;
  std::mutex mu_;
  std::optional<api::json::value> lease_;  // as last read or written
};

}  // namespace kcm::leaderelection
