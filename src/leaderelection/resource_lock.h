// The lock the elector competes for (resourcelock.Interface). kcm's lock is
// a Lease (lease_lock.h); tests may script their own.
#pragma once

#include <string>
#include <string_view>

#include "api/result.h"
#include "api/status.h"
#include "leaderelection/leader_election_record.h"

namespace kcm::leaderelection {

struct ObservedRecord {
  LeaderElectionRecord record;
  std::string raw;  // raw_record(record)
};

class ResourceLock {
 public:
  virtual ~ResourceLock() = default;
  // Reads the record; a NotFound Status when the lock object does not exist.
  virtual Result<ObservedRecord, api::Status> get() = 0;
  virtual Result<void, api::Status> create(const LeaderElectionRecord& record) = 0;
  // Writes over the object last read or written (optimistic concurrency: a
  // Conflict means somebody else wrote in between).
  virtual Result<void, api::Status> update(const LeaderElectionRecord& record) = 0;
  // Records "<identity> <message>" as a Normal LeaderElection event on the lock object.
  virtual void record_event(std::string_view message) = 0;
  virtual std::string identity() const = 0;
  // "<namespace>/<name>", for logs.
  virtual std::string describe() const = 0;
};

}  // namespace kcm::leaderelection
