// Test doubles for the leader election tests: an in-memory Lease store with
// the API server's optimistic concurrency, a scripted store that answers
// from a list of reactions (client-go's fake clientset reactors), and a
// clock that ticks on every read.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "api/status.h"
#include "leaderelection/clock.h"
#include "leaderelection/lease_store.h"

namespace kcm::leaderelection::testing {

inline const api::GroupResource kLeases{"coordination.k8s.io", "leases"};

// One Lease per namespace/name, resourceVersion checked on update.
class MemoryLeaseStore : public LeaseStore {
 public:
  Result<api::json::value, api::Status> get(std::string_view ns, std::string_view name) override {
    std::lock_guard lock(mu_);
    ++gets_;
    if (!lease_) return fail(api::not_found(kLeases, name));
    (void)ns;
    return *lease_;
  }
  Result<api::json::value, api::Status> create(std::string_view,
                                               const api::json::value& lease) override {
    std::lock_guard lock(mu_);
    const auto name = lease.at("metadata").at("name").as_string();
    if (lease_) return fail(api::already_exists(kLeases, name));
    api::json::value stored = lease;
    stored.at("metadata").as_object()["resourceVersion"] = std::to_string(++rv_);
    stored.at("metadata").as_object()["uid"] = "uid-1";
    lease_ = stored;
    return stored;
  }
  Result<api::json::value, api::Status> update(std::string_view,
                                               const api::json::value& lease) override {
    std::lock_guard lock(mu_);
    ++updates_;
    const std::string name(lease.at("metadata").at("name").as_string());
    if (fail_updates_) return fail(api::internal_error("etcd is down"));
    if (!lease_) return fail(api::not_found(kLeases, name));
    const auto* sent = lease.at("metadata").as_object().if_contains("resourceVersion");
    if (sent == nullptr || *sent != lease_->at("metadata").at("resourceVersion")) {
      return fail(api::conflict(kLeases, name, api::kObjectModified));
    }
    api::json::value stored = lease;
    stored.at("metadata").as_object()["resourceVersion"] = std::to_string(++rv_);
    lease_ = stored;
    return stored;
  }

  std::optional<api::json::value> lease() const {
    std::lock_guard lock(mu_);
    return lease_;
  }
  void set_fail_updates(bool fail) {
    std::lock_guard lock(mu_);
    fail_updates_ = fail;
  }
  int updates() const {
    std::lock_guard lock(mu_);
    return updates_;
  }

 private:
  mutable std::mutex mu_;
  std::optional<api::json::value> lease_;
  int rv_ = 0;
  int gets_ = 0;
  int updates_ = 0;
  bool fail_updates_ = false;
};

// Each call takes the next reaction of its verb, in order; calls beyond the
// script fail the test ("unreachable action").
class ScriptedLeaseStore : public LeaseStore {
 public:
  using Reaction = std::function<Result<api::json::value, api::Status>(const api::json::value*)>;
  struct Reactor {
    std::string verb;
    Reaction reaction;
  };

  explicit ScriptedLeaseStore(std::vector<Reactor> reactors) : reactors_(std::move(reactors)) {}

  Result<api::json::value, api::Status> get(std::string_view, std::string_view) override {
    return react("get", nullptr);
  }
  Result<api::json::value, api::Status> create(std::string_view,
                                               const api::json::value& lease) override {
    return react("create", &lease);
  }
  Result<api::json::value, api::Status> update(std::string_view,
                                               const api::json::value& lease) override {
    return react("update", &lease);
  }

  const std::vector<std::string>& actions() const { return actions_; }

 private:
  Result<api::json::value, api::Status> react(const std::string& verb,
                                              const api::json::value* object) {
    actions_.push_back(verb);
    for (auto& r : reactors_) {
      if (r.verb == verb && r.reaction) {
        auto reaction = std::move(r.reaction);
        r.reaction = nullptr;
        return reaction(object);
      }
    }
    ADD_FAILURE() << "unreachable action: " << verb;
    return fail(api::internal_error("unreachable action"));
  }

  std::vector<Reactor> reactors_;
  std::vector<std::string> actions_;
};

// Moves forward 1µs on every read, like a real clock between two reads;
// sleep_for moves it by the whole duration at once. Single-threaded tests only.
class TickingClock : public Clock {
 public:
  WallTime now() const override { return wall_ + tick(); }
  MonoTime monotonic() const override { return mono_ + tick(); }
  bool sleep_for(std::chrono::nanoseconds d, std::stop_token) override {
    advance(d);
    return true;
  }
  void advance(std::chrono::nanoseconds d) { offset_ += d; }

 private:
  std::chrono::nanoseconds tick() const { return offset_ += std::chrono::microseconds(1); }

  WallTime wall_ = WallTime(std::chrono::seconds(1'800'000'000));
  MonoTime mono_ = MonoTime(std::chrono::hours(1));
  mutable std::chrono::nanoseconds offset_{0};
};

}  // namespace kcm::leaderelection::testing
