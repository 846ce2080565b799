#include "local/cluster/node_objects.h"

#include <gtest/gtest.h>

namespace kcm::local::cluster {
namespace {

using std::chrono::system_clock;

const json::object& obj(const json::value& v) {
  return v.as_object();
}

TEST(SimulatedNode, NamesAddressesAndCidrs) {
  const SimulatedNode one = SimulatedNode::make(1);
  EXPECT_EQ(one.name, "kcm-local-node-1");
  EXPECT_TRUE(one.control_plane);
  EXPECT_EQ(one.internal_ip, "172.18.0.2");
  EXPECT_EQ(one.pod_cidr, "10.244.0.0/24");
  const SimulatedNode three = SimulatedNode::make(3);
  EXPECT_EQ(three.name, "kcm-local-node-3");
  EXPECT_FALSE(three.control_plane);
  EXPECT_EQ(three.internal_ip, "172.18.0.4");
  EXPECT_EQ(three.pod_cidr, "10.244.2.0/24");
  EXPECT_EQ(SimulatedNode::make(200).internal_ip, "172.18.0.201");
}

TEST(BuildNode, HasKubeletLabelsAndUpstreamShapedStatus) {
  const auto now = system_clock::time_point(std::chrono::seconds(1'700'000'000));
  const json::object node = build_node(SimulatedNode::make(1), {"v1.32.4", "boot"}, now);
  const json::object& labels = obj(node.at("metadata").at("labels"));
  EXPECT_EQ(labels.at("kubernetes.io/hostname"), "kcm-local-node-1");
  EXPECT_EQ(labels.at("kubernetes.io/os"), "linux");
  EXPECT_EQ(labels.at("kubernetes.io/arch"), "amd64");
  EXPECT_EQ(labels.at("node-role.kubernetes.io/control-plane"), "");
  EXPECT_FALSE(build_node(SimulatedNode::make(2), {}, now)
                   .at("metadata")
                   .at("labels")
                   .as_object()
                   .contains("node-role.kubernetes.io/control-plane"));

  const json::object& status = obj(node.at("status"));
  const json::array& conditions = status.at("conditions").as_array();
  ASSERT_EQ(conditions.size(), 4u);
  const std::vector<std::vector<std::string>> want = {
      {"MemoryPressure", "False", "KubeletHasSufficientMemory",
       "kubelet has sufficient memory available"},
      {"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
      {"PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
      {"Ready", "True", "KubeletReady", "kubelet is posting ready status"}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    const json::object& c = obj(conditions[i]);
    EXPECT_EQ(c.at("type"), want[i][0].c_str());
    EXPECT_EQ(c.at("status"), want[i][1].c_str());
    EXPECT_EQ(c.at("reason"), want[i][2].c_str());
    EXPECT_EQ(c.at("message"), want[i][3].c_str());
    EXPECT_EQ(c.at("lastHeartbeatTime"), "2023-11-14T22:13:20Z");
    EXPECT_EQ(c.at("lastTransitionTime"), "2023-11-14T22:13:20Z");
  }
  for (const char* list : {"capacity", "allocatable"}) {
    const json::object& r = obj(status.at(list));
    for (const char* name : {"cpu", "memory", "pods", "ephemeral-storage"})
      EXPECT_TRUE(r.contains(name)) << list << " " << name;
  }
  const json::array& addresses = status.at("addresses").as_array();
  ASSERT_EQ(addresses.size(), 2u);
  EXPECT_EQ(obj(addresses[0]).at("type"), "InternalIP");
  EXPECT_EQ(obj(addresses[0]).at("address"), "172.18.0.2");
  EXPECT_EQ(obj(addresses[1]).at("type"), "Hostname");
  EXPECT_EQ(status.at("daemonEndpoints").at("kubeletEndpoint").at("Port"), 10250);
  const json::object& info = obj(status.at("nodeInfo"));
  EXPECT_EQ(info.at("kubeletVersion"), "v1.32.4");
  EXPECT_EQ(info.at("operatingSystem"), "linux");
  EXPECT_EQ(info.at("architecture"), "amd64");
  EXPECT_EQ(info.at("bootID"), "boot");
  EXPECT_EQ(info.at("machineID").as_string().size(), 32u);
  EXPECT_EQ(node.at("spec").at("podCIDR"), "10.244.0.0/24");
}

TEST(BuildNodeStatus, KeepsTransitionTimesWhileUnchanged) {
  const auto then = system_clock::time_point(std::chrono::seconds(1'700'000'000));
  const auto now = then + std::chrono::minutes(5);
  const SimulatedNode n = SimulatedNode::make(2);
  json::object old = build_node_status(n, {}, nullptr, then);
  // Ready was False before: its transition moves, the others stay.
  old.at("conditions").as_array()[3].as_object()["status"] = "False";
  const json::object status = build_node_status(n, {}, &old, now);
  const json::array& c = status.at("conditions").as_array();
  EXPECT_EQ(c[0].at("lastTransitionTime"), "2023-11-14T22:13:20Z");
  EXPECT_EQ(c[0].at("lastHeartbeatTime"), "2023-11-14T22:18:20Z");
  EXPECT_EQ(c[3].at("lastTransitionTime"), "2023-11-14T22:18:20Z");
}

TEST(BuildNodeLease, IsOwnedByTheNode) {
  const auto now = system_clock::time_point(std::chrono::microseconds(1'700'000'000'123'456));
  const json::object lease = build_node_lease("kcm-local-node-1", "uid-1", 40, now);
  EXPECT_EQ(lease.at("apiVersion"), "coordination.k8s.io/v1");
  EXPECT_EQ(lease.at("metadata").at("namespace"), "kube-node-lease");
  EXPECT_EQ(lease.at("metadata").at("name"), "kcm-local-node-1");
  const json::object& owner = obj(lease.at("metadata").at("ownerReferences").as_array()[0]);
  EXPECT_EQ(owner.at("kind"), "Node");
  EXPECT_EQ(owner.at("apiVersion"), "v1");
  EXPECT_EQ(owner.at("uid"), "uid-1");
  EXPECT_EQ(lease.at("spec").at("holderIdentity"), "kcm-local-node-1");
  EXPECT_EQ(lease.at("spec").at("leaseDurationSeconds"), 40);
  EXPECT_EQ(lease.at("spec").at("renewTime"), "2023-11-14T22:13:20.123456Z");
}

}  // namespace
}  // namespace kcm::local::cluster
