// /configz: kube-controller-manager's component configuration as Go
// marshals the internal struct.
#include "app/configz.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kcm::app {
namespace {

// Options as kcm reads them from `args` (aliases in --controllers resolved).
Options parsed(const std::vector<std::string>& args) {
  Options o;
  const CommandLine cl = parse_command_line(args, o);
  EXPECT_TRUE(cl.run) << cl.err << cl.command_failed;
  return o;
}

// kube-controller-manager 1.33 --kubeconfig=/k/admin.conf --leader-elect=false,
// as its /configz serves it.
constexpr std::string_view kUpstreamDefaults =
    R"({"kubecontrollermanager.config.k8s.io":{"Generic":{"Port":0,"Address":"0.0.0.0","MinResyncPeriod":"12h0m0s","ClientConnection":{"Kubeconfig":"/k/admin.conf","AcceptContentTypes":"","ContentType":"application/vnd.kubernetes.protobuf","QPS":20,"Burst":30},"ControllerStartInterval":"0s","LeaderElection":{"LeaderElect":false,"LeaseDuration":"15s","RenewDeadline":"10s","RetryPeriod":"2s","ResourceLock":"leases","ResourceName":"kube-controller-manager","ResourceNamespace":"kube-system"},"Controllers":["*"],"Debugging":{"EnableProfiling":true,"EnableContentionProfiling":false},"LeaderMigrationEnabled":false,"LeaderMigration":{"LeaderName":"","ResourceLock":"","ControllerLeaders":null}},"KubeCloudShared":{"CloudProvider":{"Name":"","CloudConfigFile":""},"ExternalCloudVolumePlugin":"","UseServiceAccountCredentials":false,"AllowUntaggedCloud":false,"RouteReconciliationPeriod":"10s","NodeMonitorPeriod":"5s","ClusterName":"kubernetes","ClusterCIDR":"","AllocateNodeCIDRs":false,"CIDRAllocatorType":"RangeAllocator","ConfigureCloudRoutes":true,"NodeSyncPeriod":"0s"},"AttachDetachController":{"DisableAttachDetachReconcilerSync":false,"ReconcilerSyncLoopPeriod":"1m0s","DisableForceDetachOnTimeout":false},"CSRSigningController":{"ClusterSigningCertFile":"","ClusterSigningKeyFile":"","KubeletServingSignerConfiguration":{"CertFile":"","KeyFile":""},"KubeletClientSignerConfiguration":{"CertFile":"","KeyFile":""},"KubeAPIServerClientSignerConfiguration":{"CertFile":"","KeyFile":""},"LegacyUnknownSignerConfiguration":{"CertFile":"","KeyFile":""},"ClusterSigningDuration":"8760h0m0s"},"DaemonSetController":{"ConcurrentDaemonSetSyncs":2},"DeploymentController":{"ConcurrentDeploymentSyncs":5},"StatefulSetController":{"ConcurrentStatefulSetSyncs":5},"DeprecatedController":{},"EndpointController":{"ConcurrentEndpointSyncs":5,"EndpointUpdatesBatchPeriod":"0s"},"EndpointSliceController":{"ConcurrentServiceEndpointSyncs":5,"MaxEndpointsPerSlice":100,"EndpointUpdatesBatchPeriod":"0s"},"EndpointSliceMirroringController":{"MirroringConcurrentServiceEndpointSyncs":5,"MirroringMaxEndpointsPerSubset":1000,"MirroringEndpointUpdatesBatchPeriod":"0s"},"EphemeralVolumeController":{"ConcurrentEphemeralVolumeSyncs":5},"GarbageCollectorController":{"EnableGarbageCollector":true,"ConcurrentGCSyncs":20,"GCIgnoredResources":[{"Group":"","Resource":"events"},{"Group":"events.k8s.io","Resource":"events"}]},"HPAController":{"ConcurrentHorizontalPodAutoscalerSyncs":5,"HorizontalPodAutoscalerSyncPeriod":"15s","HorizontalPodAutoscalerDownscaleStabilizationWindow":"5m0s","HorizontalPodAutoscalerTolerance":0.1,"HorizontalPodAutoscalerCPUInitializationPeriod":"5m0s","HorizontalPodAutoscalerInitialReadinessDelay":"30s"},"JobController":{"ConcurrentJobSyncs":5},"CronJobController":{"ConcurrentCronJobSyncs":5},"LegacySATokenCleaner":{"CleanUpPeriod":"8760h0m0s"},"NamespaceController":{"NamespaceSyncPeriod":"5m0s","ConcurrentNamespaceSyncs":10},"NodeIPAMController":{"ServiceCIDR":"","SecondaryServiceCIDR":"","NodeCIDRMaskSize":0,"NodeCIDRMaskSizeIPv4":0,"NodeCIDRMaskSizeIPv6":0},"NodeLifecycleController":{"NodeEvictionRate":0.1,"SecondaryNodeEvictionRate":0.01,"NodeStartupGracePeriod":"1m0s","NodeMonitorGracePeriod":"50s","LargeClusterSizeThreshold":50,"UnhealthyZoneThreshold":0.55},"PersistentVolumeBinderController":{"PVClaimBinderSyncPeriod":"15s","VolumeConfiguration":{"EnableHostPathProvisioning":false,"EnableDynamicProvisioning":true,"PersistentVolumeRecyclerConfiguration":{"MaximumRetry":3,"MinimumTimeoutNFS":300,"PodTemplateFilePathNFS":"","IncrementTimeoutNFS":30,"PodTemplateFilePathHostPath":"","MinimumTimeoutHostPath":60,"IncrementTimeoutHostPath":30},"FlexVolumePluginDir":"/usr/libexec/kubernetes/kubelet-plugins/volume/exec/"}},"PodGCController":{"TerminatedPodGCThreshold":12500},"ReplicaSetController":{"ConcurrentRSSyncs":5},"ReplicationController":{"ConcurrentRCSyncs":5},"ResourceQuotaController":{"ResourceQuotaSyncPeriod":"5m0s","ConcurrentResourceQuotaSyncs":5},"SAController":{"ServiceAccountKeyFile":"","ConcurrentSATokenSyncs":5,"RootCAFile":""},"ServiceController":{"ConcurrentServiceSyncs":1},"TTLAfterFinishedController":{"ConcurrentTTLSyncs":5},"ValidatingAdmissionPolicyStatusController":{"ConcurrentPolicySyncs":5}}})";

TEST(ConfigzTest, DefaultsReadAsUpstreamsByteForByte) {
  const auto body = configz_body(parsed({"--kubeconfig=/k/admin.conf", "--leader-elect=false"}));
  ASSERT_TRUE(body.ok()) << body.error();
  EXPECT_EQ(*body, kUpstreamDefaults);
}

TEST(ConfigzTest, FlagsKcmHasSetTheirFields) {
  const Options o = parsed({"--kubeconfig=/k/a&b.conf",
                            "--kube-api-qps=0.1",
                            "--kube-api-burst=7",
                            "--kube-api-content-type=application/json",
                            "--min-resync-period=1h30m",
                            "--controller-start-interval=500ms",
                            "--leader-elect-lease-duration=1m",
                            "--leader-elect-renew-deadline=45s",
                            "--leader-elect-retry-period=5s",
                            "--leader-elect-resource-name=kcm",
                            "--leader-elect-resource-namespace=ops",
                            "--controllers=*,-deployment",
                            "--profiling=false",
                            "--contention-profiling",
                            "--concurrent-deployment-syncs=7",
                            "--concurrent-replicaset-syncs=8",
                            "--concurrent-gc-syncs=9",
                            "--enable-garbage-collector=false",
                            "--namespace-sync-period=10m",
                            "--concurrent-namespace-syncs=3"});
  const json::object c = component_config(o);
  const json::object& generic = c.at("Generic").as_object();
  const json::object& client = generic.at("ClientConnection").as_object();
  EXPECT_EQ(client.at("Kubeconfig"), "/k/a&b.conf");
  EXPECT_EQ(client.at("ContentType"), "application/json");
  EXPECT_EQ(client.at("Burst"), 7);
  EXPECT_EQ(generic.at("MinResyncPeriod"), "1h30m0s");
  EXPECT_EQ(generic.at("ControllerStartInterval"), "500ms");
  const json::object& le = generic.at("LeaderElection").as_object();
  EXPECT_EQ(le.at("LeaderElect"), true);
  EXPECT_EQ(le.at("LeaseDuration"), "1m0s");
  EXPECT_EQ(le.at("RenewDeadline"), "45s");
  EXPECT_EQ(le.at("RetryPeriod"), "5s");
  EXPECT_EQ(le.at("ResourceName"), "kcm");
  EXPECT_EQ(le.at("ResourceNamespace"), "ops");
  // Aliases resolved, as upstream's ApplyTo stores them.
  EXPECT_EQ(generic.at("Controllers"), (json::array{"*", "-deployment-controller"}));
  EXPECT_EQ(generic.at("Debugging"),
            (json::object{{"EnableProfiling", false}, {"EnableContentionProfiling", true}}));
  EXPECT_EQ(c.at("DeploymentController").at("ConcurrentDeploymentSyncs"), 7);
  EXPECT_EQ(c.at("ReplicaSetController").at("ConcurrentRSSyncs"), 8);
  EXPECT_EQ(c.at("GarbageCollectorController").at("ConcurrentGCSyncs"), 9);
  EXPECT_EQ(c.at("GarbageCollectorController").at("EnableGarbageCollector"), false);
  EXPECT_EQ(c.at("NamespaceController"),
            (json::object{{"NamespaceSyncPeriod", "10m0s"}, {"ConcurrentNamespaceSyncs", 3}}));

  // On the wire: QPS as Go prints a float32, '&' escaped as Go escapes it.
  const HttpAnswer a = configz_answer(o);
  EXPECT_EQ(a.status, 200);
  EXPECT_EQ(a.content_type, "application/json");
  EXPECT_TRUE(a.nosniff);
  EXPECT_NE(a.body.find(R"("Kubeconfig":"/k/a\u0026b.conf",)"), std::string::npos) << a.body;
  EXPECT_NE(a.body.find(R"("QPS":0.1,"Burst":7})"), std::string::npos) << a.body;
  EXPECT_TRUE(
      a.body.starts_with(R"({"kubecontrollermanager.config.k8s.io":{"Generic":{"Port":0,)"));
}

TEST(ConfigzTest, AnUnmarshallableQpsIsGosError) {
  Options o;
  o.kube_api_qps = std::nanf("");
  const HttpAnswer a = configz_answer(o);
  EXPECT_EQ(a.status, 500);
  EXPECT_EQ(a.body, "error marshaling json: json: unsupported value: NaN\n");
  EXPECT_EQ(a.content_type, "text/plain; charset=utf-8");
  EXPECT_TRUE(a.nosniff);
}

}  // namespace
}  // namespace kcm::app
