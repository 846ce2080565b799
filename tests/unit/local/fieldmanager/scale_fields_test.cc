// Managed fields through the scale subresource, as upstream's ScaleHandler
// converts them: the parent's entries that own its replicas become the
// Scale's, and the Scale's after a write come back to the parent.
#include "local/fieldmanager/scale_fields.h"

#include <gtest/gtest.h>

#include "fieldmanager_test_util.h"

namespace kcm::local::fieldmanager {
namespace {

using testing::fields;
using testing::text;

ManagerEntry entry(std::string manager, std::string_view operation, std::string api_version,
                   std::string subresource, std::optional<std::string> time,
                   std::string_view fields_v1) {
  return ManagerEntry{std::move(manager),     std::string(operation), std::move(api_version),
                      std::move(subresource), std::move(time),        fields(fields_v1)};
}

ReplicasPaths deployment_paths() {
  const Path replicas{PathElement::field("spec"), PathElement::field("replicas")};
  return {{"apps/v1beta1", replicas}, {"apps/v1beta2", replicas}, {"apps/v1", replicas}};
}

// One line per entry: manager operation apiVersion subresource time fields.
std::string describe(const std::vector<ManagerEntry>& entries) {
  std::string out;
  for (const ManagerEntry& e : entries) {
    out += e.manager + " " + e.operation + " " + e.api_version + " [" + e.subresource + "] " +
           e.time.value_or("-") + " " + text(e.fields) + "\n";
  }
  return out;
}

constexpr std::string_view kCreatorFields =
    R"({"f:spec":{"f:replicas":{},"f:selector":{}},"f:metadata":{"f:labels":{}}})";

TEST(ScaleFieldsTest, TheScaleSeesTheEntriesThatOwnTheReplicas) {
  const std::vector<ManagerEntry> parent{
      entry("kubectl-create", kUpdate, "apps/v1", "", "t1", kCreatorFields),
      entry("kcm", kUpdate, "apps/v1", "status", "t2", R"({"f:status":{"f:replicas":{}}})"),
      entry("old", kUpdate, "extensions/v1beta1", "", "t3", R"({"f:spec":{"f:replicas":{}}})"),
      entry("ci", kApply, "apps/v1", "", "t4", R"({"f:spec":{"f:replicas":{}}})")};
  EXPECT_EQ(describe(scale_entries(parent, deployment_paths())),
            "kubectl-create Update autoscaling/v1 [] t1 {\"f:spec\":{\"f:replicas\":{}}}\n"
            "ci Apply autoscaling/v1 [] t4 {\"f:spec\":{\"f:replicas\":{}}}\n");
}

TEST(ScaleFieldsTest, WhoChangedTheReplicasOwnsThemThroughScaleWithoutATime) {
  const std::vector<ManagerEntry> parent{
      entry("kubectl-create", kUpdate, "apps/v1", "", "t1", kCreatorFields),
      entry("kcm", kUpdate, "apps/v1", "status", "t2", R"({"f:status":{"f:replicas":{}}})")};
  // The Scale's field manager moved the replicas from the creator to the scaler.
  const std::vector<ManagerEntry> scale{entry("kubectl", kUpdate, "autoscaling/v1", "scale", "t5",
                                              R"({"f:spec":{"f:replicas":{}}})")};
  EXPECT_EQ(describe(parent_entries(parent, scale, "apps/v1", deployment_paths())),
            "kubectl-create Update apps/v1 [] t1 "
            "{\"f:metadata\":{\"f:labels\":{}},\"f:spec\":{\"f:selector\":{}}}\n"
            "kcm Update apps/v1 [status] t2 {\"f:status\":{\"f:replicas\":{}}}\n"
            "kubectl Update apps/v1 [scale] - {\"f:spec\":{\"f:replicas\":{}}}\n");
}

TEST(ScaleFieldsTest, AnApplierThatStillOwnsTheReplicasKeepsItsEntry) {
  const std::vector<ManagerEntry> parent{
      entry("ci", kApply, "apps/v1", "", "t1", R"({"f:spec":{"f:replicas":{},"f:paused":{}}})")};
  // A no-op Scale write: the applier's Scale entry (Apply: identified
  // without its version) still owns the replicas.
  const std::vector<ManagerEntry> scale = scale_entries(parent, deployment_paths());
  EXPECT_EQ(describe(parent_entries(parent, scale, "apps/v1", deployment_paths())),
            describe(parent));
  // An updater's entry is identified with its version, which the Scale's
  // differs from: its replicas come back as an entry of their own.
  const std::vector<ManagerEntry> updater{
      entry("kubectl-create", kUpdate, "apps/v1", "", "t1", kCreatorFields)};
  EXPECT_EQ(describe(parent_entries(updater, scale_entries(updater, deployment_paths()), "apps/v1",
                                    deployment_paths())),
            "kubectl-create Update apps/v1 [] t1 "
            "{\"f:metadata\":{\"f:labels\":{}},\"f:spec\":{\"f:selector\":{}}}\n"
            "kubectl-create Update apps/v1 [] - {\"f:spec\":{\"f:replicas\":{}}}\n");
}

TEST(ScaleFieldsTest, UnknownVersionsAreDroppedAndVersionsWithoutScaleKept) {
  const Path replicas{PathElement::field("spec"), PathElement::field("size")};
  const ReplicasPaths paths{{"x.dev/v1", replicas}, {"x.dev/v1alpha1", std::nullopt}};
  const std::vector<ManagerEntry> parent{
      entry("a", kUpdate, "x.dev/v1alpha1", "", "t1", R"({"f:spec":{"f:size":{}}})"),
      entry("b", kUpdate, "x.dev/v2", "", "t2", R"({"f:spec":{"f:other":{}}})"),
      entry("c", kUpdate, "x.dev/v1", "", "t3", R"({"f:spec":{"f:size":{}}})")};
  EXPECT_EQ(describe(scale_entries(parent, paths)),
            "c Update autoscaling/v1 [] t3 {\"f:spec\":{\"f:replicas\":{}}}\n");
  // No Scale entries (a custom resource's Scale is not tracked): the replicas
  // leave their owner, whose entry goes when nothing else is left in it.
  EXPECT_EQ(describe(parent_entries(parent, {}, "x.dev/v1", paths)),
            "a Update x.dev/v1alpha1 [] t1 {\"f:spec\":{\"f:size\":{}}}\n");
}

TEST(ScaleFieldsTest, DecodingKeepsTheLastEntryOfAnIdentity) {
  auto obj = testing::parse(R"({"metadata":{"managedFields":[
    {"manager":"m","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1",
     "fieldsV1":{"f:spec":{"f:replicas":{}}}},
    {"manager":"m","operation":"Update","apiVersion":"apps/v1","fieldsType":"FieldsV1",
     "time":"t","fieldsV1":{"f:spec":{"f:paused":{}}}}]}})");
  auto decoded = decode_managed_fields(obj.get_object());
  ASSERT_TRUE(decoded) << decoded.error();
  EXPECT_EQ(describe(*decoded), "m Update apps/v1 [] t {\"f:spec\":{\"f:paused\":{}}}\n");
}

}  // namespace
}  // namespace kcm::local::fieldmanager
