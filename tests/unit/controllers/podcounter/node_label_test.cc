#include "controllers/podcounter/node_label.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace kcm::controllers::podcounter {
namespace {

// A node with the given labels (JSON object text).
cache::ObjectPtr node(const std::string& labels = "{}") {
  auto n = cache::CachedObject::from_json(boost::json::parse(
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","uid":"u1","labels":)" + labels +
      "}}"));
  EXPECT_TRUE(n.ok()) << n.error();
  return *n;
}

const std::string kControlPlane = R"({"node-role.kubernetes.io/control-plane":""})";

TEST(NodeLabel, ControlPlaneIsTheRoleLabelWhateverItsValue) {
  EXPECT_TRUE(is_control_plane_node(*node(kControlPlane)));
  EXPECT_TRUE(is_control_plane_node(*node(R"({"node-role.kubernetes.io/control-plane":"true"})")));
  EXPECT_FALSE(is_control_plane_node(*node()));
  EXPECT_FALSE(is_control_plane_node(*node(R"({"node-role.kubernetes.io/master":""})")));
  EXPECT_FALSE(is_control_plane_node(*node(R"({"node-role.kubernetes.io/worker":""})")));
}

TEST(NodeLabel, WantedLabel) {
  EXPECT_EQ(wanted_pod_count_label(*node(kControlPlane), 0), "0");
  EXPECT_EQ(wanted_pod_count_label(*node(kControlPlane), 12345), "12345");
  EXPECT_EQ(wanted_pod_count_label(*node(), 7), std::nullopt);
  EXPECT_EQ(wanted_pod_count_label(*node(R"({"kcm.dev/pod-count":"7"})"), 7), std::nullopt);
}

TEST(NodeLabel, PatchOnlyWhenWrong) {
  const struct {
    std::string name;
    std::string labels;
    std::size_t pods;
    std::optional<std::string> patch;
  } cases[] = {
      {"control plane without the label", kControlPlane, 3,
       R"({"metadata":{"labels":{"kcm.dev/pod-count":"3"}}})"},
      {"control plane with zero pods", kControlPlane, 0,
       R"({"metadata":{"labels":{"kcm.dev/pod-count":"0"}}})"},
      {"control plane, right",
       R"({"node-role.kubernetes.io/control-plane":"","kcm.dev/pod-count":"3"})", 3, std::nullopt},
      {"control plane, stale count",
       R"({"node-role.kubernetes.io/control-plane":"","kcm.dev/pod-count":"2"})", 3,
       R"({"metadata":{"labels":{"kcm.dev/pod-count":"3"}}})"},
      {"control plane, edited by hand",
       R"({"node-role.kubernetes.io/control-plane":"","kcm.dev/pod-count":"lots"})", 10,
       R"({"metadata":{"labels":{"kcm.dev/pod-count":"10"}}})"},
      {"control plane, empty value",
       R"({"node-role.kubernetes.io/control-plane":"","kcm.dev/pod-count":""})", 0,
       R"({"metadata":{"labels":{"kcm.dev/pod-count":"0"}}})"},
      {"worker without the label", "{}", 3, std::nullopt},
      {"worker with other labels", R"({"kubernetes.io/os":"linux"})", 3, std::nullopt},
      {"worker that lost the role keeps a stale label", R"({"kcm.dev/pod-count":"3"})", 3,
       R"({"metadata":{"labels":{"kcm.dev/pod-count":null}}})"},
      {"worker with an empty label", R"({"kcm.dev/pod-count":""})", 0,
       R"({"metadata":{"labels":{"kcm.dev/pod-count":null}}})"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(pod_count_label_patch(*node(c.labels), c.pods), c.patch) << c.name;
  }
}

TEST(NodeLabel, AddNeedsSyncForNodesThatHaveOrShouldHaveTheLabel) {
  EXPECT_TRUE(node_add_needs_sync(*node(kControlPlane)));
  EXPECT_TRUE(node_add_needs_sync(*node(R"({"kcm.dev/pod-count":"1"})")));
  EXPECT_FALSE(node_add_needs_sync(*node()));
  EXPECT_FALSE(node_add_needs_sync(*node(R"({"kubernetes.io/os":"linux"})")));
}

TEST(NodeLabel, UpdateNeedsSyncOnlyWhenTheRoleOrTheCountChanged) {
  const std::string cp3 = R"({"node-role.kubernetes.io/control-plane":"","kcm.dev/pod-count":"3"})";
  const struct {
    std::string name;
    std::string old_labels;
    std::string new_labels;
    bool needs_sync;
  } cases[] = {
      {"resync or heartbeat of a control plane", cp3, cp3, false},
      {"resync of a worker", "{}", "{}", false},
      {"unrelated label changed", cp3,
       R"({"node-role.kubernetes.io/control-plane":"","kcm.dev/pod-count":"3","x":"y"})", false},
      {"role value changed", kControlPlane, R"({"node-role.kubernetes.io/control-plane":"yes"})",
       false},
      {"count edited by hand", cp3,
       R"({"node-role.kubernetes.io/control-plane":"","kcm.dev/pod-count":"42"})", true},
      {"count removed by hand", cp3, kControlPlane, true},
      {"count added to a worker", "{}", R"({"kcm.dev/pod-count":"1"})", true},
      {"gained the role", "{}", kControlPlane, true},
      {"lost the role", cp3, R"({"kcm.dev/pod-count":"3"})", true},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(node_update_needs_sync(*node(c.old_labels), *node(c.new_labels)), c.needs_sync)
        << c.name;
  }
}

}  // namespace
}  // namespace kcm::controllers::podcounter
