#include "app/controller_names.h"

#include <fmt/format.h>

#include <algorithm>

namespace kcm::app {

const std::vector<ControllerName>& known_controllers() {
  static const std::vector<ControllerName> names = [] {
    std::vector<ControllerName> v = {
        {"serviceaccount-token-controller", {"serviceaccount-token"}},
        {"endpoints-controller", {"endpoint"}},
        {"endpointslice-controller", {"endpointslice"}},
        {"endpointslice-mirroring-controller", {"endpointslicemirroring"}},
        {"replicationcontroller-controller", {"replicationcontroller"}},
        {"pod-garbage-collector-controller", {"podgc"}},
        {"resourcequota-controller", {"resourcequota"}},
        {"namespace-controller", {"namespace"}},
        {"serviceaccount-controller", {"serviceaccount"}},
        {"garbage-collector-controller", {"garbagecollector"}},
        {"daemonset-controller", {"daemonset"}},
        {"job-controller", {"job"}},
        {"deployment-controller", {"deployment"}},
        {"replicaset-controller", {"replicaset"}},
        {"horizontal-pod-autoscaler-controller", {"horizontalpodautoscaling"}},
        {"disruption-controller", {"disruption"}},
        {"statefulset-controller", {"statefulset"}},
        {"cronjob-controller", {"cronjob"}},
        {"certificatesigningrequest-signing-controller", {"csrsigning"}},
        {"certificatesigningrequest-approving-controller", {"csrapproving"}},
        {"certificatesigningrequest-cleaner-controller", {"csrcleaner"}},
        {"podcertificaterequest-cleaner-controller", {}},
        {"ttl-controller", {"ttl"}},
        {"bootstrap-signer-controller", {"bootstrapsigner"}, true},
        {"token-cleaner-controller", {"tokencleaner"}, true},
        {"node-ipam-controller", {"nodeipam"}},
        {"node-lifecycle-controller", {"nodelifecycle"}},
        {"service-lb-controller", {"service"}},
        {"node-route-controller", {"route"}},
        {"cloud-node-lifecycle-controller", {"cloud-node-lifecycle"}},
        {"persistentvolume-binder-controller", {"persistentvolume-binder"}},
        {"persistentvolume-attach-detach-controller", {"attachdetach"}},
        {"persistentvolume-expander-controller", {"persistentvolume-expander"}},
        {"clusterrole-aggregation-controller", {"clusterrole-aggregation"}},
        {"persistentvolumeclaim-protection-controller", {"pvc-protection"}},
        {"persistentvolume-protection-controller", {"pv-protection"}},
        {"volumeattributesclass-protection-controller", {}},
        {"ttl-after-finished-controller", {"ttl-after-finished"}},
        {"root-ca-certificate-publisher-controller", {"root-ca-cert-publisher"}},
        {"kube-apiserver-serving-clustertrustbundle-publisher-controller", {}},
        {"ephemeral-volume-controller", {"ephemeral-volume"}},
        {"storageversion-garbage-collector-controller", {"storage-version-gc"}},
        {"resourceclaim-controller", {"resource-claim-controller"}},
        {"device-taint-eviction-controller", {}},
        {"legacy-serviceaccount-token-cleaner-controller",
         {"legacy-service-account-token-cleaner"}},
        {"validatingadmissionpolicy-status-controller", {}},
        {"taint-eviction-controller", {}},
        {"service-cidr-controller", {}},
        {"storage-version-migrator-controller", {"svm"}},
        {"selinux-warning-controller", {}, true},
        // kcm's own example controller (examples/pod-counter), off unless named.
        {"pod-counter-controller", {}, true},
    };
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return v;
  }();
  return names;
}

namespace {

const ControllerName* lookup(std::string_view name_or_alias) {
  for (const ControllerName& c : known_controllers()) {
    if (c.name == name_or_alias) return &c;
    if (std::find(c.aliases.begin(), c.aliases.end(), name_or_alias) != c.aliases.end()) return &c;
  }
  return nullptr;
}

}  // namespace

Result<std::vector<std::string>> resolve_controllers(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  out.reserve(entries.size());
  for (const std::string& entry : entries) {
    if (entry == "*") {
      out.push_back(entry);
      continue;
    }
    const bool disable = entry.starts_with('-');
    const std::string_view name = disable ? std::string_view(entry).substr(1) : entry;
    const ControllerName* c = lookup(name);
    if (c == nullptr) {
      return fail(fmt::format("\"{}\" is not in the list of known controllers", name));
    }
    out.push_back((disable ? "-" : "") + std::string(c->name));
  }
  return out;
}

bool is_controller_enabled(std::string_view name, const std::vector<std::string>& resolved) {
  bool star = false;
  for (const std::string& entry : resolved) {
    if (entry == name) return true;
    if (entry.starts_with('-') && std::string_view(entry).substr(1) == name) return false;
    if (entry == "*") star = true;
  }
  if (!star) return false;
  const ControllerName* c = lookup(name);
  return c != nullptr && !c->disabled_by_default;
}

std::string controllers_flag_usage() {
  std::string all;
  std::string disabled;
  for (const ControllerName& c : known_controllers()) {
    all += (all.empty() ? "" : ", ") + std::string(c.name);
    if (c.disabled_by_default) disabled += (disabled.empty() ? "" : ", ") + std::string(c.name);
  }
  return fmt::format(
      "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' "
      "enables the controller named 'foo', '-foo' disables the controller named 'foo'.\n"
      "All controllers: {}\nDisabled-by-default controllers: {}",
      all, disabled);
}

}  // namespace kcm::app
