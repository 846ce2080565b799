#include "local/cluster/node_objects.h"

#include <fmt/format.h>
#include <sys/utsname.h>

#include "api/time.h"
#include "local/cluster/fake_ids.h"

namespace kcm::local::cluster {
namespace {

struct ConditionSpec {
  const char* type;
  const char* status;
  const char* reason;
  const char* message;
};

// kubelet's four standard node conditions in the order it reports them.
constexpr ConditionSpec kConditions[] = {
    {"MemoryPressure", "False", "KubeletHasSufficientMemory",
     "kubelet has sufficient memory available"},
    {"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
    {"PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
    {"Ready", "True", "KubeletReady", "kubelet is posting ready status"},
};

std::string kernel_version() {
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  return u.release;
}

// The capacity (and allocatable) every simulated node reports.
json::object simulated_capacity() {
  return json::object{{"cpu", "4"},           {"ephemeral-storage", "102625208Ki"},
                      {"hugepages-1Gi", "0"}, {"hugepages-2Mi", "0"},
                      {"memory", "8Gi"},      {"pods", "110"}};
}

const json::object* old_condition(const json::object* old_status, std::string_view type) {
  if (old_status == nullptr) return nullptr;
  const json::array* conditions = api::find_array(*old_status, "conditions");
  if (conditions == nullptr) return nullptr;
  for (const auto& c : *conditions) {
    if (c.is_object() && api::find_string(c.get_object(), "type") == type) return &c.get_object();
  }
  return nullptr;
}

}  // namespace

std::string format_time(std::chrono::system_clock::time_point t) {
  return api::Time(t).to_string();
}

std::string format_micro_time(std::chrono::system_clock::time_point t) {
  return api::MicroTime(t).to_string();
}

SimulatedNode SimulatedNode::make(int index) {
  SimulatedNode n;
  n.index = index;
  n.name = fmt::format("{}{}", kNodeNamePrefix, index);
  n.control_plane = index == 1;
  n.internal_ip = fmt::format("172.18.{}.{}", (index + 1) / 256, (index + 1) % 256);
  n.pod_cidr = fmt::format("10.244.{}.0/24", index - 1);
  return n;
}

json::object build_node_status(const SimulatedNode& node, const NodeInfoOptions& info,
                               const json::object* old_status,
                               std::chrono::system_clock::time_point now) {
  const std::string now_text = format_time(now);
  json::array conditions;
  for (const auto& spec : kConditions) {
    std::string transition = now_text;
    if (const json::object* old = old_condition(old_status, spec.type)) {
      if (api::find_string(*old, "status") == spec.status) {
        transition = std::string(api::find_string(*old, "lastTransitionTime").value_or(now_text));
      }
    }
    conditions.push_back(json::object{{"type", spec.type},
                                      {"status", spec.status},
                                      {"lastHeartbeatTime", now_text},
                                      {"lastTransitionTime", transition},
                                      {"reason", spec.reason},
                                      {"message", spec.message}});
  }
  json::object node_info{
      {"machineID", hex_from("machine-id/" + node.name, 32)},
      {"systemUUID", uuid_from("system-uuid/" + node.name)},
      {"bootID", info.boot_id.empty() ? uuid_from("boot-id/" + node.name) : info.boot_id},
      {"kernelVersion", kernel_version()},
      {"osImage", "Debian GNU/Linux 12 (bookworm)"},
      {"containerRuntimeVersion", "containerd://1.7.24"},
      {"kubeletVersion", info.kubelet_version},
      {"kubeProxyVersion", ""},
      {"operatingSystem", "linux"},
      {"architecture", "amd64"},
  };
  return json::object{
      {"capacity", simulated_capacity()},
      {"allocatable", simulated_capacity()},
      {"conditions", std::move(conditions)},
      {"addresses", json::array{json::object{{"type", "InternalIP"}, {"address", node.internal_ip}},
                                json::object{{"type", "Hostname"}, {"address", node.name}}}},
      {"daemonEndpoints", json::object{{"kubeletEndpoint", json::object{{"Port", 10250}}}}},
      {"nodeInfo", std::move(node_info)},
  };
}

json::object build_node(const SimulatedNode& node, const NodeInfoOptions& info,
                        std::chrono::system_clock::time_point now) {
  json::object labels{{"beta.kubernetes.io/arch", "amd64"},
                      {"beta.kubernetes.io/os", "linux"},
                      {"kubernetes.io/arch", "amd64"},
                      {"kubernetes.io/hostname", node.name},
                      {"kubernetes.io/os", "linux"}};
  if (node.control_plane) labels["node-role.kubernetes.io/control-plane"] = "";
  return json::object{
      {"apiVersion", "v1"},
      {"kind", "Node"},
      {"metadata",
       json::object{
           {"name", node.name},
           {"labels", std::move(labels)},
           {"annotations",
            json::object{{"node.alpha.kubernetes.io/ttl", "0"},
                         {"volumes.kubernetes.io/controller-managed-attach-detach", "true"}}}}},
      {"spec", json::object{{"podCIDR", node.pod_cidr},
                            {"podCIDRs", json::array{json::value(node.pod_cidr)}},
                            {"providerID", "kcm-local://" + node.name}}},
      {"status", build_node_status(node, info, nullptr, now)},
  };
}

json::object build_node_lease(std::string_view node_name, std::string_view node_uid,
                              int lease_duration_seconds,
                              std::chrono::system_clock::time_point now) {
  json::object owner{{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node_name}};
  if (!node_uid.empty()) owner["uid"] = node_uid;
  return json::object{
      {"apiVersion", "coordination.k8s.io/v1"},
      {"kind", "Lease"},
      {"metadata", json::object{{"name", node_name},
                                {"namespace", kNodeLeaseNamespace},
                                {"ownerReferences", json::array{std::move(owner)}}}},
      {"spec", json::object{{"holderIdentity", node_name},
                            {"leaseDurationSeconds", lease_duration_seconds},
                            {"renewTime", format_micro_time(now)}}},
  };
}

}  // namespace kcm::local::cluster
