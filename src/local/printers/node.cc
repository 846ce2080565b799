// Nodes: NAME STATUS ROLES AGE VERSION, wide INTERNAL-IP EXTERNAL-IP OS-IMAGE
// KERNEL-VERSION CONTAINER-RUNTIME (upstream printNode).
#include <set>
#include <string>

#include "local/printers/cells.h"
#include "local/printers/kinds.h"

namespace kcm::local::printers {

namespace {

constexpr std::string_view kAddressesDescription =
    "List of addresses reachable to the node. Queried from cloud provider, if available. More "
    "info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared "
    "as mergeable, but the merge key is not sufficiently unique, which can cause data corruption "
    "when it is merged. Callers should instead use a full-replacement patch. See "
    "https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change "
    "during the lifetime of a Node. However, there are some exceptions where this may not be "
    "possible, such as Pods that inherit a Node's address in its own status or consumers of the "
    "downward API (status.hostIP).";

constexpr ColumnDefinition kNodeColumns[] = {
    {"Name", "string", "name", kNameDescription, 0},
    {"Status", "string", "", "The status of the node", 0},
    {"Roles", "string", "", "The roles of the node", 0},
    {"Age", "string", "", kCreationTimestampDescription, 0},
    {"Version", "string", "", "Kubelet Version reported by the node.", 0},
    {"Internal-IP", "string", "", kAddressesDescription, 1},
    {"External-IP", "string", "", kAddressesDescription, 1},
    {"OS-Image", "string", "",
     "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", 1},
    {"Kernel-Version", "string", "",
     "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1},
    {"Container-Runtime", "string", "",
     "ContainerRuntime Version reported by the node through runtime remote API (e.g. "
     "containerd://1.4.2).",
     1},
};

constexpr std::string_view kRoleLabelPrefix = "node-role.kubernetes.io/";
constexpr std::string_view kRoleLabel = "kubernetes.io/role";

// Ready, NotReady (any status but True) or Unknown (no Ready condition), then
// SchedulingDisabled for a cordoned node.
std::string node_status(const json::object* spec, const json::object* status) {
  std::string out;
  // Later conditions of the same type win, as upstream's map does.
  const json::object* ready = nullptr;
  if (const json::array* conditions = array_at(status, "conditions")) {
    for (const json::value& v : *conditions) {
      const json::object* c = v.if_object();
      if (c != nullptr && string_at(c, "type") == "Ready") ready = c;
    }
  }
  if (ready == nullptr) {
    out = "Unknown";
  } else {
    out = string_at(ready, "status") == "True" ? "Ready" : "NotReady";
  }
  if (bool_at(spec, "unschedulable")) out += ",SchedulingDisabled";
  return out;
}

// upstream findNodeRoles: node-role.kubernetes.io/<role> keys and the value of
// kubernetes.io/role, sorted and deduplicated.
std::string node_roles(const json::object* metadata) {
  std::set<std::string, std::less<>> roles;
  if (const json::object* labels = object_at(metadata, "labels")) {
    for (const auto& [key, value] : *labels) {
      const std::string_view k(key.data(), key.size());
      if (k.starts_with(kRoleLabelPrefix)) {
        if (k.size() > kRoleLabelPrefix.size()) roles.emplace(k.substr(kRoleLabelPrefix.size()));
      } else if (k == kRoleLabel) {
        const std::string_view role = api::as_string_view(&value);
        if (!role.empty()) roles.emplace(role);
      }
    }
  }
  if (roles.empty()) return "<none>";
  std::string out;
  for (const std::string& role : roles) {
    if (!out.empty()) out += ',';
    out += role;
  }
  return out;
}

// The first address of `type`, or "<none>".
std::string address_of(const json::object* status, std::string_view type) {
  if (const json::array* addresses = array_at(status, "addresses")) {
    for (const json::value& v : *addresses) {
      const json::object* a = v.if_object();
      if (string_at(a, "type") == type) return std::string(string_at(a, "address"));
    }
  }
  return "<none>";
}

std::string or_unknown(std::string_view s) {
  return s.empty() ? std::string("<unknown>") : std::string(s);
}

Row print_node(const json::object& node, const PrintContext& context) {
  const json::object* metadata = api::find_object(node, "metadata");
  const json::object* spec = api::find_object(node, "spec");
  const json::object* status = api::find_object(node, "status");
  const json::object* info = object_at(status, "nodeInfo");

  Row row;
  row.cells.emplace_back(object_name(node));
  row.cells.emplace_back(node_status(spec, status));
  row.cells.emplace_back(node_roles(metadata));
  row.cells.emplace_back(creation_age(node, context.now));
  row.cells.emplace_back(string_at(info, "kubeletVersion"));
  if (context.wide) {
    row.cells.emplace_back(address_of(status, "InternalIP"));
    row.cells.emplace_back(address_of(status, "ExternalIP"));
    row.cells.emplace_back(or_unknown(string_at(info, "osImage")));
    row.cells.emplace_back(or_unknown(string_at(info, "kernelVersion")));
    row.cells.emplace_back(or_unknown(string_at(info, "containerRuntimeVersion")));
  }
  return row;
}

}  // namespace

const TablePrinter& node_printer() {
  static constexpr TablePrinter kPrinter{kNodeColumns, &print_node};
  return kPrinter;
}

}  // namespace kcm::local::printers
