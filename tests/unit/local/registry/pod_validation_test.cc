// Pod create validation: one table row per upstream rule, with the exact
// message kubectl prints.
#include "local/registry/pod_validation.h"

#include <gtest/gtest.h>

#include "local/registry/pod_defaults.h"
#include "local/registry/strategies.h"
#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::has_message;
using testing::load_data;
using testing::messages;
using testing::obj;

// Merges `patch` into `target` (objects recursively, everything else replaced).
void merge(json::object& target, const json::object& patch) {
  for (const auto& kv : patch) {
    json::value& t = target[kv.key()];
    if (t.is_object() && kv.value().is_object()) {
      merge(t.as_object(), kv.value().as_object());
    } else {
      t = kv.value();
    }
  }
}

json::object pod_with(std::string_view spec_patch, std::string_view container_patch = "{}",
                      std::string_view meta_patch = "{}") {
  json::object pod = obj(R"({"apiVersion":"v1","kind":"Pod",
    "metadata":{"name":"web-0","namespace":"default"},
    "spec":{"containers":[{"name":"app","image":"nginx:1.25"}]}})");
  merge(pod["metadata"].as_object(), obj(meta_patch));
  merge(pod["spec"].as_object()["containers"].as_array()[0].as_object(), obj(container_patch));
  merge(pod["spec"].as_object(), obj(spec_patch));
  apply_pod_defaults(pod);
  return pod;
}

struct PodCase {
  const char* spec;
  const char* container;
  const char* message;
};

TEST(PodValidation, ValidPods) {
  EXPECT_TRUE(validate_pod_create(pod_with("{}")).empty())
      << messages(validate_pod_create(pod_with("{}")));
  json::object typical = load_data("pod-typical.json").as_object();
  apply_pod_defaults(typical);
  const auto errs = validate_pod_create(typical);
  EXPECT_TRUE(errs.empty()) << messages(errs);
}

TEST(PodValidation, SpecRules) {
  const std::vector<PodCase> cases = {
      {R"({"containers":[]})", "{}", "spec.containers: Required value"},
      {"{}", R"({"name":"App_1"})",
       "spec.containers[0].name: Invalid value: \"App_1\": a lowercase RFC 1123 label must "
       "consist of lower case alphanumeric characters or '-', and must start and end with an "
       "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
      {"{}", R"({"image":""})", "spec.containers[0].image: Required value"},
      {"{}", R"({"image":" nginx"})",
       "spec.containers[0].image: Invalid value: \" nginx\": must not have leading or trailing "
       "whitespace"},
      {R"({"containers":[{"name":"a","image":"i"},{"name":"a","image":"i"}]})", "{}",
       "spec.containers[1].name: Duplicate value: \"a\""},
      {"{}", R"({"ports":[{"containerPort":70000}]})",
       "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and "
       "65535, inclusive"},
      {"{}", R"({"ports":[{"containerPort":0}]})",
       "spec.containers[0].ports[0].containerPort: Required value"},
      {"{}", R"({"ports":[{"containerPort":80,"protocol":"HTTP"}]})",
       "spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values: "
       "\"SCTP\", \"TCP\", \"UDP\""},
      {"{}", R"({"ports":[{"containerPort":80,"name":"Web"}]})",
       "spec.containers[0].ports[0].name: Invalid value: \"Web\": must contain only "
       "alpha-numeric characters (a-z, 0-9), and hyphens (-)"},
      {"{}", R"({"ports":[{"containerPort":80,"name":"http"},{"containerPort":81,"name":"http"}]})",
       "spec.containers[0].ports[1].name: Duplicate value: \"http\""},
      {"{}",
       R"({"ports":[{"containerPort":80,"hostPort":8080},{"containerPort":81,"hostPort":8080}]})",
       "spec.containers[0].ports[1].hostPort: Duplicate value: \"TCP//8080\""},
      {"{}", R"({"env":[{"name":"A=B"}]})",
       "spec.containers[0].env[0].name: Invalid value: \"A=B\": a valid environment variable "
       "name must consist only of printable ASCII characters other than '='"},
      {"{}", R"({"env":[{"name":""}]})", "spec.containers[0].env[0].name: Required value"},
      {"{}", R"({"env":[{"name":"X","valueFrom":{}}]})",
       "spec.containers[0].env[0].valueFrom: Invalid value: \"\": must specify one of: "
       "`fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"},
      {"{}",
       R"({"env":[{"name":"X","value":"v","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]})",
       "spec.containers[0].env[0].valueFrom: Invalid value: \"\": may not be specified when "
       "`value` is not empty"},
      {"{}", R"({"env":[{"name":"X","valueFrom":{"fieldRef":{"fieldPath":"status.phase"}}}]})",
       "spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "
       "\"status.phase\": supported values: \"metadata.name\", \"metadata.namespace\", "
       "\"metadata.uid\", \"spec.nodeName\", \"spec.serviceAccountName\", \"status.hostIP\", "
       "\"status.hostIPs\", \"status.podIP\", \"status.podIPs\""},
      {"{}", R"({"env":[{"name":"X","valueFrom":{"fieldRef":{"fieldPath":"spec.bogus"}}}]})",
       "spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: \"spec.bogus\": "
       "error converting fieldPath: field label not supported: spec.bogus"},
      {"{}", R"({"env":[{"name":"X","valueFrom":{"secretKeyRef":{"name":"s"}}}]})",
       "spec.containers[0].env[0].valueFrom.secretKeyRef.key: Required value"},
      {"{}", R"({"envFrom":[{}]})",
       "spec.containers[0].envFrom: Invalid value: \"\": must specify one of: `configMapRef` or "
       "`secretRef`"},
      {"{}", R"({"volumeMounts":[{"name":"data","mountPath":"/data"}]})",
       "spec.containers[0].volumeMounts[0].name: Not found: \"data\""},
      {R"({"volumes":[{"name":"data"}]})",
       R"({"volumeMounts":[{"name":"data","mountPath":"/d"},{"name":"data","mountPath":"/d"}]})",
       "spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/d\": must be unique"},
      {R"({"volumes":[{"name":"data"}]})",
       R"({"volumeMounts":[{"name":"data","mountPath":"/d","subPath":"../x"}]})",
       "spec.containers[0].volumeMounts.subPath: Invalid value: \"../x\": must not contain '..'"},
      {"{}", R"({"imagePullPolicy":"Sometimes"})",
       "spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: "
       "\"Always\", \"IfNotPresent\", \"Never\""},
      {"{}", R"({"terminationMessagePolicy":"Logs"})",
       "spec.containers[0].terminationMessagePolicy: Unsupported value: \"Logs\": supported "
       "values: \"File\", \"FallbackToLogsOnError\""},
      {"{}", R"({"resources":{"limits":{"cpu":"100m"},"requests":{"cpu":"200m"}}})",
       "spec.containers[0].resources.requests: Invalid value: \"200m\": must be less than or "
       "equal to cpu limit of 100m"},
      {"{}", R"({"resources":{"requests":{"cpu":"-1"}}})",
       "spec.containers[0].resources.requests[cpu]: Invalid value: \"-1\": must be greater than "
       "or equal to 0"},
      {"{}", R"({"resources":{"requests":{"example.com/gpu":"1"}}})",
       "spec.containers[0].resources.limits: Required value: Limit must be set for non "
       "overcommitable resources"},
      {"{}",
       R"({"resources":{"limits":{"example.com/gpu":"1"},"requests":{"example.com/gpu":"0"}}})",
       "spec.containers[0].resources.requests: Invalid value: \"0\": must be equal to "
       "example.com/gpu limit of 1"},
      {"{}", R"({"resources":{"limits":{"gpu":"1"}}})",
       "spec.containers[0].resources.limits[gpu]: Invalid value: \"gpu\": must be a standard "
       "resource type or fully qualified"},
      {"{}", R"({"resources":{"limits":{"memory":"lots"}}})",
       "spec.containers[0].resources.limits[memory]: Invalid value: \"lots\": quantities must "
       "match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
      {"{}", R"({"livenessProbe":{"exec":{"command":["true"]},"successThreshold":2}})",
       "spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1"},
      {"{}", R"({"readinessProbe":{}})",
       "spec.containers[0].readinessProbe: Required value: must specify a handler type"},
      {"{}", R"({"readinessProbe":{"exec":{"command":["a"]},"tcpSocket":{"port":80}}})",
       "spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 "
       "handler type"},
      {"{}", R"({"startupProbe":{"httpGet":{"port":"http-metrics-too-long"}}})",
       "spec.containers[0].startupProbe.httpGet.port: Invalid value: \"http-metrics-too-long\": "
       "must be no more than 15 characters"},
      {"{}", R"({"livenessProbe":{"tcpSocket":{"port":80},"initialDelaySeconds":-1}})",
       "spec.containers[0].livenessProbe.initialDelaySeconds: Invalid value: -1: must be greater "
       "than or equal to 0"},
      {"{}", R"({"lifecycle":{"preStop":{"sleep":{"seconds":60}}}})",
       "spec.containers[0].lifecycle.preStop.sleep: Invalid value: 60: must be non-negative and "
       "less than terminationGracePeriodSeconds (30)"},
      {"{}", R"({"restartPolicy":"Always"})",
       "spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers"},
      {R"({"initContainers":[{"name":"init","image":"busybox","readinessProbe":{"exec":{"command":["x"]}}}]})",
       "{}",
       "spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers "
       "without restartPolicy=Always"},
      {R"({"initContainers":[{"name":"app","image":"busybox"}]})", "{}",
       "spec.initContainers[0].name: Duplicate value: \"app\""},
      {R"({"initContainers":[{"name":"s","image":"busybox","restartPolicy":"OnFailure"}]})", "{}",
       "spec.initContainers[0].restartPolicy: Unsupported value: \"OnFailure\": supported values: "
       "\"Always\""},
      {R"({"restartPolicy":"Sometimes"})", "{}",
       "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", "
       "\"OnFailure\", \"Never\""},
      {R"({"dnsPolicy":"Cluster"})", "{}",
       "spec.dnsPolicy: Unsupported value: \"Cluster\": supported values: "
       "\"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\""},
      {R"({"dnsPolicy":"None"})", "{}",
       "spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"},
      {R"({"dnsConfig":{"nameservers":["1.1.1.1","8.8.8.8","9.9.9.9","4.4.4.4"]}})", "{}",
       "spec.dnsConfig.nameservers: Invalid value: []string{\"1.1.1.1\", \"8.8.8.8\", "
       "\"9.9.9.9\", \"4.4.4.4\"}: must not have more than 3 nameservers"},
      {R"({"dnsConfig":{"nameservers":["1.1.1"]}})", "{}",
       "spec.dnsConfig.nameservers[0]: Invalid value: \"1.1.1\": must be a valid IP address, "
       "(e.g. 10.9.8.7 or 2001:db8::ffff)"},
      {R"({"nodeSelector":{"disk":"ssd!"}})", "{}",
       "spec.nodeSelector: Invalid value: \"ssd!\": a valid label must be an empty string or "
       "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
       "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
       "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      {R"({"activeDeadlineSeconds":0})", "{}",
       "spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"},
      {R"({"hostname":"Web"})", "{}",
       "spec.hostname: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower "
       "case alphanumeric characters or '-', and must start and end with an alphanumeric "
       "character (e.g. 'my-name',  or '123-abc', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
      {R"({"serviceAccountName":"Builder"})", "{}",
       "spec.serviceAccountName: Invalid value: \"Builder\": a lowercase RFC 1123 subdomain must "
       "consist of lower case alphanumeric characters, '-' or '.', and must start and end with "
       "an alphanumeric character (e.g. 'example.com', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
      {R"({"tolerations":[{"operator":"Equal","value":"x"}]})", "{}",
       "spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when "
       "`key` is empty, which means \"match all values and all keys\""},
      {R"({"tolerations":[{"key":"k","operator":"Exists","value":"v"}]})", "{}",
       "spec.tolerations[0].operator: Invalid value: \"v\": value must be empty when `operator` "
       "is 'Exists'"},
      {R"({"tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule","tolerationSeconds":5}]})",
       "{}",
       "spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' "
       "when `tolerationSeconds` is set"},
      {R"({"tolerations":[{"key":"k","operator":"Exists","effect":"Never"}]})", "{}",
       "spec.tolerations[0].effect: Unsupported value: \"Never\": supported values: "
       "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""},
      {R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[]}}}})",
       "{}",
       "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
       "nodeSelectorTerms: Required value: must have at least one node selector term"},
      {R"({"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In"}]}]}}}})",
       "{}",
       "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
       "nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when "
       "`operator` is 'In' or 'NotIn'"},
      {R"({"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":0,"podAffinityTerm":{"topologyKey":"zone"}}]}}})",
       "{}",
       "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: "
       "Invalid value: 0: must be in the range 1-100"},
      {R"({"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{"matchLabels":{"a":"b"}}}]}}})",
       "{}",
       "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
       "Required value: can not be empty"},
      {R"({"topologySpreadConstraints":[{"maxSkew":0,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "{}",
       "spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"},
      {R"({"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"Maybe"}]})",
       "{}",
       "spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"Maybe\": "
       "supported values: \"DoNotSchedule\", \"ScheduleAnyway\""},
      {R"({"securityContext":{"runAsUser":-1}})", "{}",
       "spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 4294967295, "
       "inclusive"},
      {R"({"securityContext":{"sysctls":[{"name":"net.ipv4.ip_forward"}]},"hostNetwork":true,
          "containers":[{"name":"app","image":"i","ports":[{"containerPort":80,"hostPort":80}]}]})",
       "{}",
       "spec.securityContext.sysctls[0].name: Invalid value: \"net.ipv4.ip_forward\": may not "
       "be specified when 'hostNetwork' is true"},
      {R"({"securityContext":{"seccompProfile":{"type":"Localhost"}}})", "{}",
       "spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when "
       "seccomp type is Localhost"},
      {"{}", R"({"securityContext":{"procMount":"Unmasked"}})",
       "spec.containers[0].securityContext.procMount: Invalid value: \"Unmasked\": `hostUsers` "
       "must be false to use `Unmasked`"},
      {R"({"volumes":[{"name":"v","hostPath":{"path":"/x","type":"Dir"}}]})", "{}",
       "spec.volumes[0].hostPath.type: Unsupported value: \"Dir\": supported values: \"\", "
       "\"BlockDevice\", \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", "
       "\"FileOrCreate\", \"Socket\""},
      {R"({"volumes":[{"name":"v","emptyDir":{},"hostPath":{"path":"/x"}}]})", "{}",
       "spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type"},
      {R"({"volumes":[{"name":"v"},{"name":"v"}]})", "{}",
       "spec.volumes[1].name: Duplicate value: \"v\""},
      {R"({"volumes":[{"name":"V"}]})", "{}",
       "spec.volumes[0].name: Invalid value: \"V\": a lowercase RFC 1123 label must consist of "
       "lower case alphanumeric characters or '-', and must start and end with an alphanumeric "
       "character (e.g. 'my-name',  or '123-abc', regex used for validation is "
       "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
      {R"({"volumes":[{"name":"v","configMap":{"name":"cm","defaultMode":1000}}]})", "{}",
       "spec.volumes[0].configMap.defaultMode: Invalid value: 1000: must be a number between 0 "
       "and 0777 (octal), both inclusive"},
      {R"({"volumes":[{"name":"v","secret":{"secretName":"s","items":[{"key":"k","path":"/abs"}]}}]})",
       "{}",
       "spec.volumes[0].secret.items[0].path: Invalid value: \"/abs\": must be a relative path"},
      {R"({"volumes":[{"name":"v","persistentVolumeClaim":{}}]})", "{}",
       "spec.volumes[0].persistentVolumeClaim.claimName: Required value"},
      {R"({"volumes":[{"name":"v","downwardAPI":{"items":[{"path":"x"}]}}]})", "{}",
       "spec.volumes[0].downwardAPI: Required value: one of fieldRef and resourceFieldRef is "
       "required"},
      {R"({"volumes":[{"name":"v","projected":{"sources":[{"serviceAccountToken":{"path":"t","expirationSeconds":60}}]}}],
          "serviceAccountName":"default"})",
       "{}",
       "spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid "
       "value: 60: may not specify a duration less than 10 minutes"},
      {R"({"volumes":[{"name":"v","projected":{"sources":[{"serviceAccountToken":{"path":"t"}}]}}]})",
       "{}",
       "spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be "
       "specified when serviceAccountName is not set"},
      {R"({"volumes":[{"name":"v","nfs":{"server":"s","path":"rel"}}]})", "{}",
       "spec.volumes[0].nfs.path: Invalid value: \"rel\": must be an absolute path"},
      {R"({"ephemeralContainers":[{"name":"debug","image":"busybox"}]})", "{}",
       "spec.ephemeralContainers: Forbidden: cannot be set on create"},
      {R"({"schedulingGates":[{"name":"wait"}],"nodeName":"n1"})", "{}",
       "spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared"},
      {R"({"hostNetwork":true})", R"({"ports":[{"containerPort":80,"hostPort":81}]})",
       "spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when "
       "`hostNetwork` is true"},
      {R"({"preemptionPolicy":"Sometimes"})", "{}",
       "spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: "
       "\"PreemptLowerPriority\", \"Never\""},
      {R"({"os":{"name":"plan9"}})", "{}",
       "spec.os: Unsupported value: \"plan9\": supported values: \"linux\", \"windows\""},
      {R"({"overhead":{"cpu":"-1"}})", "{}",
       "spec.overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.message);
    json::object pod = pod_with(c.spec, c.container);
    const auto errs = validate_pod_create(pod);
    EXPECT_TRUE(has_message(errs, c.message)) << messages(errs);
  }
}

TEST(PodValidation, UndefaultedSpecNeedsTheDefaultedFields) {
  const json::object spec = obj(R"({"containers":[{"name":"c","image":"i"}]})");
  const auto errs = validate_pod_spec(spec, "p", "spec", PodValidationOptions{});
  for (const char* m :
       {"spec.terminationGracePeriodSeconds: Required value", "spec.restartPolicy: Required value",
        "spec.dnsPolicy: Required value", "spec.containers[0].imagePullPolicy: Required value",
        "spec.containers[0].terminationMessagePolicy: Required value"}) {
    EXPECT_TRUE(has_message(errs, m)) << m << "\n" << messages(errs);
  }
}

TEST(PodValidation, Annotations) {
  struct AnnotationCase {
    const char* meta;
    const char* message;
  };
  const std::vector<AnnotationCase> cases = {
      {R"({"annotations":{"controller.kubernetes.io/pod-deletion-cost":"abc"}})",
       "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "
       "\"abc\": must be a 32bit integer"},
      {R"({"annotations":{"controller.kubernetes.io/pod-deletion-cost":"+5"}})",
       "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "
       "\"+5\": must be a 32bit integer"},
      {R"({"annotations":{"controller.kubernetes.io/pod-deletion-cost":"2147483648"}})",
       "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "
       "\"2147483648\": must be a 32bit integer"},
      {R"({"annotations":{"kubernetes.io/config.mirror":"x"}})",
       "metadata.annotations[kubernetes.io/config.mirror]: Invalid value: \"x\": must set "
       "spec.nodeName if mirror pod annotation is set"},
      {R"({"annotations":{"seccomp.security.alpha.kubernetes.io/pod":"strict"}})",
       "metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "
       "\"strict\": must be a valid seccomp profile"},
      {R"({"annotations":{"container.apparmor.security.beta.kubernetes.io/other":"unconfined"}})",
       "metadata.annotations[container.apparmor.security.beta.kubernetes.io/other]: Invalid "
       "value: \"other\": container not found"},
      {R"({"finalizers":["mine"]})",
       "metadata.finalizers[0]: Invalid value: \"mine\": name is neither a standard finalizer "
       "name nor is it fully qualified"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.message);
    const auto errs = validate_pod_create(pod_with("{}", "{}", c.meta));
    EXPECT_TRUE(has_message(errs, c.message)) << messages(errs);
  }
  for (const char* ok : {"-2147483648", "0", "2147483647", "-5"}) {
    json::object pod = pod_with("{}", "{}");
    pod["metadata"].as_object()["annotations"] =
        json::object{{"controller.kubernetes.io/pod-deletion-cost", ok}};
    EXPECT_TRUE(validate_pod_create(pod).empty()) << ok;
  }
}

TEST(PodValidation, TemplateRules) {
  json::object tmpl = obj(R"({"metadata":{"labels":{"app":"x"}},
    "spec":{"containers":[{"name":"c","image":" spaced "}],
            "ephemeralContainers":[{"name":"e","image":"i"}]}})");
  apply_pod_template_defaults(tmpl);
  const auto errs = validate_pod_template_spec(tmpl, "spec.template", PodValidationOptions{});
  // Image whitespace is only checked in pods; ephemeral containers are refused.
  EXPECT_FALSE(has_message(errs,
                           "spec.template.spec.containers[0].image: Invalid value: \" "
                           "spaced \": must not have leading or trailing whitespace"));
  EXPECT_TRUE(has_message(errs,
                          "spec.template.spec.ephemeralContainers: Forbidden: ephemeral "
                          "containers not allowed in pod template"))
      << messages(errs);
}

}  // namespace
}  // namespace kcm::local::registry
