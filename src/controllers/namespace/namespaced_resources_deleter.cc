#include "controllers/namespace/namespaced_resources_deleter.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <tuple>
#include <utility>

#include "controllers/namespace/graceful_estimate.h"
#include "log/log.h"

namespace kcm::controllers::ns {

namespace json = boost::json;

namespace {

const api::GroupVersionResource kPods{"", "v1", "pods"};

// 405 and 404 both mean "this resource does not support the call": some
// resources listed by discovery serve no top-level verbs (upstream #22413).
bool unsupported(const api::Status& s) {
  return s.is(api::reason::kMethodNotAllowed) || s.is(api::reason::kNotFound);
}

std::string_view uid_of(const json::value& obj) {
  return api::as_string_view(api::find_path(obj, {"metadata", "uid"}));
}

std::string_view name_of(const json::value& obj) {
  return api::as_string_view(api::find_path(obj, {"metadata", "name"}));
}

// metadata.deletionTimestamp; nullopt when unset.
std::optional<api::Time> deletion_timestamp(const json::value& obj) {
  const json::value* ts = api::find_path(obj, {"metadata", "deletionTimestamp"});
  if (ts == nullptr || ts->is_null()) return std::nullopt;
  auto t = api::Time::from_json(*ts);
  if (!t.ok()) return std::nullopt;
  return *t;
}

bool finalized(const json::value& obj) {
  const json::value* f = api::find_path(obj, {"spec", "finalizers"});
  return f == nullptr || !f->is_array() || f->as_array().empty();
}

std::vector<std::string> finalizers_of_item(const json::value& obj) {
  std::vector<std::string> out;
  const json::value* f = api::find_path(obj, {"metadata", "finalizers"});
  if (f == nullptr || !f->is_array()) return out;
  for (const json::value& v : f->as_array()) {
    if (v.is_string()) out.emplace_back(v.as_string());
  }
  return out;
}

}  // namespace

std::string resources_remaining_message(std::int64_t estimate) {
  return fmt::format(
      "some content remains in the namespace, estimate {} seconds before it is removed", estimate);
}

std::string aggregate_message(const std::vector<std::string>& messages) {
  std::vector<std::string> unique;
  std::set<std::string, std::less<>> seen;
  for (const std::string& m : messages) {
    if (seen.insert(m).second) unique.push_back(m);
  }
  if (unique.size() == 1) return unique.front();
  return fmt::format("[{}]", fmt::join(unique, ", "));
}

std::string discovery_failure_message(const std::map<std::string, std::string>& failed) {
  std::vector<std::string> groups;
  for (const auto& [gv, err] : failed)
    groups.push_back(fmt::format("{}: {}", gv, err));
  std::sort(groups.begin(), groups.end());
  return fmt::format("unable to retrieve the complete list of server APIs: {}",
                     fmt::join(groups, ", "));
}

std::string gvr_string(const api::GroupVersionResource& gvr) {
  return fmt::format("{}/{}, Resource={}", gvr.group, gvr.version, gvr.resource);
}

std::vector<std::string> finalizers_without(const json::value& namespace_object,
                                            std::string_view token) {
  std::set<std::string, std::less<>> kept;
  if (const json::value* f = api::find_path(namespace_object, {"spec", "finalizers"});
      f != nullptr && f->is_array()) {
    for (const json::value& v : f->as_array()) {
      if (v.is_string() && v.as_string() != token) kept.emplace(v.as_string());
    }
  }
  return {kept.begin(), kept.end()};
}

NamespacedResourcesDeleter::NamespacedResourcesDeleter(DeleterApi& api, DeleterOptions options)
    : api_(api), options_(std::move(options)) {}

Result<json::value, api::Status> NamespacedResourcesDeleter::retry_on_conflict(
    json::value namespace_object, const Update& update) {
  json::value latest = std::move(namespace_object);
  for (;;) {
    auto result = update(latest);
    if (result.ok() || !result.error().is(api::reason::kConflict)) return result;
    auto fresh = api_.get_namespace(name_of(latest));
    if (!fresh.ok()) return fresh;
    if (uid_of(*fresh) != uid_of(latest)) {
      api::Status changed;
      changed.message = "namespace uid has changed across retries";
      return fail(std::move(changed));
    }
    latest = std::move(*fresh);
  }
}

Result<void, DeleteError> NamespacedResourcesDeleter::delete_namespace(std::string_view name) {
  // Several controllers may edit a terminating namespace: start from the
  // server's latest state, not the cache's.
  auto got = api_.get_namespace(name);
  if (!got.ok()) {
    if (got.error().is(api::reason::kNotFound)) return {};
    return fail(DeleteError{got.error().message, std::nullopt});
  }
  if (!deletion_timestamp(*got)) return {};
  if (log::v(5)) {
    log::info("Namespace controller - syncNamespace",
              {{"namespace", name}, {"finalizerToken", options_.finalizer_token}});
  }

  // Phase Terminating first (a NotFound means it is gone).
  auto ns = retry_on_conflict(
      std::move(*got), [this](const json::value& obj) -> Result<json::value, api::Status> {
        if (!deletion_timestamp(obj) ||
            api::as_string_view(api::find_path(obj, {"status", "phase"})) == "Terminating") {
          return obj;
        }
        json::value next = obj;
        api::ensure_object(next.as_object(), "status")["phase"] = "Terminating";
        return api_.update_namespace_status(next);
      });
  if (!ns.ok()) {
    if (ns.error().is(api::reason::kNotFound)) return {};
    return fail(DeleteError{ns.error().message, std::nullopt});
  }
  if (!deletion_timestamp(*ns)) return {};
  if (finalized(*ns)) return {};

  const ContentDeletion content = delete_all_content(*ns);
  if (!content.errors.empty()) return fail(DeleteError{aggregate_message(content.errors), {}});
  if (content.estimate > 0) {
    return fail(DeleteError{resources_remaining_message(content.estimate), content.estimate});
  }

  // Nothing left: give up our finalizer token.
  auto finalized_ns = retry_on_conflict(
      std::move(*ns), [this](const json::value& obj) -> Result<json::value, api::Status> {
        json::value next = obj;
        json::array finalizers;
        for (std::string& f : finalizers_without(obj, options_.finalizer_token))
          finalizers.emplace_back(std::move(f));
        api::ensure_object(next.as_object(), "spec")["finalizers"] = std::move(finalizers);
        auto r = api_.finalize_namespace(next);
        // Removed already: fine.
        if (!r.ok() && r.error().is(api::reason::kNotFound)) return next;
        return r;
      });
  if (!finalized_ns.ok() && !finalized_ns.error().is(api::reason::kNotFound)) {
    return fail(DeleteError{finalized_ns.error().message, std::nullopt});
  }
  return {};
}

ContentDeletion NamespacedResourcesDeleter::delete_all_content(json::value namespace_object) {
  const std::string name(name_of(namespace_object));
  const api::Time deleted_at = deletion_timestamp(namespace_object).value_or(api::Time());
  ContentDeletion out;
  ConditionUpdater conditions(options_.condition_time);
  if (log::v(4)) log::info("namespace controller - deleteAllContent", {{"namespace", name}});

  // Discovery errors are not fatal: act on what was discovered.
  std::vector<client::ApiResource> resources;
  auto discovered = api_.discover();
  if (!discovered.ok()) {
    out.errors.push_back(discovered.error().message);
    conditions.process_discovery_error(discovered.error().message, 0);
  } else {
    if (!discovered->failed.empty()) {
      const std::string message = discovery_failure_message(discovered->failed);
      out.errors.push_back(message);
      conditions.process_discovery_error(message, discovered->failed.size());
    }
    resources = std::move(discovered->resources);
  }
  // Deletable namespaced resources, once each, in a stable order.
  std::map<std::tuple<std::string, std::string, std::string>, client::ApiResource> deletable;
  for (client::ApiResource& r : resources) {
    if (!r.namespaced || r.is_subresource() || !r.supports_all({"delete"})) continue;
    auto key = std::make_tuple(r.group_version.group, r.group_version.version, r.name);
    deletable.emplace(std::move(key), std::move(r));
  }

  ContentTotals totals;
  for (const auto& [key, resource] : deletable) {
    ResourceDeletion result = delete_resource(resource, name, deleted_at);
    if (result.error) {
      out.errors.push_back(*result.error);
      conditions.process_delete_content_error(*result.error);
    }
    out.estimate = std::max(out.estimate, result.estimate);
    if (result.remaining > 0) {
      totals.resource_remaining[key] = result.remaining;
      for (const auto& [finalizer, n] : result.finalizers) {
        if (n > 0) totals.finalizer_remaining[finalizer] += n;
      }
    }
  }
  conditions.process_content_totals(totals);

  // Always written when different: a condition that was failing must show
  // it recovered (other finalizers may keep the namespace around).
  if (conditions.update(namespace_object.as_object())) {
    auto updated = api_.update_namespace_status(namespace_object);
    if (!updated.ok()) {
      log::error("couldn't update status condition for namespace",
                 {{"namespace", name}, {"err", updated.error().message}});
    }
  }
  if (log::v(4)) {
    log::info("namespace controller - deleteAllContent",
              {{"namespace", name},
               {"estimate", out.estimate},
               {"err", out.errors.empty() ? std::string() : aggregate_message(out.errors)}});
  }
  return out;
}

Result<std::int64_t, api::Status> NamespacedResourcesDeleter::estimate_graceful_termination(
    const api::GroupVersionResource& gvr, std::string_view ns, const api::Time& deleted_at) {
  if (gvr.group != kPods.group || gvr.resource != kPods.resource) return std::int64_t{0};
  auto pods = api_.list_pods(ns);
  if (!pods.ok()) return fail(std::move(pods).error());
  const auto now = options_.now ? options_.now() : std::chrono::system_clock::now();
  return remaining_estimate(pods_grace_estimate(*pods), deleted_at, now);
}

ResourceDeletion NamespacedResourcesDeleter::delete_resource(const client::ApiResource& resource,
                                                             std::string_view ns,
                                                             const api::Time& deleted_at) {
  const api::GroupVersionResource gvr = resource.gvr();
  ResourceDeletion out;
  auto estimate = estimate_graceful_termination(gvr, ns, deleted_at);
  if (!estimate.ok()) {
    out.error = estimate.error().message;
    return out;
  }
  out.estimate = *estimate;
  const bool can_list = resource.supports_all({"list"});

  // The whole collection at once, else item by item.
  bool collection_deleted = false;
  if (resource.supports_all({"deletecollection"})) {
    auto r = api_.delete_collection(gvr, ns);
    if (r.ok()) {
      collection_deleted = true;
    } else if (!unsupported(r.error())) {
      out.error = r.error().message;
      return out;
    }
  }
  if (!collection_deleted && can_list) {
    auto items = api_.list(gvr, ns);
    if (!items.ok()) {
      if (!unsupported(items.error())) {
        out.error = items.error().message;
        return out;
      }
    } else {
      for (const json::value& item : *items) {
        auto r = api_.delete_object(gvr, ns, name_of(item));
        if (!r.ok() && !unsupported(r.error())) {
          out.error = r.error().message;
          return out;
        }
      }
    }
  }

  // What remains is fine while an estimate says it is going away.
  if (!can_list) return out;
  auto remaining = api_.list(gvr, ns);
  if (!remaining.ok()) {
    if (!unsupported(remaining.error())) out.error = remaining.error().message;
    return out;
  }
  if (remaining->empty()) return ResourceDeletion{};
  out.remaining = static_cast<int>(remaining->size());
  for (const json::value& item : *remaining) {
    for (const std::string& f : finalizers_of_item(item))
      ++out.finalizers[f];
  }
  if (out.estimate != 0) return out;
  // Finalizers are a normal reason to wait: give them a default time.
  if (!out.finalizers.empty()) {
    out.estimate = kFinalizerEstimateSeconds;
    return out;
  }
  out.error = fmt::format("unexpected items still remain in namespace: {} for gvr: {}", ns,
                          gvr_string(gvr));
  return out;
}

}  // namespace kcm::controllers::ns
