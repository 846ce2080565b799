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
