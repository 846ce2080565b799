#include "local/protobuf/go_fields.h"

#include <algorithm>
#include <array>
#include <string>

namespace kcm::local::protobuf {

namespace {

struct Override {
  std::string_view key;  // "<package>.<Type>.<json field>"
  GoPresence presence;
};

constexpr GoPresence P = GoPresence::kPointer;
constexpr GoPresence PN = GoPresence::kPointerOrNull;
constexpr GoPresence N = GoPresence::kAlways;
constexpr GoPresence O = GoPresence::kOmitEmpty;

// Sorted by key (checked once on first use).
constexpr std::array kOverrides = std::to_array<Override>({
    // apps/v1
    {"apps/v1.DeploymentSpec.progressDeadlineSeconds", P},
    {"apps/v1.DeploymentSpec.replicas", P},
    {"apps/v1.DeploymentSpec.revisionHistoryLimit", P},
    {"apps/v1.DeploymentSpec.selector", PN},
    {"apps/v1.DeploymentStatus.collisionCount", P},
    {"apps/v1.DeploymentStrategy.rollingUpdate", P},
    {"apps/v1.ReplicaSetSpec.replicas", P},
    {"apps/v1.ReplicaSetSpec.selector", PN},
    {"apps/v1.RollingUpdateDeployment.maxSurge", P},
    {"apps/v1.RollingUpdateDeployment.maxUnavailable", P},
    // coordination.k8s.io/v1
    {"coordination.k8s.io/v1.LeaseSpec.acquireTime", P},
    {"coordination.k8s.io/v1.LeaseSpec.holderIdentity", P},
    {"coordination.k8s.io/v1.LeaseSpec.leaseDurationSeconds", P},
    {"coordination.k8s.io/v1.LeaseSpec.leaseTransitions", P},
    {"coordination.k8s.io/v1.LeaseSpec.preferredHolder", P},
    {"coordination.k8s.io/v1.LeaseSpec.renewTime", P},
    {"coordination.k8s.io/v1.LeaseSpec.strategy", P},
    // core/v1
    {"core/v1.Affinity.nodeAffinity", P},
    {"core/v1.Affinity.podAffinity", P},
    {"core/v1.Affinity.podAntiAffinity", P},
    {"core/v1.AppArmorProfile.localhostProfile", P},
    {"core/v1.AzureDiskVolumeSource.cachingMode", P},
    {"core/v1.AzureDiskVolumeSource.fsType", P},
    {"core/v1.AzureDiskVolumeSource.kind", P},
    {"core/v1.AzureDiskVolumeSource.readOnly", P},
    {"core/v1.CSIVolumeSource.fsType", P},
    {"core/v1.CSIVolumeSource.nodePublishSecretRef", P},
    {"core/v1.CSIVolumeSource.readOnly", P},
    {"core/v1.CephFSVolumeSource.secretRef", P},
    {"core/v1.CinderVolumeSource.secretRef", P},
    {"core/v1.ClusterTrustBundleProjection.labelSelector", P},
    {"core/v1.ClusterTrustBundleProjection.name", P},
    {"core/v1.ClusterTrustBundleProjection.optional", P},
    {"core/v1.ClusterTrustBundleProjection.signerName", P},
    {"core/v1.ConfigMapEnvSource.optional", P},
    {"core/v1.ConfigMapKeySelector.optional", P},
    {"core/v1.ConfigMapProjection.optional", P},
    {"core/v1.ConfigMapVolumeSource.defaultMode", P},
    {"core/v1.ConfigMapVolumeSource.optional", P},
    {"core/v1.Container.lifecycle", P},
    {"core/v1.Container.livenessProbe", P},
    {"core/v1.Container.readinessProbe", P},
    {"core/v1.Container.restartPolicy", P},
    {"core/v1.Container.securityContext", P},
    {"core/v1.Container.startupProbe", P},
    {"core/v1.ContainerImage.names", N},
    {"core/v1.ContainerState.running", P},
    {"core/v1.ContainerState.terminated", P},
    {"core/v1.ContainerState.waiting", P},
    {"core/v1.ContainerStatus.resources", P},
    {"core/v1.ContainerStatus.started", P},
    {"core/v1.ContainerStatus.user", P},
    {"core/v1.ContainerUser.linux", P},
    {"core/v1.DownwardAPIVolumeFile.fieldRef", P},
    {"core/v1.DownwardAPIVolumeFile.mode", P},
    {"core/v1.DownwardAPIVolumeFile.resourceFieldRef", P},
    {"core/v1.DownwardAPIVolumeSource.defaultMode", P},
    {"core/v1.EmptyDirVolumeSource.sizeLimit", P},
    {"core/v1.EnvFromSource.configMapRef", P},
    {"core/v1.EnvFromSource.secretRef", P},
    {"core/v1.EnvVar.valueFrom", P},
    {"core/v1.EnvVarSource.configMapKeyRef", P},
    {"core/v1.EnvVarSource.fieldRef", P},
    {"core/v1.EnvVarSource.resourceFieldRef", P},
    {"core/v1.EnvVarSource.secretKeyRef", P},
    {"core/v1.EphemeralContainerCommon.lifecycle", P},
    {"core/v1.EphemeralContainerCommon.livenessProbe", P},
    {"core/v1.EphemeralContainerCommon.readinessProbe", P},
    {"core/v1.EphemeralContainerCommon.restartPolicy", P},
    {"core/v1.EphemeralContainerCommon.securityContext", P},
    {"core/v1.EphemeralContainerCommon.startupProbe", P},
    {"core/v1.EphemeralVolumeSource.volumeClaimTemplate", P},
    {"core/v1.Event.related", P},
    {"core/v1.Event.reportingComponent", N},
    {"core/v1.Event.reportingInstance", N},
    {"core/v1.Event.series", P},
    {"core/v1.FCVolumeSource.lun", P},
    {"core/v1.FlexVolumeSource.secretRef", P},
    {"core/v1.GRPCAction.service", PN},
    {"core/v1.HostAlias.ip", O},
    {"core/v1.HostIP.ip", O},
    {"core/v1.HostPathVolumeSource.type", P},
    {"core/v1.ISCSIVolumeSource.initiatorName", P},
    {"core/v1.ISCSIVolumeSource.secretRef", P},
    {"core/v1.KeyToPath.mode", P},
    {"core/v1.Lifecycle.postStart", P},
    {"core/v1.Lifecycle.preStop", P},
    {"core/v1.LifecycleHandler.exec", P},
    {"core/v1.LifecycleHandler.httpGet", P},
    {"core/v1.LifecycleHandler.sleep", P},
    {"core/v1.LifecycleHandler.tcpSocket", P},
    {"core/v1.NodeAffinity.requiredDuringSchedulingIgnoredDuringExecution", P},
    {"core/v1.NodeConfigSource.configMap", P},
    {"core/v1.NodeConfigStatus.active", P},
    {"core/v1.NodeConfigStatus.assigned", P},
    {"core/v1.NodeConfigStatus.lastKnownGood", P},
    {"core/v1.NodeFeatures.supplementalGroupsPolicy", P},
    {"core/v1.NodeRuntimeHandler.features", P},
    {"core/v1.NodeRuntimeHandler.name", N},
    {"core/v1.NodeRuntimeHandlerFeatures.recursiveReadOnlyMounts", P},
    {"core/v1.NodeRuntimeHandlerFeatures.userNamespaces", P},
    {"core/v1.NodeSpec.configSource", P},
    {"core/v1.NodeStatus.config", P},
    {"core/v1.NodeStatus.features", P},
    {"core/v1.PersistentVolumeClaimSpec.dataSource", P},
    {"core/v1.PersistentVolumeClaimSpec.dataSourceRef", P},
    {"core/v1.PersistentVolumeClaimSpec.selector", P},
    {"core/v1.PersistentVolumeClaimSpec.storageClassName", P},
    {"core/v1.PersistentVolumeClaimSpec.volumeAttributesClassName", P},
    {"core/v1.PersistentVolumeClaimSpec.volumeMode", P},
    {"core/v1.PodAffinityTerm.labelSelector", P},
    {"core/v1.PodAffinityTerm.namespaceSelector", P},
    {"core/v1.PodDNSConfigOption.value", P},
    {"core/v1.PodIP.ip", O},
    {"core/v1.PodResourceClaim.resourceClaimName", P},
    {"core/v1.PodResourceClaim.resourceClaimTemplateName", P},
    {"core/v1.PodResourceClaimStatus.resourceClaimName", P},
    {"core/v1.PodSecurityContext.appArmorProfile", P},
    {"core/v1.PodSecurityContext.fsGroup", P},
    {"core/v1.PodSecurityContext.fsGroupChangePolicy", P},
    {"core/v1.PodSecurityContext.runAsGroup", P},
    {"core/v1.PodSecurityContext.runAsNonRoot", P},
    {"core/v1.PodSecurityContext.runAsUser", P},
    {"core/v1.PodSecurityContext.seLinuxOptions", P},
    {"core/v1.PodSecurityContext.seccompProfile", P},
    {"core/v1.PodSecurityContext.supplementalGroupsPolicy", P},
    {"core/v1.PodSecurityContext.windowsOptions", P},
    {"core/v1.PodSpec.activeDeadlineSeconds", P},
    {"core/v1.PodSpec.affinity", P},
    {"core/v1.PodSpec.automountServiceAccountToken", P},
    {"core/v1.PodSpec.dnsConfig", P},
    {"core/v1.PodSpec.enableServiceLinks", P},
    {"core/v1.PodSpec.hostUsers", P},
    {"core/v1.PodSpec.os", P},
    {"core/v1.PodSpec.preemptionPolicy", P},
    {"core/v1.PodSpec.priority", P},
    {"core/v1.PodSpec.resources", P},
    {"core/v1.PodSpec.runtimeClassName", P},
    {"core/v1.PodSpec.securityContext", P},
    {"core/v1.PodSpec.setHostnameAsFQDN", P},
    {"core/v1.PodSpec.shareProcessNamespace", P},
    {"core/v1.PodSpec.terminationGracePeriodSeconds", P},
    {"core/v1.PodStatus.startTime", P},
    {"core/v1.Probe.terminationGracePeriodSeconds", P},
    {"core/v1.ProbeHandler.exec", P},
    {"core/v1.ProbeHandler.grpc", P},
    {"core/v1.ProbeHandler.httpGet", P},
    {"core/v1.ProbeHandler.tcpSocket", P},
    {"core/v1.ProjectedVolumeSource.defaultMode", P},
    {"core/v1.ProjectedVolumeSource.sources", N},
    {"core/v1.RBDVolumeSource.secretRef", P},
    {"core/v1.ScaleIOVolumeSource.secretRef", PN},
    {"core/v1.SeccompProfile.localhostProfile", P},
    {"core/v1.SecretEnvSource.optional", P},
    {"core/v1.SecretKeySelector.optional", P},
    {"core/v1.SecretProjection.optional", P},
    {"core/v1.SecretVolumeSource.defaultMode", P},
    {"core/v1.SecretVolumeSource.optional", P},
    {"core/v1.SecurityContext.allowPrivilegeEscalation", P},
    {"core/v1.SecurityContext.appArmorProfile", P},
    {"core/v1.SecurityContext.capabilities", P},
    {"core/v1.SecurityContext.privileged", P},
    {"core/v1.SecurityContext.procMount", P},
    {"core/v1.SecurityContext.readOnlyRootFilesystem", P},
    {"core/v1.SecurityContext.runAsGroup", P},
    {"core/v1.SecurityContext.runAsNonRoot", P},
    {"core/v1.SecurityContext.runAsUser", P},
    {"core/v1.SecurityContext.seLinuxOptions", P},
    {"core/v1.SecurityContext.seccompProfile", P},
    {"core/v1.SecurityContext.windowsOptions", P},
    {"core/v1.ServiceAccountTokenProjection.expirationSeconds", P},
    {"core/v1.StorageOSVolumeSource.secretRef", P},
    {"core/v1.Taint.timeAdded", P},
    {"core/v1.Toleration.tolerationSeconds", P},
    {"core/v1.TopologySpreadConstraint.labelSelector", P},
    {"core/v1.TopologySpreadConstraint.minDomains", P},
    {"core/v1.TopologySpreadConstraint.nodeAffinityPolicy", P},
    {"core/v1.TopologySpreadConstraint.nodeTaintsPolicy", P},
    {"core/v1.TypedLocalObjectReference.apiGroup", PN},
    {"core/v1.TypedObjectReference.apiGroup", PN},
    {"core/v1.TypedObjectReference.namespace", P},
    {"core/v1.VolumeMount.mountPropagation", P},
    {"core/v1.VolumeMount.recursiveReadOnly", P},
    {"core/v1.VolumeMountStatus.recursiveReadOnly", P},
    {"core/v1.VolumeProjection.clusterTrustBundle", P},
    {"core/v1.VolumeProjection.configMap", P},
    {"core/v1.VolumeProjection.downwardAPI", P},
    {"core/v1.VolumeProjection.secret", P},
    {"core/v1.VolumeProjection.serviceAccountToken", P},
    {"core/v1.WindowsSecurityContextOptions.gmsaCredentialSpec", P},
    {"core/v1.WindowsSecurityContextOptions.gmsaCredentialSpecName", P},
    {"core/v1.WindowsSecurityContextOptions.hostProcess", P},
    {"core/v1.WindowsSecurityContextOptions.runAsUserName", P},
    // events.k8s.io/v1
    {"events.k8s.io/v1.Event.related", P},
    {"events.k8s.io/v1.Event.series", P},
    // meta/v1
    {"meta/v1.DeleteOptions.gracePeriodSeconds", P},
    {"meta/v1.DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential", P},
    {"meta/v1.DeleteOptions.orphanDependents", P},
    {"meta/v1.DeleteOptions.preconditions", P},
    {"meta/v1.DeleteOptions.propagationPolicy", P},
    {"meta/v1.ListMeta.remainingItemCount", P},
    {"meta/v1.ManagedFieldsEntry.fieldsV1", P},
    {"meta/v1.ManagedFieldsEntry.time", P},
    {"meta/v1.ObjectMeta.deletionGracePeriodSeconds", P},
    {"meta/v1.ObjectMeta.deletionTimestamp", P},
    {"meta/v1.OwnerReference.blockOwnerDeletion", P},
    {"meta/v1.OwnerReference.controller", P},
    {"meta/v1.Preconditions.resourceVersion", P},
    {"meta/v1.Preconditions.uid", P},
    {"meta/v1.Status.details", P},
});

// Every VolumeSource member is a pointer (one of them is set).
constexpr std::string_view kAllPointers[] = {"core/v1.VolumeSource"};

// The lookup below is a binary search.
static_assert(std::is_sorted(kOverrides.begin(), kOverrides.end(),
                             [](const Override& a, const Override& b) { return a.key < b.key; }));

}  // namespace

GoPresence go_presence(const api::schema::Type& type, const api::schema::Field& field) {
  std::string key;
  key.reserve(type.package.size() + type.name.size() + field.name.size() + 2);
  key.append(type.package).append(".").append(type.name);
  for (std::string_view all : kAllPointers) {
    if (all == key) return GoPresence::kPointer;
  }
  key.append(".").append(field.name);
  const auto it = std::lower_bound(kOverrides.begin(), kOverrides.end(), std::string_view(key),
                                   [](const Override& o, std::string_view k) { return o.key < k; });
  if (it != kOverrides.end() && it->key == key) return it->presence;
  return field.required ? GoPresence::kAlways : GoPresence::kOmitEmpty;
}

std::vector<std::string_view> go_presence_overrides() {
  std::vector<std::string_view> out;
  for (const auto& o : kOverrides)
    out.push_back(o.key);
  for (std::string_view all : kAllPointers)
    out.push_back(all);
  return out;
}

}  // namespace kcm::local::protobuf
