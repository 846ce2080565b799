// kcm-local keeps every acknowledged write across kill -9, continues the
// resourceVersion sequence, and lets watches resume (or answers 410 once the
// history is compacted).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "local_cluster.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string configmap_like_pod(int i) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p" + std::to_string(i) +
         "\n  labels: {i: \"" + std::to_string(i) +
         "\"}\nspec:\n  containers:\n  - name: c\n"
         "    image: busybox\n";
}

class RestartTest : public ::testing::Test {
 protected:
  LocalCluster cluster_;
  Kubectl kubectl_{cluster_};

  std::string ok(const std::vector<std::string>& args, const std::string& input = {}) {
    CommandResult r = kubectl_(args, input);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return r.out;
  }

  // The resourceVersion of the pod list (kubectl's -o jsonpath sees its own List wrapper).
  std::string list_revision() {
    const std::string list = ok({"get", "--raw", "/api/v1/namespaces/default/pods"});
    std::smatch m;
    static const std::regex re(R"re("resourceVersion":"(\d+)")re");
    if (!std::regex_search(list, m, re)) return "missing";
    return m[1];
  }
};

TEST_F(RestartTest, ObjectsSurviveKill9) {
  for (int i = 0; i < 20; ++i)
    ok({"create", "-f", "-"}, configmap_like_pod(i));
  ok({"label", "pod", "p3", "changed=yes"});
  ok({"delete", "pod", "p4", "--wait=false"});
  const std::string before =
      ok({"get", "pods", "-o",
          "jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion}/{.metadata.uid} "
          "{end}"});
  const std::string list_rv = list_revision();

  cluster_.kill();
  cluster_.start();

  const std::string after =
      ok({"get", "pods", "-o",
          "jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion}/{.metadata.uid} "
          "{end}"});
  EXPECT_EQ(after, before);
  EXPECT_EQ(ok({"get", "pod", "p3", "-o", "jsonpath={.metadata.labels.changed}"}), "yes");
  EXPECT_NE(kubectl_({"get", "pod", "p4"}).exit_code, 0);
  // The sequence continues after the last revision.
  ok({"create", "-f", "-"}, configmap_like_pod(100));
  const std::string rv = ok({"get", "pod", "p100", "-o", "jsonpath={.metadata.resourceVersion}"});
  EXPECT_GT(std::stoull(rv), std::stoull(list_rv));
}

TEST_F(RestartTest, WatchResumesFromAnOldResourceVersionAfterRestart) {
  ok({"create", "-f", "-"}, configmap_like_pod(1));
  const std::string rv = list_revision();
  ok({"label", "pod", "p1", "after=1"});
  ok({"create", "-f", "-"}, configmap_like_pod(2));

  cluster_.kill();
  cluster_.start();

  const std::string events =
      ok({"get", "--raw",
          "/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1&resourceVersion=" + rv});
  EXPECT_THAT(events, HasSubstr(R"({"type":"MODIFIED")"));
  EXPECT_THAT(events, HasSubstr(R"("after":"1")"));
  EXPECT_THAT(events, HasSubstr(R"({"type":"ADDED")"));
  EXPECT_THAT(events, HasSubstr(R"("name":"p2")"));
  EXPECT_THAT(events, Not(HasSubstr("ERROR")));
}

TEST_F(RestartTest, CompactedHistoryAnswersGone) {
  ok({"create", "-f", "-"}, configmap_like_pod(1));
  const std::string rv = list_revision();
  ok({"label", "pod", "p1", "after=1"});
  ok({"create", "--raw", "/kcm-local/compact", "-f", "-"}, "{}");
  const std::string events =
      ok({"get", "--raw",
          "/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1&resourceVersion=" + rv});
  EXPECT_THAT(events, HasSubstr(R"({"type":"ERROR","object":{"kind":"Status")"));
  EXPECT_THAT(events, HasSubstr(R"("reason":"Expired","code":410)"));
}

TEST_F(RestartTest, CleanShutdownAndRestartKeepsEverything) {
  for (int i = 0; i < 5; ++i)
    ok({"create", "-f", "-"}, configmap_like_pod(i));
  EXPECT_EQ(cluster_.stop(), 0);
  cluster_.start();
  EXPECT_EQ(ok({"get", "pods", "-o", "name"}), "pod/p0\npod/p1\npod/p2\npod/p3\npod/p4\n");
}

// What Services hold is read back from the store after a kill -9: their
// addresses stay theirs, and the kubernetes Service is not created twice.
TEST_F(RestartTest, ServiceAddressesStayTakenAcrossKill9) {
  ok({"create", "service", "nodeport", "kept", "--tcp=80", "--node-port=30010"});
  const std::string ip = ok({"get", "service", "kept", "-o", "jsonpath={.spec.clusterIP}"});
  const std::string kubernetes_uid =
      ok({"get", "service", "kubernetes", "-o", "jsonpath={.metadata.uid}"});

  cluster_.kill();
  cluster_.start();

  EXPECT_EQ(ok({"get", "service", "kept", "-o", "jsonpath={.spec.clusterIP}"}), ip);
  EXPECT_EQ(ok({"get", "service", "kubernetes", "-o", "jsonpath={.metadata.uid}"}), kubernetes_uid);
  const CommandResult same_ip =
      kubectl_({"create", "service", "clusterip", "other", "--tcp=80", "--clusterip=" + ip});
  EXPECT_EQ(same_ip.exit_code, 1);
  EXPECT_THAT(same_ip.err, HasSubstr("provided IP is already allocated"));
  const CommandResult same_port =
      kubectl_({"create", "service", "nodeport", "other", "--tcp=80", "--node-port=30010"});
  EXPECT_EQ(same_port.exit_code, 1);
  EXPECT_THAT(same_port.err, HasSubstr("provided port is already allocated"));
}

}  // namespace
}  // namespace kcm::e2e
