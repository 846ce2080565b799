#include "fake_deleter_api.h"

#include <algorithm>

namespace kcm::controllers::ns::testing {

namespace json = boost::json;

namespace {

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

api::Status status(int code, std::string_view reason, std::string message) {
  api::Status s;
  s.code = code;
  s.reason = std::string(reason);
  s.message = std::move(message);
  return s;
}

}  // namespace

client::ApiResource resource(std::string group, std::string version, std::string name,
                             std::vector<std::string> verbs, bool namespaced) {
  client::ApiResource r;
  r.group_version = {std::move(group), std::move(version)};
  r.name = std::move(name);
  r.namespaced = namespaced;
  r.verbs = std::move(verbs);
  return r;
}

std::vector<std::string> all_verbs() {
  return {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"};
}

Result<json::value, api::Status> FakeDeleterApi::get_namespace(std::string_view name) {
  calls.emplace_back("get");
  if (!namespace_object) {
    return fail(
        status(404, api::reason::kNotFound, "namespaces \"" + std::string(name) + "\" not found"));
  }
  return *namespace_object;
}

Result<json::value, api::Status> FakeDeleterApi::update_namespace_status(const json::value& obj) {
  calls.emplace_back("status");
  if (status_conflicts > 0) {
    --status_conflicts;
    return fail(status(409, api::reason::kConflict, "conflict"));
  }
  status_updates.push_back(obj);
  json::value next = *namespace_object;
  next.as_object()["status"] = obj.as_object().at("status");
  namespace_object = next;
  return next;
}

Result<json::value, api::Status> FakeDeleterApi::finalize_namespace(const json::value& obj) {
  calls.emplace_back("finalize");
  finalize_requests.push_back(obj);
  json::value next = *namespace_object;
  next.as_object()["spec"].as_object()["finalizers"] = obj.at("spec").at("finalizers");
  namespace_object = next;
  return next;
}

Result<client::PreferredResources, api::Status> FakeDeleterApi::discover() {
  calls.emplace_back("discover");
  if (discovery_error) return fail(*discovery_error);
  return discovery;
}

bool FakeDeleterApi::remove(const std::string& resource, json::value& obj) {
  const json::value* finalizers = api::find_path(obj, {"metadata", "finalizers"});
  const bool has_finalizers =
      finalizers != nullptr && finalizers->is_array() && !finalizers->as_array().empty();
  const bool graceful = graceful_pods && resource == "pods" &&
                        api::find_path(obj, {"spec", "terminationGracePeriodSeconds"}) != nullptr;
  if (!has_finalizers && !graceful) return true;
  obj.as_object()["metadata"].as_object()["deletionTimestamp"] = "2026-11-30T10:00:00Z";
  return false;
}

Result<void, api::Status> FakeDeleterApi::delete_collection(const api::GroupVersionResource& gvr,
                                                            std::string_view) {
  calls.push_back("deletecollection " + gvr.resource);
  if (contains(collection_not_allowed, gvr.resource)) {
    return fail(status(405, api::reason::kMethodNotAllowed, "not allowed"));
  }
  auto& items = objects[gvr.resource];
  std::erase_if(items, [&](json::value& obj) { return remove(gvr.resource, obj); });
  return {};
}

Result<std::vector<json::value>, api::Status> FakeDeleterApi::list(
    const api::GroupVersionResource& gvr, std::string_view) {
  calls.push_back("list " + gvr.resource);
  return objects[gvr.resource];
}

Result<void, api::Status> FakeDeleterApi::delete_object(const api::GroupVersionResource& gvr,
                                                        std::string_view, std::string_view name) {
  calls.push_back("delete " + gvr.resource + " " + std::string(name));
  auto& items = objects[gvr.resource];
  const auto it = std::find_if(items.begin(), items.end(), [&](const json::value& obj) {
    return api::as_string_view(api::find_path(obj, {"metadata", "name"})) == name;
  });
  if (it == items.end()) return fail(status(404, api::reason::kNotFound, "not found"));
  if (remove(gvr.resource, *it)) items.erase(it);
  return {};
}

}  // namespace kcm::controllers::ns::testing
