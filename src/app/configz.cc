#include "app/configz.h"

#include "api/duration.h"
#include "api/go_json_marshal.h"

namespace kcm::app {
namespace {

// kube-controller-manager 1.33's configuration when no flag is given, in the
// internal struct's field order; component_config() then sets the fields of
// the flags kcm has. GCIgnoredResources comes from a Go map, so upstream
// serves its two entries in either order.
constexpr std::string_view kDefaults = R"json(
{
  "Generic": {
    "Port": 0,
    "Address": "0.0.0.0",
    "MinResyncPeriod": "12h0m0s",
    "ClientConnection": {
      "Kubeconfig": "",
      "AcceptContentTypes": "",
      "ContentType": "application/vnd.kubernetes.protobuf",
      "QPS": 20,
      "Burst": 30
    },
    "ControllerStartInterval": "0s",
    "LeaderElection": {
      "LeaderElect": true,
      "LeaseDuration": "15s",
      "RenewDeadline": "10s",
      "RetryPeriod": "2s",
      "ResourceLock": "leases",
      "ResourceName": "kube-controller-manager",
      "ResourceNamespace": "kube-system"
    },
    "Controllers": [
      "*"
    ],
    "Debugging": {
      "EnableProfiling": true,
      "EnableContentionProfiling": false
    },
    "LeaderMigrationEnabled": false,
    "LeaderMigration": {
      "LeaderName": "",
      "ResourceLock": "",
      "ControllerLeaders": null
    }
  },
  "KubeCloudShared": {
    "CloudProvider": {
      "Name": "",
      "CloudConfigFile": ""
    },
    "ExternalCloudVolumePlugin": "",
    "UseServiceAccountCredentials": false,
    "AllowUntaggedCloud": false,
    "RouteReconciliationPeriod": "10s",
    "NodeMonitorPeriod": "5s",
    "ClusterName": "kubernetes",
    "ClusterCIDR": "",
    "AllocateNodeCIDRs": false,
    "CIDRAllocatorType": "RangeAllocator",
    "ConfigureCloudRoutes": true,
    "NodeSyncPeriod": "0s"
  },
  "AttachDetachController": {
    "DisableAttachDetachReconcilerSync": false,
    "ReconcilerSyncLoopPeriod": "1m0s",
    "DisableForceDetachOnTimeout": false
  },
  "CSRSigningController": {
    "ClusterSigningCertFile": "",
    "ClusterSigningKeyFile": "",
    "KubeletServingSignerConfiguration": {
      "CertFile": "",
      "KeyFile": ""
    },
    "KubeletClientSignerConfiguration": {
      "CertFile": "",
      "KeyFile": ""
    },
    "KubeAPIServerClientSignerConfiguration": {
      "CertFile": "",
      "KeyFile": ""
    },
    "LegacyUnknownSignerConfiguration": {
      "CertFile": "",
      "KeyFile": ""
    },
    "ClusterSigningDuration": "8760h0m0s"
  },
  "DaemonSetController": {
    "ConcurrentDaemonSetSyncs": 2
  },
  "DeploymentController": {
    "ConcurrentDeploymentSyncs": 5
  },
  "StatefulSetController": {
    "ConcurrentStatefulSetSyncs": 5
  },
  "DeprecatedController": {},
  "EndpointController": {
    "ConcurrentEndpointSyncs": 5,
    "EndpointUpdatesBatchPeriod": "0s"
  },
  "EndpointSliceController": {
    "ConcurrentServiceEndpointSyncs": 5,
    "MaxEndpointsPerSlice": 100,
    "EndpointUpdatesBatchPeriod": "0s"
  },
  "EndpointSliceMirroringController": {
    "MirroringConcurrentServiceEndpointSyncs": 5,
    "MirroringMaxEndpointsPerSubset": 1000,
    "MirroringEndpointUpdatesBatchPeriod": "0s"
  },
  "EphemeralVolumeController": {
    "ConcurrentEphemeralVolumeSyncs": 5
  },
  "GarbageCollectorController": {
    "EnableGarbageCollector": true,
    "ConcurrentGCSyncs": 20,
    "GCIgnoredResources": [
      {
        "Group": "",
        "Resource": "events"
      },
      {
        "Group": "events.k8s.io",
        "Resource": "events"
      }
    ]
  },
  "HPAController": {
    "ConcurrentHorizontalPodAutoscalerSyncs": 5,
    "HorizontalPodAutoscalerSyncPeriod": "15s",
    "HorizontalPodAutoscalerDownscaleStabilizationWindow": "5m0s",
    "HorizontalPodAutoscalerTolerance": 0.1,
    "HorizontalPodAutoscalerCPUInitializationPeriod": "5m0s",
    "HorizontalPodAutoscalerInitialReadinessDelay": "30s"
  },
  "JobController": {
    "ConcurrentJobSyncs": 5
  },
  "CronJobController": {
    "ConcurrentCronJobSyncs": 5
  },
  "LegacySATokenCleaner": {
    "CleanUpPeriod": "8760h0m0s"
  },
  "NamespaceController": {
    "NamespaceSyncPeriod": "5m0s",
    "ConcurrentNamespaceSyncs": 10
  },
  "NodeIPAMController": {
    "ServiceCIDR": "",
    "SecondaryServiceCIDR": "",
    "NodeCIDRMaskSize": 0,
    "NodeCIDRMaskSizeIPv4": 0,
    "NodeCIDRMaskSizeIPv6": 0
  },
  "NodeLifecycleController": {
    "NodeEvictionRate": 0.1,
    "SecondaryNodeEvictionRate": 0.01,
    "NodeStartupGracePeriod": "1m0s",
    "NodeMonitorGracePeriod": "50s",
    "LargeClusterSizeThreshold": 50,
    "UnhealthyZoneThreshold": 0.55
  },
  "PersistentVolumeBinderController": {
    "PVClaimBinderSyncPeriod": "15s",
    "VolumeConfiguration": {
      "EnableHostPathProvisioning": false,
      "EnableDynamicProvisioning": true,
      "PersistentVolumeRecyclerConfiguration": {
        "MaximumRetry": 3,
        "MinimumTimeoutNFS": 300,
        "PodTemplateFilePathNFS": "",
        "IncrementTimeoutNFS": 30,
        "PodTemplateFilePathHostPath": "",
        "MinimumTimeoutHostPath": 60,
        "IncrementTimeoutHostPath": 30
      },
      "FlexVolumePluginDir": "/usr/libexec/kubernetes/kubelet-plugins/volume/exec/"
    }
  },
  "PodGCController": {
    "TerminatedPodGCThreshold": 12500
  },
  "ReplicaSetController": {
    "ConcurrentRSSyncs": 5
  },
  "ReplicationController": {
    "ConcurrentRCSyncs": 5
  },
  "ResourceQuotaController": {
    "ResourceQuotaSyncPeriod": "5m0s",
    "ConcurrentResourceQuotaSyncs": 5
  },
  "SAController": {
    "ServiceAccountKeyFile": "",
    "ConcurrentSATokenSyncs": 5,
    "RootCAFile": ""
  },
  "ServiceController": {
    "ConcurrentServiceSyncs": 1
  },
  "TTLAfterFinishedController": {
    "ConcurrentTTLSyncs": 5
  },
  "ValidatingAdmissionPolicyStatusController": {
    "ConcurrentPolicySyncs": 5
  }
})json";

json::object& member(json::object& o, std::string_view key) {
  return o.at(key).as_object();
}

}  // namespace

json::object component_config(const Options& options) {
  json::object config = json::parse(kDefaults).as_object();
  const auto duration = api::duration_to_json;  // metav1.Duration on the wire

  json::object& generic = member(config, "Generic");
  generic["MinResyncPeriod"] = duration(options.min_resync_period);
  json::object& client = member(generic, "ClientConnection");
  client["Kubeconfig"] = options.kubeconfig;
  client["ContentType"] = options.kube_api_content_type;
  client["QPS"] = api::float32_for_json(options.kube_api_qps);
  client["Burst"] = options.kube_api_burst;
  generic["ControllerStartInterval"] = duration(options.controller_start_interval);
  json::object& election = member(generic, "LeaderElection");
  const LeaderElectionOptions& le = options.leader_election;
  election["LeaderElect"] = le.leader_elect;
  election["LeaseDuration"] = duration(le.lease_duration);
  election["RenewDeadline"] = duration(le.renew_deadline);
  election["RetryPeriod"] = duration(le.retry_period);
  election["ResourceLock"] = le.resource_lock;
  election["ResourceName"] = le.resource_name;
  election["ResourceNamespace"] = le.resource_namespace;
  json::array controllers;
  for (const std::string& c : options.controllers)
    controllers.emplace_back(c);
  generic["Controllers"] = std::move(controllers);
  json::object& debugging = member(generic, "Debugging");
  debugging["EnableProfiling"] = options.profiling;
  debugging["EnableContentionProfiling"] = options.contention_profiling;

  member(config, "DeploymentController")["ConcurrentDeploymentSyncs"] =
      options.concurrent_deployment_syncs;
  member(config, "ReplicaSetController")["ConcurrentRSSyncs"] = options.concurrent_replicaset_syncs;
  json::object& gc = member(config, "GarbageCollectorController");
  gc["EnableGarbageCollector"] = options.enable_garbage_collector;
  gc["ConcurrentGCSyncs"] = options.concurrent_gc_syncs;
  json::object& ns = member(config, "NamespaceController");
  ns["NamespaceSyncPeriod"] = duration(options.namespace_sync_period);
  ns["ConcurrentNamespaceSyncs"] = options.concurrent_namespace_syncs;
  return config;
}

Result<std::string> configz_body(const Options& options) {
  const json::object configs{{kConfigzName, component_config(options)}};
  auto body = api::go_json_marshal(configs);
  if (!body) return fail("error marshaling json: " + body.error());
  return body;
}

HttpAnswer configz_answer(const Options& options) {
  auto body = configz_body(options);
  if (!body) return http_error(500, body.error());
  HttpAnswer a;
  a.content_type = "application/json";
  a.nosniff = true;
  a.body = std::move(*body);
  return a;
}

}  // namespace kcm::app
