#include "local/registry/pod_defaults.h"

#include <array>
#include <functional>
#include <map>
#include <string>

#include "api/quantity.h"
#include "local/registry/field_access.h"
#include "local/registry/image_reference.h"
#include "local/registry/pod_conversion.h"
#include "local/registry/resource_list_defaults.h"
#include "local/registry/resource_names.h"

namespace kcm::local::registry {
namespace {

// Every member of a v1 VolumeSource; a volume with none of them is an emptyDir.
constexpr std::array<std::string_view, 30> kVolumeSources = {"hostPath",
                                                             "emptyDir",
                                                             "gcePersistentDisk",
                                                             "awsElasticBlockStore",
                                                             "gitRepo",
                                                             "secret",
                                                             "nfs",
                                                             "iscsi",
                                                             "glusterfs",
                                                             "persistentVolumeClaim",
                                                             "rbd",
                                                             "flexVolume",
                                                             "cinder",
                                                             "cephfs",
                                                             "flocker",
                                                             "downwardAPI",
                                                             "fc",
                                                             "azureFile",
                                                             "configMap",
                                                             "vsphereVolume",
                                                             "quobyte",
                                                             "azureDisk",
                                                             "photonPersistentDisk",
                                                             "projected",
                                                             "portworxVolume",
                                                             "scaleIO",
                                                             "storageos",
                                                             "csi",
                                                             "ephemeral",
                                                             "image"};

constexpr std::int64_t kDefaultMode = 0644;  // 420: Secret, ConfigMap, DownwardAPI, Projected

void default_field_ref(json::object& holder) {
  if (json::object* ref = mutable_object_member(holder, "fieldRef")) {
    set_if_empty_string(*ref, "apiVersion", "v1");
  }
  if (json::object* ref = mutable_object_member(holder, "resourceFieldRef")) {
    canonicalize_quantity_member(*ref, "divisor");
  }
}

void default_downward_api_items(json::object& source) {
  if (json::array* items = mutable_array_member(source, "items")) {
    for (auto& item : *items) {
      if (json::object* o = item.if_object()) default_field_ref(*o);
    }
  }
}

void default_volume(json::object& vol) {
  bool any = false;
  for (std::string_view key : kVolumeSources)
    any = any || has(vol, key);
  if (!any) vol["emptyDir"] = json::object();
  if (json::object* e = mutable_object_member(vol, "emptyDir")) {
    canonicalize_quantity_member(*e, "sizeLimit");
  }

  if (json::object* hp = mutable_object_member(vol, "hostPath")) set_if_unset(*hp, "type", "");
  if (json::object* s = mutable_object_member(vol, "secret")) {
    set_if_unset(*s, "defaultMode", kDefaultMode);
  }
  if (json::object* s = mutable_object_member(vol, "iscsi")) {
    set_if_empty_string(*s, "iscsiInterface", "default");
  }
  if (json::object* s = mutable_object_member(vol, "rbd")) {
    set_if_empty_string(*s, "pool", "rbd");
    set_if_empty_string(*s, "user", "admin");
    set_if_empty_string(*s, "keyring", "/etc/ceph/keyring");
  }
  if (json::object* s = mutable_object_member(vol, "downwardAPI")) {
    set_if_unset(*s, "defaultMode", kDefaultMode);
    default_downward_api_items(*s);
  }
  if (json::object* s = mutable_object_member(vol, "configMap")) {
    set_if_unset(*s, "defaultMode", kDefaultMode);
  }
  if (json::object* s = mutable_object_member(vol, "azureDisk")) {
    set_if_unset(*s, "cachingMode", "ReadWrite");
    set_if_unset(*s, "kind", "Shared");
    set_if_unset(*s, "fsType", "ext4");
    set_if_unset(*s, "readOnly", false);
  }
  if (json::object* s = mutable_object_member(vol, "projected")) {
    set_if_unset(*s, "defaultMode", kDefaultMode);
    if (json::array* sources = mutable_array_member(*s, "sources")) {
      for (auto& src : *sources) {
        json::object* o = src.if_object();
        if (o == nullptr) continue;
        if (json::object* d = mutable_object_member(*o, "downwardAPI")) {
          default_downward_api_items(*d);
        }
        if (json::object* t = mutable_object_member(*o, "serviceAccountToken")) {
          set_if_unset(*t, "expirationSeconds", 3600);
        }
      }
    }
  }
  if (json::object* s = mutable_object_member(vol, "scaleIO")) {
    set_if_empty_string(*s, "storageMode", "ThinProvisioned");
    set_if_empty_string(*s, "fsType", "xfs");
  }
  if (json::object* e = mutable_object_member(vol, "ephemeral")) {
    if (json::object* t = mutable_object_member(*e, "volumeClaimTemplate")) {
      json::object& spec = object_at(*t, "spec");
      set_if_unset(spec, "volumeMode", "Filesystem");
      if (json::object* res = mutable_object_member(spec, "resources")) {
        canonicalize_resource_list_member(*res, "limits");
        canonicalize_resource_list_member(*res, "requests");
      }
    }
  }
  if (json::object* img = mutable_object_member(vol, "image")) {
    if (string_member(*img, "pullPolicy").empty()) {
      (*img)["pullPolicy"] = default_pull_policy(string_member(*img, "reference"));
    }
  }
}

void default_http_get(json::object& handler) {
  if (json::object* http = mutable_object_member(handler, "httpGet")) {
    set_if_empty_string(*http, "path", "/");
    set_if_empty_string(*http, "scheme", "HTTP");
  }
}

void default_probe(json::object& container, std::string_view key) {
  json::object* probe = mutable_object_member(container, key);
  if (probe == nullptr) return;
  set_if_zero(*probe, "timeoutSeconds", 1);
  set_if_zero(*probe, "periodSeconds", 10);
  set_if_zero(*probe, "successThreshold", 1);
  set_if_zero(*probe, "failureThreshold", 3);
  default_http_get(*probe);
  if (json::object* grpc = mutable_object_member(*probe, "grpc"))
    set_if_unset(*grpc, "service", "");
}

void default_container(json::object& c) {
  if (string_member(c, "imagePullPolicy").empty()) {
    c["imagePullPolicy"] = default_pull_policy(string_member(c, "image"));
  }
  set_if_empty_string(c, "terminationMessagePath", "/dev/termination-log");
  set_if_empty_string(c, "terminationMessagePolicy", "File");
  if (json::array* ports = mutable_array_member(c, "ports")) {
    for (auto& p : *ports) {
      if (json::object* port = p.if_object()) set_if_empty_string(*port, "protocol", "TCP");
    }
  }
  if (json::array* env = mutable_array_member(c, "env")) {
    for (auto& e : *env) {
      json::object* var = e.if_object();
      if (var == nullptr) continue;
      if (json::object* from = mutable_object_member(*var, "valueFrom")) default_field_ref(*from);
    }
  }
  // ResourceRequirements is a struct upstream: always written, even empty.
  json::object& resources = object_at(c, "resources");
  canonicalize_resource_list_member(resources, "limits");
  canonicalize_resource_list_member(resources, "requests");
  default_probe(c, "livenessProbe");
  default_probe(c, "readinessProbe");
  default_probe(c, "startupProbe");
  if (json::object* lifecycle = mutable_object_member(c, "lifecycle")) {
    for (std::string_view hook : {"postStart", "preStop"}) {
      if (json::object* h = mutable_object_member(*lifecycle, hook)) default_http_get(*h);
    }
  }
}

void for_each_object(json::object& o, std::string_view key,
                     const std::function<void(json::object&)>& fn) {
  if (json::array* a = mutable_array_member(o, key)) {
    for (auto& v : *a) {
      if (json::object* item = v.if_object()) fn(*item);
    }
  }
}

// --- Pod-only defaults (SetDefaults_Pod) ---

void default_requests_from_limits(json::object& spec, std::string_view key) {
  for_each_object(spec, key, [](json::object& c) {
    json::object* resources = mutable_object_member(c, "resources");
    const json::object* limits = resources ? object_member(*resources, "limits") : nullptr;
    if (limits == nullptr || limits->empty()) return;
    const json::object limits_copy = *limits;  // object_at may move members
    json::object& requests = object_at(*resources, "requests");
    for (const auto& kv : limits_copy) {
      if (!requests.contains(kv.key())) requests[kv.key()] = kv.value();
    }
  });
}

using ResourceMap = std::map<std::string, api::Quantity>;

void add_list(ResourceMap& into, const json::object* list) {
  if (list == nullptr) return;
  for (const auto& kv : *list) {
    auto q = api::Quantity::from_json(kv.value());
    if (!q) continue;
    auto [it, inserted] = into.try_emplace(std::string(kv.key()), *q);
    if (!inserted) it->second.add(*q);
  }
}

void add_map(ResourceMap& into, const ResourceMap& from) {
  for (const auto& [k, q] : from) {
    auto [it, inserted] = into.try_emplace(k, q);
    if (!inserted) it->second.add(q);
  }
}

void max_map(ResourceMap& into, const ResourceMap& from) {
  for (const auto& [k, q] : from) {
    auto [it, inserted] = into.try_emplace(k, q);
    if (!inserted && q.cmp(it->second) > 0) it->second = q;
  }
}

const json::object* container_list(const json::object& c, std::string_view which) {
  const json::object* resources = object_member(c, "resources");
  return resources != nullptr ? object_member(*resources, which) : nullptr;
}

// component-helpers' AggregateContainerRequests/Limits: regular and sidecar
// containers add up; each init container counts with the sidecars before it.
ResourceMap aggregate_containers(const json::object& spec, std::string_view which) {
  ResourceMap total;
  if (const json::array* cs = array_member(spec, "containers")) {
    for (const auto& v : *cs) {
      if (const json::object* c = v.if_object()) add_list(total, container_list(*c, which));
    }
  }
  ResourceMap sidecars, init_max;
  if (const json::array* cs = array_member(spec, "initContainers")) {
    for (const auto& v : *cs) {
      const json::object* c = v.if_object();
      if (c == nullptr) continue;
      ResourceMap own;
      add_list(own, container_list(*c, which));
      if (string_member(*c, "restartPolicy") == "Always") {
        add_map(total, own);
        add_map(sidecars, own);
        max_map(init_max, sidecars);
      } else {
        add_map(own, sidecars);
        max_map(init_max, own);
      }
    }
  }
  max_map(total, init_max);
  return total;
}

bool all_containers_have_limit(const json::object& spec, const std::string& name) {
  for (std::string_view key : {"containers", "initContainers"}) {
    if (const json::array* cs = array_member(spec, key)) {
      for (const auto& v : *cs) {
        const json::object* c = v.if_object();
        const json::object* limits = c != nullptr ? container_list(*c, "limits") : nullptr;
        if (limits == nullptr || !has(*limits, name)) return false;
      }
    }
  }
  return true;
}

bool has_supported(const json::object* list) {
  if (list == nullptr) return false;
  for (const auto& kv : *list) {
    if (is_qos_compute_resource(kv.key())) return true;
  }
  return false;
}

// defaultPodRequests and defaultPodLimits (PodLevelResources) for cpu and memory.
void default_pod_level_resources(json::object& spec) {
  json::object* resources = mutable_object_member(spec, "resources");
  if (resources == nullptr) return;
  const json::object* limits = object_member(*resources, "limits");
  if (limits != nullptr && !limits->empty()) {
    json::object requests = object_member(*resources, "requests") != nullptr
                                ? *object_member(*resources, "requests")
                                : json::object();
    for (const auto& [name, q] : aggregate_containers(spec, "requests")) {
      if (!requests.contains(name) && is_qos_compute_resource(name)) requests[name] = q.to_json();
    }
    for (const auto& kv : *limits) {
      if (!requests.contains(kv.key()) && is_qos_compute_resource(kv.key())) {
        requests[kv.key()] = kv.value();
      }
    }
    if (!requests.empty()) (*resources)["requests"] = std::move(requests);
  }
  if (has_supported(object_member(*resources, "limits")) ||
      !has_supported(object_member(*resources, "requests"))) {
    return;
  }
  json::object pod_limits = object_member(*resources, "limits") != nullptr
                                ? *object_member(*resources, "limits")
                                : json::object();
  for (const auto& [name, q] : aggregate_containers(spec, "limits")) {
    if (pod_limits.contains(name) || !is_qos_compute_resource(name)) continue;
    if (!all_containers_have_limit(spec, name)) continue;
    pod_limits[name] = q.to_json();
  }
  if (!pod_limits.empty()) (*resources)["limits"] = std::move(pod_limits);
}

void default_host_network_ports(json::object& spec) {
  if (!bool_member(spec, "hostNetwork")) return;
  for (std::string_view key : {"containers", "initContainers"}) {
    for_each_object(spec, key, [](json::object& c) {
      for_each_object(c, "ports", [](json::object& p) {
        if (int_member(p, "hostPort").value_or(0) == 0) {
          p["hostPort"] = int_member(p, "containerPort").value_or(0);
        }
      });
    });
  }
}

}  // namespace

void apply_pod_spec_defaults(json::object& spec) {
  set_if_empty_string(spec, "dnsPolicy", "ClusterFirst");
  set_if_empty_string(spec, "restartPolicy", "Always");
  set_if_unset(spec, "securityContext", json::object());
  set_if_unset(spec, "terminationGracePeriodSeconds", 30);
  set_if_empty_string(spec, "schedulerName", "default-scheduler");
  normalize_service_account_alias(spec);
  for_each_object(spec, "volumes", default_volume);
  for (std::string_view key : {"initContainers", "containers", "ephemeralContainers"}) {
    for_each_object(spec, key, default_container);
  }
  canonicalize_resource_list_member(spec, "overhead");
  if (json::object* resources = mutable_object_member(spec, "resources")) {
    canonicalize_resource_list_member(*resources, "limits");
    canonicalize_resource_list_member(*resources, "requests");
  }
}

void apply_pod_template_defaults(json::object& tmpl) {
  // ObjectMeta is a struct in PodTemplateSpec: always written, and a zero
  // creationTimestamp is omitted (clients such as kubectl send it as null).
  json::object& meta = object_at(tmpl, "metadata");
  if (const json::value* ct = meta.if_contains("creationTimestamp"); ct && ct->is_null()) {
    meta.erase("creationTimestamp");
  }
  apply_pod_spec_defaults(object_at(tmpl, "spec"));
}

void apply_pod_defaults(json::object& pod) {
  json::object& spec = object_at(pod, "spec");
  default_requests_from_limits(spec, "containers");
  default_requests_from_limits(spec, "initContainers");
  default_pod_level_resources(spec);
  set_if_unset(spec, "enableServiceLinks", true);
  default_host_network_ports(spec);
  apply_pod_spec_defaults(spec);
  if (json::object* status = mutable_object_member(pod, "status")) normalize_status_ips(*status);
}

}  // namespace kcm::local::registry
