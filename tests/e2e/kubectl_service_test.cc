// Services with every bundled kubectl: create service (each type), expose,
// get (-o wide), describe, apply twice, a type change by patch, delete, the
// `kubernetes` Service of the default namespace, and the refusals of
// allocation and validation with upstream's words.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubectl_clients.h"
#include "local_cluster.h"
#include "subprocess.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

class KubectlServiceTest : public ClientTest {
 protected:
  std::string service_field(const std::string& name, const std::string& path) {
    return jsonpath("service/" + name, path);
  }
  // Node ports are the cluster's, shared by the kubectl versions' tests: each
  // version asks for its own, in the static band (30000-30085) that dynamic
  // allocation leaves alone, so no other test's Service can hold them.
  std::string node_port(int k) const { return std::to_string(30000 + (minor() % 20) * 4 + k); }
};

constexpr const char* kClusterIp = R"(10\.(9[6-9]|10[0-9]|11[01])\.[0-9]+\.[0-9]+)";

TEST_P(KubectlServiceTest, CreateEachTypeAndGet) {
  EXPECT_EQ(ok({"create", "service", "clusterip", "web", "--tcp=80:8080"}).out,
            "service/web created\n");
  EXPECT_EQ(
      ok({"create", "service", "nodeport", "np", "--tcp=80:8080", "--node-port=" + node_port(0)})
          .out,
      "service/np created\n");
  EXPECT_EQ(ok({"create", "service", "loadbalancer", "lb", "--tcp=443"}).out,
            "service/lb created\n");
  EXPECT_EQ(
      ok({"create", "service", "externalname", "ext", "--external-name", "db.example.com"}).out,
      "service/ext created\n");
  EXPECT_EQ(ok({"create", "service", "clusterip", "headless", "--clusterip=None"}).out,
            "service/headless created\n");

  const PrintedTable table = mask_ages(parse_table(ok({"get", "services", "-o", "wide"}).out));
  ASSERT_TRUE(table.ok);
  EXPECT_EQ(table.header, (std::vector<std::string>{"NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP",
                                                    "PORT(S)", "AGE", "SELECTOR"}));
  const std::vector<std::string> rows = row_strings(table);
  ASSERT_EQ(rows.size(), 5u) << ::testing::PrintToString(rows);
  // Sorted by name: ext, headless, lb, np, web.
  EXPECT_EQ(rows[0], "ext|ExternalName|<none>|db.example.com|<none>|<age>|app=ext");
  EXPECT_EQ(rows[1], "headless|ClusterIP|None|<none>|<none>|<age>|app=headless");
  EXPECT_THAT(rows[2], MatchesRegex(std::string("lb\\|LoadBalancer\\|") + kClusterIp +
                                    R"(\|<pending>\|443:3[0-9]{4}/TCP\|<age>\|app=lb)"));
  EXPECT_THAT(rows[3], MatchesRegex(std::string("np\\|NodePort\\|") + kClusterIp +
                                    "\\|<none>\\|80:" + node_port(0) + R"(/TCP\|<age>\|app=np)"));
  EXPECT_THAT(rows[4], MatchesRegex(std::string("web\\|ClusterIP\\|") + kClusterIp +
                                    R"(\|<none>\|80/TCP\|<age>\|app=web)"));

  EXPECT_EQ(service_field("web",
                          "{.spec.ipFamilyPolicy} {.spec.ipFamilies} "
                          "{.spec.ports[0].targetPort} {.spec.sessionAffinity}"),
            R"(SingleStack ["IPv4"] 8080 None)");
  EXPECT_EQ(service_field("web", "{.spec.clusterIP}"),
            service_field("web", "{.spec.clusterIPs[0]}"));
  // Field selectors on spec.type, as upstream's.
  EXPECT_EQ(ok({"get", "services", "--field-selector=spec.type=NodePort", "-o", "name"}).out,
            "service/np\n");
}

TEST_P(KubectlServiceTest, AllocationRefusals) {
  ok({"create", "service", "nodeport", "first", "--tcp=80", "--node-port=" + node_port(1)});
  const CommandResult taken =
      run({"create", "service", "nodeport", "second", "--tcp=80", "--node-port=" + node_port(1)});
  EXPECT_EQ(taken.exit_code, 1);
  EXPECT_THAT(taken.err,
              HasSubstr(R"(Service "second" is invalid: spec.ports[0].nodePort: Invalid value: )" +
                        node_port(1) + ": provided port is already allocated"));

  const std::string ip = service_field("first", "{.spec.clusterIP}");
  const CommandResult same_ip =
      run({"create", "service", "clusterip", "third", "--tcp=80", "--clusterip=" + ip});
  EXPECT_EQ(same_ip.exit_code, 1);
  EXPECT_THAT(same_ip.err,
              HasSubstr("spec.clusterIPs: Invalid value: []string{\"" + ip +
                        "\"}: failed to allocate IP " + ip + ": provided IP is already allocated"));

  const CommandResult bad_port = run({"apply", "-f", "-"}, R"(apiVersion: v1
kind: Service
metadata:
  name: bad
spec:
  ports:
  - port: 70000
)");
  EXPECT_EQ(bad_port.exit_code, 1);
  EXPECT_THAT(bad_port.err, HasSubstr("spec.ports[0].port: Invalid value: 70000: must be between "
                                      "1 and 65535, inclusive"));
  const CommandResult bad_name = run({"create", "service", "clusterip", "9lives", "--tcp=80"});
  EXPECT_EQ(bad_name.exit_code, 1);
  EXPECT_THAT(bad_name.err, HasSubstr("a DNS-1035 label must consist of lower case alphanumeric"));
}

TEST_P(KubectlServiceTest, ExposeApplyPatchDescribeDelete) {
  create(deployment_yaml("app"));
  EXPECT_EQ(ok({"expose", "deployment", "app", "--port=80", "--target-port=8080"}).out,
            "service/app exposed\n");
  EXPECT_EQ(service_field("app", "{.spec.selector.app} {.spec.ports[0].targetPort}"), "app 8080");

  const std::string describe = ok({"describe", "service", "app"}).out;
  EXPECT_THAT(describe, HasLine(R"(Name:\s+app)"));
  EXPECT_THAT(describe, HasLine(R"(Selector:\s+app=app)"));
  EXPECT_THAT(describe, HasLine(R"(Type:\s+ClusterIP)"));
  EXPECT_THAT(describe, HasLine(R"(IP Family Policy:\s+SingleStack)"));
  EXPECT_THAT(describe, HasLine(R"(IP Families:\s+IPv4)"));
  EXPECT_THAT(describe, HasLine(std::string(R"(IP:\s+)") + kClusterIp));
  EXPECT_THAT(describe, HasLine(R"(Port:\s+<unset>\s+80/TCP)"));
  EXPECT_THAT(describe, HasLine(R"(TargetPort:\s+8080/TCP)"));
  EXPECT_THAT(describe, HasLine(R"(Session Affinity:\s+None)"));
  EXPECT_THAT(describe, HasLine(R"(Events:\s+<none>)"));

  // A manifest applied twice keeps its allocated address.
  const std::string manifest = R"(apiVersion: v1
kind: Service
metadata:
  name: applied
spec:
  selector:
    app: app
  ports:
  - name: http
    port: 80
)";
  EXPECT_EQ(ok({"apply", "-f", "-"}, manifest).out, "service/applied created\n");
  const std::string ip = service_field("applied", "{.spec.clusterIP}");
  EXPECT_EQ(ok({"apply", "-f", "-"}, manifest).out, "service/applied unchanged\n");
  EXPECT_EQ(service_field("applied", "{.spec.clusterIP}"), ip);

  // ClusterIP -> NodePort by patch allocates a node port and keeps the address.
  ok({"patch", "service", "applied", "-p", R"({"spec":{"type":"NodePort"}})"});
  EXPECT_EQ(service_field("applied", "{.spec.clusterIP}"), ip);
  EXPECT_THAT(service_field("applied", "{.spec.ports[0].nodePort}"), MatchesRegex("3[0-9]{4}"));
  EXPECT_EQ(service_field("applied", "{.spec.externalTrafficPolicy}"), "Cluster");

  EXPECT_EQ(ok({"delete", "service", "app", "applied"}).out,
            "service \"app\" deleted\nservice \"applied\" deleted\n");
  EXPECT_EQ(ok({"get", "services", "-o", "name"}).out, "");
}

TEST_P(KubectlServiceTest, TheKubernetesServiceOfTheDefaultNamespace) {
  const PrintedTable table =
      mask_ages(parse_table(ok({"get", "service", "kubernetes", "-n", "default"}).out));
  EXPECT_EQ(row_strings(table),
            (std::vector<std::string>{"kubernetes|ClusterIP|10.96.0.1|<none>|443/TCP|<age>"}));
  EXPECT_EQ(ok({"get", "service", "kubernetes", "-n", "default", "-o",
                "jsonpath={.metadata.labels.component} {.spec.ports[0].name} "
                "{.spec.ports[0].targetPort}"})
                .out,
            "apiserver https " + std::to_string(cluster().port()));
}

INSTANTIATE_TEST_SUITE_P(Kubectl, KubectlServiceTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KubectlServiceTest);

// kcm-local with its own ranges: the kubernetes Service takes the first
// address, and the node ports run out with upstream's 500.
TEST(KubectlServiceRangesTest, FlagsChooseTheRanges) {
  LocalCluster::Options o;
  o.extra_args = {"--nodes=0", "--service-cluster-ip-range=10.0.0.0/24",
                  "--service-node-port-range=31000-31001"};
  LocalCluster cluster(o);
  const Kubectl kubectl(cluster);
  const CommandResult ip = kubectl(
      {"get", "service", "kubernetes", "-n", "default", "-o", "jsonpath={.spec.clusterIP}"});
  EXPECT_EQ(ip.out, "10.0.0.1") << describe(ip);
  std::set<std::string> ports;
  for (const char* name : {"a", "b"}) {
    const CommandResult created = kubectl({"create", "service", "nodeport", name, "--tcp=80"});
    ASSERT_EQ(created.exit_code, 0) << describe(created);
    ports.insert(kubectl({"get", "service", name, "-o", "jsonpath={.spec.ports[0].nodePort}"}).out);
  }
  EXPECT_EQ(ports, (std::set<std::string>{"31000", "31001"}));
  const CommandResult full = kubectl({"create", "service", "nodeport", "c", "--tcp=80"});
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_THAT(full.err, HasSubstr("Internal error occurred: failed to allocate a nodePort: range "
                                  "is full"));
}

TEST(KubectlServiceRangesTest, BadRangesStopKcmLocalWithTheReason) {
  const CommandResult r = run_command({std::string(KCM_BIN_DIR) + "/kcm-local", "--data-dir",
                                       ::testing::TempDir() + "kcm-local-bad-range",
                                       "--service-cluster-ip-range=10.0.0.0/8"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("kcm-local: --service-cluster-ip-range 10.0.0.0/8: too large; for "
                               "32-bit addresses, the mask must be >= 12"));
}

}  // namespace
}  // namespace kcm::e2e
