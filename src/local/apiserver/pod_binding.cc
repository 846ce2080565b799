#include "local/apiserver/pod_binding.h"

#include <fmt/format.h>

#include "api/metadata_member.h"
#include "local/apiserver/ids.h"

namespace kcm::local::apiserver {
namespace {

api::Status binding_conflict(std::string_view pod, std::string_view err) {
  return api::conflict({"", "pods/binding"}, pod, err);
}

}  // namespace

Result<void, api::Status> check_pod_binding(std::string_view ns, std::string_view name,
                                            const json::object& binding) {
  const std::string body_ns = api::metadata_string(binding, "namespace");
  if (!body_ns.empty() && body_ns != ns) {
    return fail(api::bad_request(
        "the namespace of the provided object does not match the namespace sent on the request"));
  }
  if (api::metadata_string(binding, "name") != name) {
    return fail(api::bad_request("name in URL does not match name in Binding object"));
  }
  api::FieldErrors errs;
  const json::object* target = api::find_object(binding, "target");
  const std::string kind =
      target ? std::string(api::find_string(*target, "kind").value_or("")) : "";
  if (!kind.empty() && kind != "Node") {
    errs.push_back(api::not_supported("target.kind", json::value(kind), {"Node", "<empty>"}));
  }
  if (target == nullptr || api::find_string(*target, "name").value_or("").empty()) {
    errs.push_back(api::required("target.name"));
  }
  if (!errs.empty()) {
    // Upstream returns the aggregate as a plain error: a 500 whose message is
    // the error text (one error, or "[e1, e2]").
    std::string message;
    if (errs.size() == 1) {
      message = errs[0].message();
    } else {
      message = "[";
      for (std::size_t i = 0; i < errs.size(); ++i)
        message += (i > 0 ? ", " : "") + errs[i].message();
      message += "]";
    }
    api::Status status;
    status.message = std::move(message);
    status.code = 500;
    return fail(std::move(status));
  }
  return {};
}

Result<json::object, api::Status> bind_pod(const json::object& pod, const json::object& binding,
                                           std::string_view now) {
  const std::string name = api::metadata_string(pod, "name");
  // Preconditions carried by the Binding's metadata.
  const std::string want_uid = api::metadata_string(binding, "uid");
  if (!want_uid.empty() && want_uid != api::metadata_string(pod, "uid")) {
    return fail(api::conflict({"", "pods"}, name,
                              fmt::format("Precondition failed: UID in precondition: {}, UID in "
                                          "object meta: {}",
                                          want_uid, api::metadata_string(pod, "uid"))));
  }
  const std::string want_rv = api::metadata_string(binding, "resourceVersion");
  if (!want_rv.empty() && want_rv != api::metadata_string(pod, "resourceVersion")) {
    return fail(api::conflict({"", "pods"}, name,
                              fmt::format("Precondition failed: ResourceVersion in precondition: "
                                          "{}, ResourceVersion in object meta: {}",
                                          want_rv, api::metadata_string(pod, "resourceVersion"))));
  }
  const json::object* meta = api::find_object(pod, "metadata");
  if (meta != nullptr) {
    const json::value* ts = meta->if_contains("deletionTimestamp");
    if (ts != nullptr && !ts->is_null()) {
      return fail(binding_conflict(
          name, fmt::format("pod {} is being deleted, cannot be assigned to a host", name)));
    }
  }
  json::object next = pod;
  json::object& spec = api::ensure_object(next, "spec");
  const std::string bound(api::find_string(spec, "nodeName").value_or(""));
  if (!bound.empty()) {
    return fail(binding_conflict(
        name, fmt::format("pod {} is already assigned to node {}", name, api::go_quote(bound))));
  }
  if (const json::array* gates = api::find_array(spec, "schedulingGates");
      gates && !gates->empty()) {
    return fail(
        binding_conflict(name, fmt::format("pod {} has non-empty .spec.schedulingGates", name)));
  }
  const json::object* target = api::find_object(binding, "target");
  spec["nodeName"] = target ? api::find_string(*target, "name").value_or("") : "";
  if (const json::object* bm = api::find_object(binding, "metadata")) {
    if (const json::object* annotations = api::find_object(*bm, "annotations");
        annotations && !annotations->empty()) {
      json::object& into = api::ensure_object(api::ensure_object(next, "metadata"), "annotations");
      for (const auto& kv : *annotations)
        into[kv.key()] = kv.value();
    }
  }
  // UpdatePodCondition: PodScheduled=True replaces any earlier verdict; the
  // transition time moves only when the status changes.
  json::object& status = api::ensure_object(next, "status");
  json::array conditions;
  bool found = false;
  if (const json::array* c = api::find_array(status, "conditions")) conditions = *c;
  for (auto& c : conditions) {
    if (!c.is_object() || api::find_string(c.get_object(), "type") != "PodScheduled") continue;
    found = true;
    json::object& old = c.get_object();
    const bool same = api::find_string(old, "status") == "True";
    json::object updated{{"type", "PodScheduled"},
                         {"status", "True"},
                         {"lastProbeTime", nullptr},
                         {"lastTransitionTime", same && old.contains("lastTransitionTime")
                                                    ? old.at("lastTransitionTime")
                                                    : json::value(now)}};
    old = std::move(updated);
  }
  if (!found) {
    conditions.push_back(json::object{{"type", "PodScheduled"},
                                      {"status", "True"},
                                      {"lastProbeTime", nullptr},
                                      {"lastTransitionTime", now}});
  }
  status["conditions"] = std::move(conditions);
  return next;
}

void create_pod_binding(RestStore& rest, const ResourceInfo& pods, std::string_view ns,
                        std::string_view name, const json::object& binding,
                        const WriteOptions& options, WriteDone done) {
  if (auto ok = check_pod_binding(ns, name, binding); !ok) {
    done(fail(ok.error()));
    return;
  }
  auto shared = std::make_shared<const json::object>(binding);
  rest.update_with(
      pods, ns, name, Subresource::kSystem,
      [shared](const json::object& current) -> Result<json::object, api::Status> {
        return bind_pod(current, *shared, rfc3339_now());
      },
      options,
      [done = std::move(done)](Result<WriteResult, api::Status> result) {
        if (result) {
          result->code = 201;
          result->body = api::Status::success().to_json();
        }
        done(std::move(result));
      });
}

}  // namespace kcm::local::apiserver
