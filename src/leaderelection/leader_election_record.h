// LeaderElectionRecord (resourcelock.LeaderElectionRecord) and its mapping to
// and from a coordination.k8s.io/v1 Lease spec.
#pragma once

#include <string>

#include "api/json.h"
#include "api/result.h"
#include "api/time.h"

namespace kcm::leaderelection {

struct LeaderElectionRecord {
  // Empty: nobody holds the lease (set when a leader steps down).
  std::string holder_identity;
  int lease_duration_seconds = 0;
  // Full precision in memory; whole seconds in raw_record, microseconds in a Lease.
  api::Time acquire_time;
  api::Time renew_time;
  int leader_transitions = 0;
  // Coordinated leader election only.
  std::string strategy;
  std::string preferred_holder;

  friend bool operator==(const LeaderElectionRecord&, const LeaderElectionRecord&) = default;
};

// LeaseSpecToLeaderElectionRecord: absent or null members read as zero values.
// Errors name the member ("spec.renewTime: ...") when one has the wrong type.
Result<LeaderElectionRecord> lease_spec_to_record(const api::json::value& spec);

// LeaderElectionRecordToLeaseSpec: holderIdentity, leaseDurationSeconds,
// acquireTime and renewTime (MicroTime, null when zero), leaseTransitions;
// strategy and preferredHolder only when set.
api::json::object record_to_lease_spec(const LeaderElectionRecord& record);

// The record's JSON as upstream marshals it (times in whole seconds). The
// elector compares these bytes to notice that the holder renewed.
std::string raw_record(const LeaderElectionRecord& record);

}  // namespace kcm::leaderelection
