// Expectations (upstream controller.ControllerExpectations and
// UIDTrackingControllerExpectations): what a controller has asked the API
// server to create or delete and not yet seen in its informer. A controller
// whose expectations are pending skips managing replicas, so a slow watch does
// not make it create or delete twice. Records expire after 5 minutes, so a lost
// watch event cannot stall a controller forever.
//
// Thread-safe: event handlers observe while workers set expectations.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kcm::controller {

// upstream ExpectationsTimeout.
inline constexpr std::chrono::minutes kExpectationsTimeout{5};

// The clock the TTL is measured on; injectable for tests.
using SteadyNow = std::function<std::chrono::steady_clock::time_point()>;

struct ControlleeExpectations {
  std::int64_t add = 0;
  std::int64_t del = 0;
  std::chrono::steady_clock::time_point timestamp;

  // Both counts have reached zero (or gone below it).
  bool fulfilled() const { return add <= 0 && del <= 0; }
};

class ControllerExpectations {
 public:
  explicit ControllerExpectations(SteadyNow now = {});

  // A copy of the record for `key`, if there is one.
  std::optional<ControlleeExpectations> get_expectations(std::string_view key) const;
  // True when there is no record, when it is fulfilled, or when it is older
  // than kExpectationsTimeout (strictly).
  bool satisfied_expectations(std::string_view key) const;
  void delete_expectations(std::string_view key);
  // Replaces any record with (add, del), stamped now.
  void set_expectations(std::string_view key, std::int64_t add, std::int64_t del);
  void expect_creations(std::string_view key, std::int64_t adds) { set_expectations(key, adds, 0); }
  void expect_deletions(std::string_view key, std::int64_t dels) { set_expectations(key, 0, dels); }
  // Both change an existing record only; they never create one.
  void raise_expectations(std::string_view key, std::int64_t add, std::int64_t del);
  void lower_expectations(std::string_view key, std::int64_t add, std::int64_t del);
  void creation_observed(std::string_view key) { lower_expectations(key, 1, 0); }
  void deletion_observed(std::string_view key) { lower_expectations(key, 0, 1); }

 private:
  SteadyNow now_;
  mutable std::mutex mu_;
  std::map<std::string, ControlleeExpectations, std::less<>> records_;
};

// Expectations that also remember which pods ("namespace/name") a controller
// deleted, so that a graceful delete (the deletionTimestamp update) and the
// final delete of one pod count once.
class UidTrackingControllerExpectations {
 public:
  explicit UidTrackingControllerExpectations(SteadyNow now = {});

  // The pod keys still expected to be deleted (empty when none).
  std::set<std::string, std::less<>> get_uids(std::string_view key) const;
  // Records the set of `deleted_keys` and expects that many (distinct) deletions.
  void expect_deletions(std::string_view key, const std::vector<std::string>& deleted_keys);
  // Counts `deleted_key` once, if it is one of the expected ones.
  void deletion_observed(std::string_view key, std::string_view deleted_key);
  // Forgets the counts and the key set.
  void delete_expectations(std::string_view key);

  // The plain expectations, for creations and the satisfied check.
  ControllerExpectations& expectations() { return expectations_; }
  const ControllerExpectations& expectations() const { return expectations_; }
  bool satisfied_expectations(std::string_view key) const {
    return expectations_.satisfied_expectations(key);
  }
  void expect_creations(std::string_view key, std::int64_t adds) {
    expectations_.expect_creations(key, adds);
  }
  void creation_observed(std::string_view key) { expectations_.creation_observed(key); }

 private:
  ControllerExpectations expectations_;
  mutable std::mutex mu_;
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> uids_;
};

}  // namespace kcm::controller
