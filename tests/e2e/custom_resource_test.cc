// CustomResourceDefinitions served by kcm-local, driven by every bundled
// kubectl: a CRD becomes Established and its resource appears in discovery;
// custom objects are created, listed with the CRD's printer columns, patched
// (merge and JSON patches; strategic merge is refused as upstream does),
// updated through the status subresource, validated against the schema with
// field paths, and deleted with their CRD.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "kubectl_clients.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;

class CustomResourceTest : public ClientTest {
 protected:
  // A group of the test's own, so that clients do not share CRDs.
  std::string group() const {
    std::string label = "c" + client().name;  // "c1_30": a DNS label once '_' is '-'
    std::replace(label.begin(), label.end(), '_', '-');
    return label + ".e2e.kcm.dev";
  }
  std::string crd_name() const { return "widgets." + group(); }

  std::string crd_yaml() const {
    return "apiVersion: apiextensions.k8s.io/v1\n"
           "kind: CustomResourceDefinition\n"
           "metadata:\n  name: " +
           crd_name() + "\nspec:\n  group: " + group() +
           "\n  scope: Namespaced\n"
           "  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wdg]}\n"
           "  versions:\n"
           "  - name: v1\n    served: true\n    storage: true\n"
           "    subresources:\n      status: {}\n"
           "    additionalPrinterColumns:\n"
           "    - {name: Size, type: integer, jsonPath: .spec.size}\n"
           "    - {name: Color, type: string, jsonPath: .spec.color}\n"
           "    - {name: State, type: string, jsonPath: .status.state}\n"
           "    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n"
           "          spec:\n            type: object\n            required: [size]\n"
           "            properties:\n"
           "              size: {type: integer, minimum: 1, maximum: 10}\n"
           "              color: {type: string, enum: [red, blue], default: red}\n"
           "          status:\n            type: object\n            properties:\n"
           "              state: {type: string}\n";
  }
  std::string widget_yaml(const std::string& name, const std::string& spec) const {
    return "apiVersion: " + group() + "/v1\nkind: Widget\nmetadata:\n  name: " + name +
           "\nspec: " + spec + "\n";
  }
  // The resource name kubectl takes: the plural qualified by the group.
  std::string widgets() const { return "widgets." + group(); }
};

TEST_P(CustomResourceTest, ServesValidatesAndDeletesCustomObjects) {
  ok({"apply", "-f", "-"}, crd_yaml());
  ok({"wait", "--for=condition=Established", "crd/" + crd_name(), "--timeout=30s"});
  EXPECT_EQ(ok({"get", "crd", crd_name(), "-o",
                "jsonpath={.status.acceptedNames.kind} {.status.storedVersions}"})
                .out,
            "Widget [\"v1\"]");
  EXPECT_THAT(ok({"api-resources", "--api-group=" + group()}).out,
              HasLine("widgets +wdg +" + group() + "/v1 +true +Widget"));

  // Created through kubectl's validating path, defaults from the schema.
  ok({"apply", "-f", "-"}, widget_yaml("w1", "{size: 3}"));
  ok({"create", "-f", "-"}, widget_yaml("w2", "{size: 5, color: blue}"));
  EXPECT_EQ(jsonpath(widgets() + "/w1", "{.spec.color} {.metadata.generation}"), "red 1");
  // The CRD's columns only: AGE is added just when a version declares none.
  expect_table(ok({"get", widgets()}).out, {"NAME", "SIZE", "COLOR", "STATE"},
               {"w1|3|red|", "w2|5|blue|"});

  // Spec changes bump the generation; status goes through its subresource only.
  ok({"patch", widgets(), "w1", "--type=merge", "-p", R"({"spec":{"size":4}})"});
  ok({"patch", widgets(), "w1", "--type=json", "-p",
      R"([{"op":"replace","path":"/spec/color","value":"blue"}])"});
  ok({"patch", widgets(), "w1", "--subresource=status", "--type=merge", "-p",
      R"({"status":{"state":"Ready"},"spec":{"size":9}})"});
  ok({"patch", widgets(), "w1", "--type=merge", "-p", R"({"status":{"state":"Ignored"}})"});
  EXPECT_EQ(jsonpath(widgets() + "/w1",
                     "{.spec.size} {.spec.color} {.status.state} "
                     "{.metadata.generation}"),
            "4 blue Ready 3");

  const CommandResult smp = run({"patch", widgets(), "w1", "-p", R"({"spec":{"size":2}})"});
  EXPECT_NE(smp.exit_code, 0);
  EXPECT_THAT(smp.err, HasSubstr("the body of the request was in an unknown format - accepted "
                                 "media types include: application/json-patch+json, "
                                 "application/merge-patch+json, application/apply-patch+yaml"));

  // Invalid objects: 422 with field paths; unknown fields refused (Strict).
  const CommandResult invalid =
      run({"create", "-f", "-"}, widget_yaml("bad", "{size: 11, color: green}"));
  EXPECT_NE(invalid.exit_code, 0);
  EXPECT_THAT(invalid.err, HasSubstr("The Widget \"bad\" is invalid"));
  EXPECT_THAT(invalid.err, HasSubstr("spec.size: Invalid value: 11: spec.size in body should be "
                                     "less than or equal to 10"));
  EXPECT_THAT(invalid.err, HasSubstr("spec.color: Unsupported value: \"green\": supported "
                                     "values: \"red\", \"blue\""));
  const CommandResult missing = run({"create", "-f", "-"}, widget_yaml("bad", "{color: red}"));
  EXPECT_THAT(missing.err, HasSubstr("spec.size: Required value"));
  const CommandResult unknown = run({"create", "--validate=strict", "-f", "-"},
                                    widget_yaml("bad", "{size: 1, shape: round}"));
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_THAT(unknown.err, HasSubstr("unknown field \"spec.shape\""));
  EXPECT_NE(run({"get", widgets(), "bad"}).exit_code, 0);

  // Deleting the CRD deletes its objects, then the CRD.
  ok({"delete", "crd", crd_name(), "--timeout=60s"});
  EXPECT_NE(run({"get", "crd", crd_name()}).exit_code, 0);
  const CommandResult gone = run({"get", "--raw", "/apis/" + group() + "/v1"});
  EXPECT_NE(gone.exit_code, 0);
}

INSTANTIATE_TEST_SUITE_P(Kubectl, CustomResourceTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CustomResourceTest);

// The EcsBind example's CRD (examples/ecsbind/crd.yaml) as a user applies it.
TEST(EcsBindCrdTest, ExampleCrdServesEcsBinds) {
  LocalCluster cluster;
  Kubectl kubectl(cluster);
  std::ifstream in(std::string(KCM_TEST_DATA_DIR) + "/../../examples/ecsbind/crd.yaml");
  std::stringstream crd;
  crd << in.rdbuf();
  ASSERT_FALSE(crd.str().empty());
  CommandResult r = kubectl({"apply", "-f", "-"}, crd.str());
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = kubectl({"wait", "--for=condition=Established", "crd/ecsbinds.ecsbind.kcm.dev"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = kubectl({"apply", "-f", "-"},
              "apiVersion: ecsbind.kcm.dev/v1\nkind: EcsBind\nmetadata:\n  name: web-1\n"
              "spec:\n  instanceId: i-0abc123\n  privateIP: 10.0.0.5\n");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = kubectl({"get", "eb"});
  expect_table(r.out, {"NAME", "INSTANCE", "IP", "NODE", "PHASE", "AGE"},
               {"web-1|i-0abc123|10.0.0.5|||<age>"});
  r = kubectl({"apply", "-f", "-"},
              "apiVersion: ecsbind.kcm.dev/v1\nkind: EcsBind\nmetadata:\n  name: web-2\n"
              "spec:\n  instanceId: I-BAD\n  privateIP: ten\n");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("spec.instanceId: Invalid value: \"I-BAD\": spec.instanceId in "
                               "body should match '^i-[0-9a-z]{1,32}$'"));
  EXPECT_THAT(r.err, HasSubstr("spec.privateIP: Invalid value: \"ten\": spec.privateIP in body "
                               "must be of type ipv4: \"ten\""));
}

}  // namespace
}  // namespace kcm::e2e

namespace kcm::e2e {
namespace {

// Two served versions sharing one storage version, the scale subresource
// through the CRD's paths, and a category, with the dispatcher kubectl.
TEST(CustomResourceVersionsTest, VersionsScaleAndCategories) {
  LocalCluster cluster;
  Kubectl kubectl(cluster);
  const std::string schema =
      "      schema:\n        openAPIV3Schema:\n          type: object\n"
      "          properties:\n"
      "            spec:\n              type: object\n              properties:\n"
      "                replicas: {type: integer}\n"
      "            status:\n              type: object\n              properties:\n"
      "                replicas: {type: integer}\n                selector: {type: string}\n";
  const std::string subresources =
      "      subresources:\n        status: {}\n        scale:\n"
      "          specReplicasPath: .spec.replicas\n"
      "          statusReplicasPath: .status.replicas\n"
      "          labelSelectorPath: .status.selector\n";
  const std::string crd =
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
      "metadata: {name: pools.scale.e2e.kcm.dev}\n"
      "spec:\n  group: scale.e2e.kcm.dev\n  scope: Namespaced\n"
      "  names: {plural: pools, singular: pool, kind: Pool, categories: [e2e-things]}\n"
      "  versions:\n"
      "    - name: v1beta1\n      served: true\n      storage: false\n" +
      subresources + schema + "    - name: v1\n      served: true\n      storage: true\n" +
      subresources + schema;
  CommandResult r = kubectl({"apply", "-f", "-"}, crd);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = kubectl({"wait", "--for=condition=Established", "crd/pools.scale.e2e.kcm.dev"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);

  // Written through v1beta1, read through both versions.
  r = kubectl({"create", "-f", "-"},
              "apiVersion: scale.e2e.kcm.dev/v1beta1\nkind: Pool\nmetadata: {name: p, "
              "namespace: default}\nspec: {replicas: 1}\n");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = kubectl({"get", "--raw", "/apis/scale.e2e.kcm.dev/v1/namespaces/default/pools/p"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("\"apiVersion\":\"scale.e2e.kcm.dev/v1\""));
  r = kubectl({"get", "--raw", "/apis/scale.e2e.kcm.dev/v1beta1/namespaces/default/pools/p"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("\"apiVersion\":\"scale.e2e.kcm.dev/v1beta1\""));

  // kubectl scale goes through the scale subresource and the CRD's paths.
  r = kubectl({"patch", "pools.scale.e2e.kcm.dev", "p", "-n", "default", "--subresource=status",
               "--type=merge", "-p", R"({"status":{"replicas":1,"selector":"app=p"}})"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = kubectl({"scale", "pools.scale.e2e.kcm.dev/p", "-n", "default", "--replicas=3"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = kubectl(
      {"get", "pools.scale.e2e.kcm.dev", "p", "-n", "default", "-o", "jsonpath={.spec.replicas}"});
  EXPECT_EQ(r.out, "3");
  r = kubectl({"get", "--raw", "/apis/scale.e2e.kcm.dev/v1/namespaces/default/pools/p/scale"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out,
              HasSubstr(R"("spec":{"replicas":3},"status":{"replicas":1,"selector":"app=p"})"));
  // As upstream (kubernetes/kubernetes#116311), a custom resource's Scale
  // has no type to track fields with: the creator loses the replicas (it
  // keeps .spec, which it created), and no one gains them.
  r = kubectl({"get", "pools.scale.e2e.kcm.dev", "p", "-n", "default", "-o",
               "jsonpath={.metadata.managedFields[*].manager} "
               "{.metadata.managedFields[?(@.manager==\"kubectl-create\")].fieldsV1}"});
  EXPECT_EQ(r.out, R"(kubectl-create kubectl-patch {"f:spec":{}})");

  // The category names the resource.
  r = kubectl({"get", "e2e-things", "-n", "default", "-o", "name"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "pool.scale.e2e.kcm.dev/p\n");
}

}  // namespace
}  // namespace kcm::e2e
