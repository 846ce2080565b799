// Server-side apply with every bundled kubectl: kcm-local records who manages
// which fields, refuses to let an applier take fields another manager owns
// unless forced, removes what an applier stops applying, and moves objects
// from client-side to server-side apply as kubectl expects.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kubectl_clients.h"

namespace kcm::e2e {
namespace {

using ::testing::HasSubstr;

class ServerSideApplyTest : public ClientTest {};

std::string config_map(const std::string& data) {
  return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n" + data;
}

TEST_P(ServerSideApplyTest, OwnershipConflictsAndPruning) {
  EXPECT_EQ(ok({"apply", "--server-side", "-f", "-"}, config_map("  a: '1'\n  b: '2'\n")).out,
            "configmap/app serverside-applied\n");
  EXPECT_EQ(jsonpath("cm/app",
                     "{.metadata.managedFields[*].manager} "
                     "{.metadata.managedFields[*].operation} "
                     "{.metadata.managedFields[*].fieldsV1}"),
            R"(kubectl Apply {"f:data":{"f:a":{},"f:b":{}}})");

  // Another manager changes a: the next apply conflicts with it.
  ok({"patch", "cm", "app", "--type=merge", "-p", R"({"data":{"a":"9"}})"});
  CommandResult r = run({"apply", "--server-side", "-f", "-"}, config_map("  a: '1'\n  b: '2'\n"));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("Apply failed with 1 conflict: conflict with \"kubectl-patch\" "
                               "using v1: .data.a"));
  EXPECT_EQ(jsonpath("cm/app", "{.data.a}"), "9");

  // Forced, the applier takes a back; dropping b from the configuration removes it.
  ok({"apply", "--server-side", "--force-conflicts", "-f", "-"}, config_map("  a: '1'\n"));
  EXPECT_EQ(jsonpath("cm/app", "{.data}"), R"({"a":"1"})");
  EXPECT_EQ(jsonpath("cm/app", "{.metadata.managedFields[*].manager}"), "kubectl");

  // A second applier co-owns a by applying the same value; the first
  // dropping it then leaves it in place.
  ok({"apply", "--server-side", "--field-manager=team", "-f", "-"},
     config_map("  a: '1'\n  c: '3'\n"));
  ok({"apply", "--server-side", "-f", "-"}, config_map("  d: '4'\n"));
  EXPECT_EQ(jsonpath("cm/app", "{.data}"), R"({"a":"1","c":"3","d":"4"})");
  // Entries are ordered by time, then manager: both orders occur.
  EXPECT_THAT(jsonpath("cm/app", "{.metadata.managedFields[*].manager}"),
              ::testing::AnyOf("kubectl team", "team kubectl"));
}

TEST_P(ServerSideApplyTest, ClientSideAppliedObjectsMoveToServerSideApply) {
  ok({"apply", "-f", "-"}, config_map("  a: '1'\n"));
  EXPECT_EQ(jsonpath("cm/app",
                     "{.metadata.managedFields[*].manager} "
                     "{.metadata.managedFields[*].operation}"),
            "kubectl-client-side-apply Update");
  // kubectl takes over the client-side applier's fields (and keeps the
  // last-applied annotation current), so a changed value does not conflict.
  EXPECT_EQ(ok({"apply", "--server-side", "-f", "-"}, config_map("  a: '2'\n")).out,
            "configmap/app serverside-applied\n");
  EXPECT_EQ(jsonpath("cm/app", "{.data.a}"), "2");
  // kubectl's own apply of the annotation, as upstream's kubectl sends it.
  EXPECT_THAT(jsonpath("cm/app", "{.metadata.managedFields[*].manager}"),
              ::testing::AnyOf("kubectl kubectl-last-applied", "kubectl-last-applied kubectl"));
}

std::string web_deployment(int replicas) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: " +
         std::to_string(replicas) +
         "\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n"
         "      labels: {app: web}\n    spec:\n      containers:\n      - name: nginx\n"
         "        image: nginx\n";
}

TEST_P(ServerSideApplyTest, ScaleSubresourceOwnsTheReplicas) {
  ok({"create", "deployment", "web", "--image=nginx", "--replicas=2"});
  ok({"scale", "deployment/web", "--replicas=4"});
  // kubectl scale's manager owns the replicas through /scale, in the
  // Deployment's version and without a time, as upstream records it.
  const std::string scale_entry = "{.metadata.managedFields[?(@.subresource==\"scale\")]";
  const std::string scaler = jsonpath("deploy/web", scale_entry + ".manager}");
  EXPECT_THAT(scaler, ::testing::StartsWith("kubectl"));
  EXPECT_EQ(jsonpath("deploy/web", scale_entry + ".operation} " + scale_entry + ".apiVersion} " +
                                       scale_entry + ".fieldsV1}"),
            R"(Update apps/v1 {"f:spec":{"f:replicas":{}}})");
  EXPECT_EQ(jsonpath("deploy/web", scale_entry + ".time}"), "");
  EXPECT_THAT(jsonpath("deploy/web",
                       "{.metadata.managedFields[?(@.manager==\"kubectl-create\")].fieldsV1}"),
              ::testing::Not(HasSubstr("f:replicas")));

  // So an applier setting other replicas conflicts with the scaler.
  CommandResult r = run({"apply", "--server-side", "-f", "-"}, web_deployment(3));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("Apply failed with 1 conflict: conflict with \"" + scaler +
                               "\" with subresource \"scale\" using apps/v1: .spec.replicas"));
  // Forced, it takes them, and the scaler's entry goes.
  ok({"apply", "--server-side", "--force-conflicts", "-f", "-"}, web_deployment(3));
  EXPECT_EQ(jsonpath("deploy/web", "{.spec.replicas} " + scale_entry + ".manager}"), "3 ");
}

TEST_P(ServerSideApplyTest, ApplyToStatus) {
  if (minor() < 32) GTEST_SKIP() << "kubectl apply --subresource is 1.32's";
  const std::string status =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nstatus:\n"
      "  conditions:\n  - type: Available\n    status: \"True\"\n    reason: Test\n";
  const std::vector<std::string> apply_status = {
      "apply", "--server-side", "--subresource=status", "--field-manager=ctrl", "-f", "-"};
  // Unlike the object itself, a status is not created by an apply.
  CommandResult r = run(apply_status, status);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("deployments.apps \"web\" not found"));

  ok({"create", "deployment", "web", "--image=nginx"});
  ok(apply_status, status);
  const std::string entry = "{.metadata.managedFields[?(@.manager==\"ctrl\")]";
  EXPECT_EQ(jsonpath("deploy/web", entry + ".operation} " + entry + ".subresource}"),
            "Apply status");
  EXPECT_EQ(jsonpath("deploy/web", "{.status.conditions[0].reason}"), "Test");
}

TEST_P(ServerSideApplyTest, CustomResourcesAreTypedByTheirSchema) {
  ok({"apply", "-f", "-"},
     "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
     "metadata: {name: typedpools.ssa.e2e.kcm.dev}\n"
     "spec:\n  group: ssa.e2e.kcm.dev\n  scope: Namespaced\n"
     "  names: {plural: typedpools, singular: typedpool, kind: TypedPool}\n"
     "  versions:\n  - name: v1\n    served: true\n    storage: true\n"
     "    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n"
     "          spec:\n            type: object\n            properties:\n"
     "              ports:\n                type: array\n"
     "                x-kubernetes-list-type: map\n"
     "                x-kubernetes-list-map-keys: [port]\n"
     "                items:\n                  type: object\n                  required: [port]\n"
     "                  properties:\n                    port: {type: integer}\n"
     "                    name: {type: string}\n");
  ok({"wait", "--for=condition=Established", "crd/typedpools.ssa.e2e.kcm.dev"});
  auto pool = [](const std::string& spec) {
    return "apiVersion: ssa.e2e.kcm.dev/v1\nkind: TypedPool\nmetadata:\n  name: p\nspec:\n" + spec;
  };
  // A field the schema does not declare: upstream's typed-patch error.
  CommandResult r =
      run({"apply", "--server-side", "--validate=false", "-f", "-"}, pool("  size: 3\n"));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("failed to create typed patch object (" + ns() +
                               "/p; ssa.e2e.kcm.dev/v1, Kind=TypedPool): .spec.size: field not "
                               "declared in schema"));
  // Two appliers own items of a map list each, without conflicting.
  ok({"apply", "--server-side", "--field-manager=a", "-f", "-"},
     pool("  ports:\n  - port: 80\n    name: http\n"));
  ok({"apply", "--server-side", "--field-manager=b", "-f", "-"},
     pool("  ports:\n  - port: 81\n    name: alt\n"));
  EXPECT_EQ(jsonpath("typedpool/p", "{.spec.ports[*].port}"), "80 81");
  // Another name for a's item is a conflict over that item's field.
  r = run({"apply", "--server-side", "--field-manager=b", "-f", "-"},
          pool("  ports:\n  - port: 81\n    name: alt\n  - port: 80\n    name: web\n"));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("Apply failed with 1 conflict: conflict with \"a\": "
                               ".spec.ports[port=80].name"));
}

TEST_P(ServerSideApplyTest, BadApplyRequests) {
  // Fields the type does not declare: upstream's typed-patch error.
  CommandResult r = run({"apply", "--server-side", "--validate=false", "-f", "-"},
                        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\nspec:\n  a: 1\n");
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("failed to create typed patch object (" + ns() +
                               "/x; /v1, Kind=ConfigMap): .spec: field not declared in schema"));
  // The kind's own validation still runs.
  r = run({"apply", "--server-side", "-f", "-"},
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\ndata:\n  'a b': x\n");
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("The ConfigMap \"bad\" is invalid: data[a b]: Invalid value"));
}

INSTANTIATE_TEST_SUITE_P(Kubectl, ServerSideApplyTest, ::testing::ValuesIn(kubectl_clients()),
                         client_test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ServerSideApplyTest);

}  // namespace
}  // namespace kcm::e2e
