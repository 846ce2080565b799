// core/v1 pod and pod template defaulting.
#include "local/registry/pod_defaults.h"

#include <gtest/gtest.h>

#include "local/registry/apps_defaults.h"
#include "local/registry/image_reference.h"
#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::load_data;
using testing::obj;

TEST(PodDefaults, MinimalPod) {
  json::object pod = obj(R"({"apiVersion":"v1","kind":"Pod",
    "metadata":{"name":"p","namespace":"default"},
    "spec":{"containers":[{"name":"c","image":"nginx"}]}})");
  apply_pod_defaults(pod);
  EXPECT_EQ(pod["spec"], obj(R"({
    "containers":[{"name":"c","image":"nginx","imagePullPolicy":"Always",
      "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
      "resources":{}}],
    "enableServiceLinks":true,
    "dnsPolicy":"ClusterFirst","restartPolicy":"Always","securityContext":{},
    "terminationGracePeriodSeconds":30,"schedulerName":"default-scheduler"})"));
}

TEST(PodDefaults, TemplateGetsSpecDefaultsButNotPodOnlyOnes) {
  json::object tmpl = obj(R"({"spec":{"containers":[{"name":"c","image":"nginx:1.25",
    "resources":{"limits":{"cpu":"500m"}}}]}})");
  apply_pod_template_defaults(tmpl);
  const json::object& spec = tmpl["spec"].as_object();
  EXPECT_EQ(tmpl["metadata"], json::object());
  EXPECT_FALSE(spec.contains("enableServiceLinks"));
  const json::object& c = spec.at("containers").as_array()[0].as_object();
  EXPECT_EQ(c.at("imagePullPolicy"), "IfNotPresent");
  // Requests default to limits only in Pods.
  EXPECT_FALSE(c.at("resources").as_object().contains("requests"));
}

TEST(PodDefaults, RequestsFromLimitsInPods) {
  json::object pod = obj(R"({"spec":{"containers":[{"name":"c","image":"i",
    "resources":{"limits":{"cpu":"0.5","memory":"128Mi"},"requests":{"cpu":"100m"}}}],
    "initContainers":[{"name":"i","image":"i","resources":{"limits":{"cpu":1}}}]}})");
  apply_pod_defaults(pod);
  const auto& c = pod["spec"].as_object()["containers"].as_array()[0].as_object();
  EXPECT_EQ(c.at("resources"), obj(R"({"limits":{"cpu":"500m","memory":"128Mi"},
                                        "requests":{"cpu":"100m","memory":"128Mi"}})"));
  const auto& i = pod["spec"].as_object()["initContainers"].as_array()[0].as_object();
  EXPECT_EQ(i.at("resources"), obj(R"({"limits":{"cpu":"1"},"requests":{"cpu":"1"}})"));
}

TEST(PodDefaults, QuantitiesRoundUpToMilliAndCanonicalize) {
  json::object pod = obj(R"({"spec":{"containers":[{"name":"c","image":"i",
    "resources":{"limits":{"cpu":"0.0001","memory":"1024Mi","example.com/gpu":2},
                 "requests":{"cpu":"1.5","memory":"bogus"}}}]}})");
  apply_pod_defaults(pod);
  const auto& r = pod["spec"].as_object()["containers"].as_array()[0].as_object().at("resources");
  EXPECT_EQ(r, obj(R"({"limits":{"cpu":"1m","memory":"1Gi","example.com/gpu":"2"},
                       "requests":{"cpu":"1500m","memory":"bogus","example.com/gpu":"2"}})"));
}

TEST(PodDefaults, ProbesPortsEnvAndLifecycle) {
  json::object pod = obj(R"({"spec":{"containers":[{"name":"c","image":"i:latest",
    "ports":[{"containerPort":80},{"containerPort":53,"protocol":"UDP"}],
    "env":[{"name":"NODE","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}}],
    "livenessProbe":{"httpGet":{"port":8080},"timeoutSeconds":0,"periodSeconds":5},
    "readinessProbe":{"grpc":{"port":9000}},
    "lifecycle":{"preStop":{"httpGet":{"port":80,"path":"/quit"}}}}]}})");
  apply_pod_defaults(pod);
  const auto& c = pod["spec"].as_object()["containers"].as_array()[0].as_object();
  EXPECT_EQ(c.at("imagePullPolicy"), "Always");
  EXPECT_EQ(c.at("ports"), json::parse(R"([{"containerPort":80,"protocol":"TCP"},
                                           {"containerPort":53,"protocol":"UDP"}])"));
  EXPECT_EQ(c.at("env").as_array()[0].at("valueFrom"),
            json::parse(R"({"fieldRef":{"fieldPath":"spec.nodeName","apiVersion":"v1"}})"));
  // An explicit 0 is Go's zero value and gets the default too.
  EXPECT_EQ(c.at("livenessProbe"),
            json::parse(R"({"httpGet":{"port":8080,"path":"/","scheme":"HTTP"},
                            "timeoutSeconds":1,"periodSeconds":5,"successThreshold":1,
                            "failureThreshold":3})"));
  EXPECT_EQ(c.at("readinessProbe"),
            json::parse(R"({"grpc":{"port":9000,"service":""},"timeoutSeconds":1,
                            "periodSeconds":10,"successThreshold":1,"failureThreshold":3})"));
  EXPECT_EQ(c.at("lifecycle"),
            json::parse(R"({"preStop":{"httpGet":{"port":80,"path":"/quit","scheme":"HTTP"}}})"));
}

TEST(PodDefaults, Volumes) {
  json::object pod = obj(R"({"spec":{"containers":[{"name":"c","image":"i"}],"volumes":[
    {"name":"a"},
    {"name":"b","hostPath":{"path":"/var"}},
    {"name":"c","secret":{"secretName":"s"}},
    {"name":"d","configMap":{"name":"cm","defaultMode":256}},
    {"name":"e","downwardAPI":{"items":[{"path":"l","fieldRef":{"fieldPath":"metadata.labels"}}]}},
    {"name":"f","projected":{"sources":[{"serviceAccountToken":{"path":"token"}},
      {"downwardAPI":{"items":[{"path":"n","fieldRef":{"fieldPath":"metadata.name"}}]}}]}},
    {"name":"g","emptyDir":{"sizeLimit":"1.5Gi"}},
    {"name":"h","ephemeral":{"volumeClaimTemplate":{"spec":{"accessModes":["ReadWriteOnce"],
      "resources":{"requests":{"storage":"1024Mi"}}}}}}]}})");
  apply_pod_defaults(pod);
  EXPECT_EQ(pod["spec"].as_object()["volumes"], json::parse(R"([
    {"name":"a","emptyDir":{}},
    {"name":"b","hostPath":{"path":"/var","type":""}},
    {"name":"c","secret":{"secretName":"s","defaultMode":420}},
    {"name":"d","configMap":{"name":"cm","defaultMode":256}},
    {"name":"e","downwardAPI":{"items":[{"path":"l","fieldRef":{"fieldPath":"metadata.labels",
      "apiVersion":"v1"}}],"defaultMode":420}},
    {"name":"f","projected":{"sources":[{"serviceAccountToken":{"path":"token",
      "expirationSeconds":3600}},{"downwardAPI":{"items":[{"path":"n","fieldRef":{
      "fieldPath":"metadata.name","apiVersion":"v1"}}]}}],"defaultMode":420}},
    {"name":"g","emptyDir":{"sizeLimit":"1536Mi"}},
    {"name":"h","ephemeral":{"volumeClaimTemplate":{"spec":{"accessModes":["ReadWriteOnce"],
      "resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Filesystem"}}}}])"));
}

TEST(PodDefaults, HostNetworkPortsAndServiceAccountAlias) {
  json::object pod = obj(R"({"spec":{"hostNetwork":true,"serviceAccount":"builder",
    "containers":[{"name":"c","image":"i","ports":[{"containerPort":8080},
                                                   {"containerPort":9090,"hostPort":9091}]}]}})");
  apply_pod_defaults(pod);
  const auto& spec = pod["spec"].as_object();
  EXPECT_EQ(spec.at("serviceAccountName"), "builder");
  EXPECT_EQ(spec.at("serviceAccount"), "builder");
  const auto& ports = spec.at("containers").as_array()[0].at("ports").as_array();
  EXPECT_EQ(ports[0].at("hostPort"), 8080);
  EXPECT_EQ(ports[1].at("hostPort"), 9091);
}

TEST(PodDefaults, StatusIpsMirror) {
  json::object pod = obj(R"({"spec":{"containers":[]},"status":{"podIP":"10.0.0.5",
    "hostIPs":[{"ip":"192.168.1.2"}]}})");
  apply_pod_defaults(pod);
  EXPECT_EQ(pod["status"], obj(R"({"podIP":"10.0.0.5","podIPs":[{"ip":"10.0.0.5"}],
                                   "hostIPs":[{"ip":"192.168.1.2"}],"hostIP":"192.168.1.2"})"));
}

TEST(PodDefaults, PodLevelResources) {
  json::object pod = obj(R"({"spec":{"resources":{"limits":{"cpu":"2","memory":"1Gi"}},
    "containers":[{"name":"a","image":"i","resources":{"requests":{"cpu":"500m"}}},
                  {"name":"b","image":"i","resources":{"requests":{"cpu":"250m"}}}]}})");
  apply_pod_defaults(pod);
  // Container requests add up; memory, requested by no container, takes the limit.
  EXPECT_EQ(pod["spec"].as_object()["resources"], obj(R"({"limits":{"cpu":"2","memory":"1Gi"},
                    "requests":{"cpu":"750m","memory":"1Gi"}})"));
}

TEST(PodDefaults, Idempotent) {
  const json::value typical = load_data("pod-typical.json");
  json::object pod = typical.as_object();
  apply_pod_defaults(pod);
  json::object again = pod;
  apply_pod_defaults(again);
  EXPECT_EQ(again, pod);

  json::object d = obj(R"({"spec":{"template":{"spec":{"containers":[{"name":"c","image":"i",
    "livenessProbe":{"exec":{"command":["true"]}}}]}}}})");
  apply_deployment_defaults(d);
  json::object d2 = d;
  apply_deployment_defaults(d2);
  EXPECT_EQ(d2, d);
}

TEST(ImageReference, PullPolicyFollowsTheTag) {
  struct Case {
    const char* image;
    const char* tag;
  };
  const Case cases[] = {
      {"nginx", "latest"},
      {"nginx:latest", "latest"},
      {"nginx:1.25", "1.25"},
      {"docker.io/library/nginx:1.25", "1.25"},
      {"localhost:5000/app", "latest"},
      {"localhost:5000/app:v2", "v2"},
      {"registry.example.com:443/team/app:latest", "latest"},
      {"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", ""},
      {"nginx:1.2@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "1.2"},
      {"Nginx", ""},   // repository names are lower case: does not parse
      {"", ""},        // empty: does not parse
      {"nginx:", ""},  // empty tag
      {"my-registry/My-App", ""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(image_tag(c.image), c.tag) << c.image;
  }
  EXPECT_EQ(default_pull_policy("nginx"), "Always");
  EXPECT_EQ(default_pull_policy("nginx:1.25"), "IfNotPresent");
  EXPECT_EQ(default_pull_policy("Nginx"), "IfNotPresent");
}

}  // namespace
}  // namespace kcm::local::registry
