#include "controller/expectations.h"

namespace kcm::controller {

namespace {

SteadyNow or_steady_clock(SteadyNow now) {
  if (now) return now;
  return [] { return std::chrono::steady_clock::now(); };
}

}  // namespace

ControllerExpectations::ControllerExpectations(SteadyNow now)
    : now_(or_steady_clock(std::move(now))) {}

std::optional<ControlleeExpectations> ControllerExpectations::get_expectations(
    std::string_view key) const {
  const std::lock_guard lock(mu_);
  const auto it = records_.find(key);
  if (it == records_.end()) return std::nullopt;
  return it->second;
}

bool ControllerExpectations::satisfied_expectations(std::string_view key) const {
  const auto exp = get_expectations(key);
  if (!exp) return true;  // never set, or deleted: sync
  if (exp->fulfilled()) return true;
  return now_() - exp->timestamp > kExpectationsTimeout;
}

void ControllerExpectations::delete_expectations(std::string_view key) {
  const std::lock_guard lock(mu_);
  const auto it = records_.find(key);
  if (it != records_.end()) records_.erase(it);
}

void ControllerExpectations::set_expectations(std::string_view key, std::int64_t add,
                                              std::int64_t del) {
  const auto stamp = now_();
  const std::lock_guard lock(mu_);
  records_.insert_or_assign(std::string(key), ControlleeExpectations{add, del, stamp});
}

void ControllerExpectations::raise_expectations(std::string_view key, std::int64_t add,
                                                std::int64_t del) {
  const std::lock_guard lock(mu_);
  const auto it = records_.find(key);
  if (it == records_.end()) return;
  it->second.add += add;
  it->second.del += del;
}

void ControllerExpectations::lower_expectations(std::string_view key, std::int64_t add,
                                                std::int64_t del) {
  raise_expectations(key, -add, -del);
}

UidTrackingControllerExpectations::UidTrackingControllerExpectations(SteadyNow now)
    : expectations_(std::move(now)) {}

std::set<std::string, std::less<>> UidTrackingControllerExpectations::get_uids(
    std::string_view key) const {
  const std::lock_guard lock(mu_);
  const auto it = uids_.find(key);
  if (it == uids_.end()) return {};
  return it->second;
}

void UidTrackingControllerExpectations::expect_deletions(
    std::string_view key, const std::vector<std::string>& deleted_keys) {
  const std::lock_guard lock(mu_);
  std::set<std::string, std::less<>> expected(deleted_keys.begin(), deleted_keys.end());
  const auto count = static_cast<std::int64_t>(expected.size());
  uids_.insert_or_assign(std::string(key), std::move(expected));
  expectations_.expect_deletions(key, count);
}

void UidTrackingControllerExpectations::deletion_observed(std::string_view key,
                                                          std::string_view deleted_key) {
  const std::lock_guard lock(mu_);
  const auto it = uids_.find(key);
  if (it == uids_.end()) return;
  const auto k = it->second.find(deleted_key);
  if (k == it->second.end()) return;
  expectations_.deletion_observed(key);
  it->second.erase(k);
}

void UidTrackingControllerExpectations::delete_expectations(std::string_view key) {
  const std::lock_guard lock(mu_);
  expectations_.delete_expectations(key);
  const auto it = uids_.find(key);
  if (it != uids_.end()) uids_.erase(it);
}

}  // namespace kcm::controller
