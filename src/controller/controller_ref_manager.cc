#include "controller/controller_ref_manager.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <set>

namespace kcm::controller {

namespace {

json::array string_array(const std::vector<std::string>& items) {
  json::array a;
  for (const std::string& s : items)
    a.emplace_back(s);
  return a;
}

}  // namespace

Dependent dependent_from_cached(const cache::CachedObject& obj,
                                const api::labels::Selector& selector) {
  Dependent d;
  d.namespace_ = obj.namespace_();
  d.name = obj.name();
  d.uid = obj.uid();
  if (auto ref = obj.controller_ref()) d.controller_uid = ref->uid;
  d.being_deleted = obj.deletion_timestamp().has_value();
  d.matches = obj.matches(selector);
  return d;
}

ClaimAction decide_claim(const ControllerInfo& controller, const Dependent& dependent) {
  if (dependent.controller_uid) {
    if (*dependent.controller_uid != controller.uid) return ClaimAction::kIgnore;
    if (dependent.matches) return ClaimAction::kClaimed;
    // Releasing needs a live controller; a deleting one leaves the GC to it.
    if (controller.being_deleted) return ClaimAction::kIgnore;
    return ClaimAction::kRelease;
  }
  if (controller.being_deleted || !dependent.matches || dependent.being_deleted) {
    return ClaimAction::kIgnore;
  }
  if (!controller.namespace_.empty() && controller.namespace_ != dependent.namespace_) {
    return ClaimAction::kIgnore;
  }
  return ClaimAction::kAdopt;
}

std::string owner_ref_controller_patch(const ControllerInfo& controller,
                                       std::string_view dependent_uid,
                                       const std::vector<std::string>& finalizers) {
  json::object ref;
  ref["apiVersion"] = controller.api_version;
  ref["kind"] = controller.kind;
  ref["name"] = controller.name;
  ref["uid"] = controller.uid;
  ref["controller"] = true;
  ref["blockOwnerDeletion"] = true;
  json::object meta;
  meta["ownerReferences"] = json::array{std::move(ref)};
  meta["uid"] = dependent_uid;
  if (!finalizers.empty()) meta["finalizers"] = string_array(finalizers);
  json::object patch;
  patch["metadata"] = std::move(meta);
  return json::serialize(patch);
}

std::string delete_owner_ref_strategic_merge_patch(std::string_view dependent_uid,
                                                   const std::vector<std::string>& owner_uids,
                                                   const std::vector<std::string>& finalizers) {
  json::object meta;
  meta["uid"] = dependent_uid;
  if (owner_uids.empty()) {
    meta["ownerReferences"] = nullptr;  // Go marshals the nil slice as null
  } else {
    json::array refs;
    for (const std::string& uid : owner_uids) {
      // Go sorts map keys: "$patch" before "uid".
      json::object r;
      r["$patch"] = "delete";
      r["uid"] = uid;
      refs.emplace_back(std::move(r));
    }
    meta["ownerReferences"] = std::move(refs);
  }
  if (!finalizers.empty()) meta["$deleteFromPrimitiveList/finalizers"] = string_array(finalizers);
  json::object patch;
  patch["metadata"] = std::move(meta);
  return json::serialize(patch);
}

std::string go_time_string(const api::Time& t) {
  if (t.is_zero()) return "0001-01-01 00:00:00 +0000 UTC";
  const auto tp = t.time_point();
  const auto secs = std::chrono::floor<std::chrono::seconds>(tp);
  const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(tp - secs).count();
  const std::chrono::year_month_day ymd{std::chrono::floor<std::chrono::days>(secs)};
  const std::chrono::hh_mm_ss hms{secs - std::chrono::floor<std::chrono::days>(secs)};
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02u-%02u %02ld:%02ld:%02ld", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<long>(hms.hours().count()), static_cast<long>(hms.minutes().count()),
                static_cast<long>(hms.seconds().count()));
  std::string out = buf;
  if (nanos != 0) {
    char frac[16];
    std::snprintf(frac, sizeof(frac), ".%09ld", static_cast<long>(nanos));
    std::string f = frac;
    while (f.back() == '0')
      f.pop_back();
    out += f;
  }
  out += " +0000 UTC";
  return out;
}

std::function<Result<void>()> recheck_deletion_timestamp(
    std::function<Result<FreshController>()> get) {
  return [get = std::move(get)]() -> Result<void> {
    auto fresh = get();
    if (!fresh.ok()) return fail("can't recheck DeletionTimestamp: " + fresh.error());
    if (fresh->deletion_timestamp) {
      return fail(fresh->namespace_ + "/" + fresh->name + " has just been deleted at " +
                  go_time_string(*fresh->deletion_timestamp));
    }
    return {};
  };
}

std::string aggregate_errors(const std::vector<std::string>& messages) {
  if (messages.empty()) return "";
  if (messages.size() == 1) return messages.front();
  std::set<std::string_view> seen;
  std::string result;
  for (const std::string& m : messages) {
    if (!seen.insert(m).second) continue;
    if (seen.size() > 1) result += ", ";
    result += m;
  }
  if (seen.size() == 1) return result;
  return "[" + result + "]";
}

ControllerRefManager::ControllerRefManager(ControllerInfo controller, std::string dependent_kind,
                                           PatchFn patch, CanAdoptFn can_adopt,
                                           std::vector<std::string> finalizers)
    : controller_(std::move(controller)),
      dependent_kind_(std::move(dependent_kind)),
      patch_(std::move(patch)),
      can_adopt_fn_(std::move(can_adopt)),
      finalizers_(std::move(finalizers)) {}

std::optional<std::string> ControllerRefManager::ClaimResult::error() const {
  if (errors.empty()) return std::nullopt;
  return aggregate_errors(errors);
}

Result<void> ControllerRefManager::can_adopt() {
  if (!can_adopt_result_) {
    can_adopt_result_ = can_adopt_fn_ ? can_adopt_fn_() : Result<void>{};
  }
  return *can_adopt_result_;
}

Result<void, ControllerRefManager::ActionError> ControllerRefManager::adopt(
    const Dependent& dependent) {
  if (auto ok = can_adopt(); !ok.ok()) {
    return fail(ActionError{
        "can't adopt " + dependent_kind_ + " " + std::string(dependent.namespace_) + "/" +
            std::string(dependent.name) + " (" + std::string(dependent.uid) + "): " + ok.error(),
        false});
  }
  auto r = patch_(dependent.namespace_, dependent.name,
                  owner_ref_controller_patch(controller_, dependent.uid, finalizers_));
  if (!r.ok()) {
    return fail(ActionError{r.error().message, r.error().is(api::reason::kNotFound)});
  }
  return {};
}

Result<void, ControllerRefManager::ActionError> ControllerRefManager::release(
    const Dependent& dependent) {
  auto r =
      patch_(dependent.namespace_, dependent.name,
             delete_owner_ref_strategic_merge_patch(dependent.uid, {controller_.uid}, finalizers_));
  if (r.ok()) return {};
  // NotFound: the dependent is gone. Invalid: it has no such ownerReference
  // or its uid changed (deleted and recreated). Either way it is released.
  if (r.error().is(api::reason::kNotFound) || r.error().is(api::reason::kInvalid)) return {};
  return fail(ActionError{r.error().message, false});
}

Result<bool> ControllerRefManager::claim_one(const Dependent& dependent) {
  switch (decide_claim(controller_, dependent)) {
    case ClaimAction::kIgnore:
      return false;
    case ClaimAction::kClaimed:
      return true;
    case ClaimAction::kRelease: {
      auto r = release(dependent);
      if (!r.ok() && !r.error().not_found) return fail(r.error().message);
      return false;
    }
    case ClaimAction::kAdopt: {
      auto r = adopt(dependent);
      if (r.ok()) return true;
      if (r.error().not_found) return false;
      return fail(r.error().message);
    }
  }
  return false;
}

ControllerRefManager::ClaimResult ControllerRefManager::claim(
    const std::vector<Dependent>& dependents) {
  ClaimResult result;
  for (std::size_t i = 0; i < dependents.size(); ++i) {
    auto r = claim_one(dependents[i]);
    if (!r.ok()) {
      result.errors.push_back(r.error());
      continue;
    }
    if (*r) result.claimed.push_back(i);
  }
  return result;
}

ControllerRefManager pod_controller_ref_manager(PodControl& pod_control, ControllerInfo controller,
                                                ControllerRefManager::CanAdoptFn can_adopt,
                                                std::vector<std::string> finalizers) {
  return ControllerRefManager(
      std::move(controller), "Pod",
      [&pod_control](std::string_view ns, std::string_view name, std::string_view patch) {
        return pod_control.patch_pod(ns, name, patch);
      },
      std::move(can_adopt), std::move(finalizers));
}

}  // namespace kcm::controller
