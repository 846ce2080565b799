// A fake API server and informer caches for the Deployment controller's
// sync: the DeploymentApi records every call as upstream's fake clientset
// actions ("create replicasets", "update deployments/status", ...), and,
// when `apply_writes` is on, applies writes to the caches the listers read,
// as informers that catch up at once. Writes check resourceVersion as the
// API server does (with `apply_writes` on), so a test also sees the
// conflicts a sync would cause.
// Header-only, for this suite.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "api/labels.h"
#include "cache/cached_object.h"
#include "cache/indexer.h"
#include "cache/lister.h"
#include "controllers/deployment/deployment_api.h"
#include "controllers/deployment/deployment_syncer.h"
#include "record/fake_recorder.h"

namespace kcm::controllers::deployment::testing {

inline std::shared_ptr<cache::Indexer> namespaced_indexer() {
  return std::make_shared<cache::Indexer>(
      cache::Indexers{{std::string(cache::kNamespaceIndex), cache::meta_namespace_index_func}});
}

inline json::object& meta_of(json::object& obj) {
  return api::ensure_object(obj, "metadata");
}

inline std::string meta_string(const json::object& obj, std::string_view key) {
  const json::object* meta = api::find_object(obj, "metadata");
  return meta != nullptr ? std::string(api::find_string(*meta, key).value_or("")) : "";
}

class FakeRequeuer final : public Requeuer {
 public:
  void requeue_rate_limited(const std::string& key) override {
    calls.push_back("rate-limited " + key);
  }
  void requeue_after(const std::string& key, std::chrono::nanoseconds after) override {
    calls.push_back(
        "after " + key + " " +
        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(after).count()) + "s");
  }
  std::vector<std::string> calls;
};

class FakeCluster final : public DeploymentApi {
 public:
  FakeCluster() = default;

  // --- the caches ----------------------------------------------------------
  cache::Lister deployments_lister() const { return {deployments_, {"apps", "deployments"}}; }
  cache::Lister replica_sets_lister() const { return {replica_sets_, {"apps", "replicasets"}}; }
  cache::Lister pods_lister() const { return {pods_, {"", "pods"}}; }

  // Puts an object into a cache as it is (a test's fixture).
  void put_deployment(const json::object& d) { put(*deployments_, d); }
  void put_replica_set(const json::object& rs) { put(*replica_sets_, rs); }
  void put_pod(const json::object& pod) { put(*pods_, pod); }
  void remove_pod(std::string_view key) { pods_->remove(key); }

  std::optional<json::object> deployment(std::string_view key) const {
    return get(*deployments_, key);
  }
  std::optional<json::object> replica_set(std::string_view key) const {
    return get(*replica_sets_, key);
  }
  std::vector<json::object> replica_sets() const {
    std::vector<json::object> out;
    for (const cache::ObjectPtr& o : replica_sets_->list())
      out.push_back(o->object().as_object());
    return out;
  }

  // What the RS controller and kubelets would report: every RS's status
  // follows its spec, `ready` and `available` of them (all when unset).
  void settle_replica_set(std::string_view key, std::optional<std::int32_t> available = {}) {
    auto rs = replica_set(key);
    ASSERT_TRUE(rs.has_value()) << key;
    const std::int64_t spec = rs->at("spec").as_object().at("replicas").to_number<std::int64_t>();
    const std::int64_t avail = available.value_or(static_cast<std::int32_t>(spec));
    json::object status;
    status["replicas"] = spec;
    status["fullyLabeledReplicas"] = spec;
    status["readyReplicas"] = avail;
    status["availableReplicas"] = avail;
    status["observedGeneration"] = rs->at("metadata").at("generation");
    (*rs)["status"] = std::move(status);
    bump(*rs);
    put(*replica_sets_, *rs);
  }

  // --- DeploymentApi -------------------------------------------------------
  Result<json::object, api::Status> get_deployment(std::string_view namespace_,
                                                   std::string_view name) override {
    actions.push_back("get deployments");
    if (live_deployment) return *live_deployment;
    auto d = deployment(std::string(namespace_) + "/" + std::string(name));
    if (!d) return fail(api::not_found({"apps", "deployments"}, name));
    return *d;
  }
  Result<json::object, api::Status> update_deployment(const json::object& d) override {
    actions.push_back("update deployments");
    if (auto e = injected("update deployments")) return fail(*e);
    updated_deployments.push_back(kept(d));
    json::object written = kept(d);
    const std::string key = meta_string(d, "namespace") + "/" + meta_string(d, "name");
    if (auto current = deployment(key)) {
      if (auto c = conflict(*current, d, "deployments")) return fail(*c);
      written["status"] = current->contains("status") ? current->at("status") : json::object{};
      if (written.at("spec") != current->at("spec") ||
          meta_of(written)["annotations"] != meta_of(*current)["annotations"]) {
        meta_of(written)["generation"] =
            api::find_path(*current, {"metadata", "generation"}) != nullptr
                ? current->at("metadata").at("generation").to_number<std::int64_t>() + 1
                : 1;
      }
    }
    bump(written);
    if (apply_writes) put(*deployments_, written);
    return written;
  }
  Result<std::string, api::Status> update_deployment_status(const json::object& d) override {
    actions.push_back("update deployments/status");
    if (auto e = injected("update deployments/status")) return fail(*e);
    status_writes.push_back(kept(d));
    json::object written = kept(d);
    const std::string key = meta_string(d, "namespace") + "/" + meta_string(d, "name");
    if (auto current = deployment(key)) {
      if (auto c = conflict(*current, d, "deployments")) return fail(*c);
      written["spec"] = current->at("spec");
    }
    bump(written);
    if (apply_writes) put(*deployments_, written);
    return meta_string(written, "resourceVersion");
  }
  Result<std::vector<json::object>, api::Status> list_replica_sets(
      std::string_view namespace_, std::string_view label_selector) override {
    actions.push_back("list replicasets");
    auto selector = api::labels::parse(label_selector);
    EXPECT_TRUE(selector.ok());
    std::vector<json::object> out;
    for (const cache::ObjectPtr& o : replica_sets_->list()) {
      if (o->namespace_() == namespace_ && o->matches(*selector)) {
        out.push_back(o->object().as_object());
      }
    }
    return out;
  }
  Result<json::object, api::Status> create_replica_set(std::string_view namespace_,
                                                       const json::object& rs) override {
    actions.push_back("create replicasets");
    if (auto e = injected("create replicasets")) return fail(*e);
    created_replica_sets.push_back(kept(rs));
    json::object written = kept(rs);
    const std::string name = meta_string(rs, "name");
    if (replica_set(std::string(namespace_) + "/" + name)) {
      return fail(api::already_exists({"apps", "replicasets"}, name));
    }
    json::object& meta = meta_of(written);
    meta["uid"] = "uid-" + name;
    meta["generation"] = 1;
    meta["creationTimestamp"] = next_creation_timestamp();
    written.erase("status");
    bump(written);
    if (apply_writes) put(*replica_sets_, written);
    return written;
  }
  Result<json::object, api::Status> update_replica_set(const json::object& rs) override {
    actions.push_back("update replicasets");
    if (auto e = injected("update replicasets")) return fail(*e);
    updated_replica_sets.push_back(kept(rs));
    json::object written = kept(rs);
    const std::string key = meta_string(rs, "namespace") + "/" + meta_string(rs, "name");
    if (auto current = replica_set(key)) {
      if (auto c = conflict(*current, rs, "replicasets")) return fail(*c);
      written["status"] = current->contains("status") ? current->at("status") : json::object{};
      if (written.at("spec") != current->at("spec")) {
        meta_of(written)["generation"] =
            current->at("metadata").at("generation").to_number<std::int64_t>() + 1;
      }
    }
    bump(written);
    if (apply_writes) put(*replica_sets_, written);
    return written;
  }
  Result<void, api::Status> patch_replica_set(std::string_view namespace_, std::string_view name,
                                              std::string_view patch) override {
    actions.push_back("patch replicasets");
    patches.emplace_back(patch);
    if (auto e = injected("patch replicasets")) return fail(*e);
    auto current = replica_set(std::string(namespace_) + "/" + std::string(name));
    if (!current) return fail(api::not_found({"apps", "replicasets"}, name));
    // Only what claiming sends: ownerReferences added, or deleted by uid.
    const json::value p = json::parse(patch);
    json::array refs;
    if (const json::array* old = api::find_array(meta_of(*current), "ownerReferences")) refs = *old;
    for (const json::value& r : p.at("metadata").at("ownerReferences").as_array()) {
      const std::string uid(r.at("uid").as_string());
      json::array kept;
      for (const json::value& e : refs) {
        if (e.at("uid").as_string() != uid) kept.push_back(e);
      }
      if (!r.as_object().contains("$patch")) kept.push_back(r);
      refs = std::move(kept);
    }
    meta_of(*current)["ownerReferences"] = std::move(refs);
    bump(*current);
    if (apply_writes) put(*replica_sets_, *current);
    return {};
  }
  Result<void, api::Status> delete_replica_set(std::string_view namespace_,
                                               std::string_view name) override {
    actions.push_back("delete replicasets");
    deleted_replica_sets.emplace_back(name);
    if (auto e = injected("delete replicasets")) return fail(*e);
    const std::string key = std::string(namespace_) + "/" + std::string(name);
    if (!replica_set(key)) return fail(api::not_found({"apps", "replicasets"}, name));
    if (apply_writes) replica_sets_->remove(key);
    return {};
  }

  // --- what a test sets and reads -----------------------------------------
  bool apply_writes = true;
  // What get_deployment answers instead of the cached Deployment.
  std::optional<json::object> live_deployment;
  // The next call of that action ("create replicasets", ...) fails with it.
  std::map<std::string, api::Status> errors;

  std::vector<std::string> actions;
  std::vector<json::object> created_replica_sets;
  std::vector<json::object> updated_replica_sets;
  std::vector<json::object> status_writes;
  std::vector<json::object> updated_deployments;
  std::vector<std::string> patches;
  std::vector<std::string> deleted_replica_sets;

 private:
  static void put(cache::Indexer& indexer, const json::object& obj) {
    auto cached = cache::CachedObject::from_json(json::value(obj));
    ASSERT_TRUE(cached.ok()) << cached.error();
    indexer.add(*cached);
  }
  // A copy in the default memory: what the syncer passes may live in its
  // sync's arena, which is gone when the sync returns.
  static json::object kept(const json::object& o) { return json::object(o, json::storage_ptr()); }

  static std::optional<json::object> get(const cache::Indexer& indexer, std::string_view key) {
    const cache::ObjectPtr o = indexer.get_by_key(key);
    if (o == nullptr) return std::nullopt;
    return o->object().as_object();
  }
  std::optional<api::Status> injected(const std::string& action) {
    const auto it = errors.find(action);
    if (it == errors.end()) return std::nullopt;
    api::Status s = it->second;
    errors.erase(it);
    return s;
  }
  std::optional<api::Status> conflict(const json::object& current, const json::object& sent,
                                      const std::string& resource) const {
    // Without applied writes the caches never move: nothing to compare with.
    const std::string rv = meta_string(sent, "resourceVersion");
    if (!apply_writes || rv.empty() || rv == meta_string(current, "resourceVersion"))
      return std::nullopt;
    return api::conflict({"apps", resource}, meta_string(sent, "name"), api::kObjectModified);
  }
  void bump(json::object& obj) { meta_of(obj)["resourceVersion"] = std::to_string(++rv_); }
  std::string next_creation_timestamp() {
    // One second apart, so that creation order is well defined.
    const auto t = std::chrono::sys_seconds(std::chrono::seconds(1'800'000'000 + created_++));
    return api::Time(t).to_string();
  }

  std::shared_ptr<cache::Indexer> deployments_ = namespaced_indexer();
  std::shared_ptr<cache::Indexer> replica_sets_ = namespaced_indexer();
  std::shared_ptr<cache::Indexer> pods_ = namespaced_indexer();
  int rv_ = 100;
  int created_ = 0;
};

}  // namespace kcm::controllers::deployment::testing
