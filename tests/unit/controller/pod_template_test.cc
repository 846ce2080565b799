#include "controller/pod_template.h"

#include <gtest/gtest.h>

namespace kcm::controller {
namespace {

TEST(PodTemplate, PodFromTemplate) {
  const json::object tmpl = json::parse(R"({
    "metadata": {"labels": {"app": "web"}, "annotations": {"a": "1"}, "finalizers": ["f"],
                 "name": "ignored"},
    "spec": {"containers": [{"name": "c", "image": "nginx"}]}})")
                                .as_object();
  const auto ref = new_controller_ref("apps/v1", "ReplicaSet", "web", "rs-uid");
  const json::object pod = pod_from_template(tmpl, "web", ref);
  EXPECT_EQ(json::serialize(pod),
            R"({"apiVersion":"v1","kind":"Pod","metadata":{"generateName":"web-",)"
            R"("labels":{"app":"web"},"annotations":{"a":"1"},"ownerReferences":[{"apiVersion":)"
            R"("apps/v1","kind":"ReplicaSet","name":"web","uid":"rs-uid","controller":true,)"
            R"("blockOwnerDeletion":true}],"finalizers":["f"]},"spec":{"containers":[{"name":"c",)"
            R"("image":"nginx"}]}})");
  EXPECT_TRUE(check_pod_for_create(pod, ref).ok());

  const json::object bare = pod_from_template(json::object{}, "web", ref);
  const auto r = check_pod_for_create(bare, ref);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "unable to create pods, no labels");
  EXPECT_EQ(json::serialize(bare.at("spec")), "{}");
}

TEST(PodTemplate, GenerateNamePrefix) {
  EXPECT_EQ(pods_generate_name_prefix("web"), "web-");
  // A name that is no valid prefix is used as it is (the server reports it).
  EXPECT_EQ(pods_generate_name_prefix("Web"), "Web");
  // Upstream's trailing-dash mask drops two characters and appends one, so a
  // 254-character prefix still passes; 255 does not.
  EXPECT_EQ(pods_generate_name_prefix(std::string(253, 'a')), std::string(253, 'a') + "-");
  EXPECT_EQ(pods_generate_name_prefix(std::string(254, 'a')), std::string(254, 'a'));
}

TEST(PodTemplate, ValidateControllerRef) {
  struct Case {
    api::OwnerReference ref;
    const char* error;
  };
  auto good = new_controller_ref("apps/v1", "ReplicaSet", "web", "u");
  auto no_version = good;
  no_version.api_version.clear();
  auto no_kind = good;
  no_kind.kind.clear();
  auto not_controller = good;
  not_controller.controller = false;
  auto no_block = good;
  no_block.block_owner_deletion.reset();
  const Case cases[] = {
      {good, nullptr},
      {no_version, "controllerRef has empty APIVersion"},
      {no_kind, "controllerRef has empty Kind"},
      {not_controller, "controllerRef.Controller is not set to true"},
      {no_block, "controllerRef.BlockOwnerDeletion is not set"},
  };
  for (const Case& c : cases) {
    const auto r = validate_controller_ref(c.ref);
    if (c.error == nullptr) {
      EXPECT_TRUE(r.ok());
    } else {
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error(), c.error);
    }
  }
  const json::object pod = json::parse(R"({"metadata":{"labels":{"a":"b"}}})").as_object();
  EXPECT_EQ(check_pod_for_create(pod, no_kind).error(), "controllerRef has empty Kind");
}

TEST(PodTemplate, EventMessages) {
  EXPECT_EQ(created_pod_message("web-abc"), "Created pod: web-abc");
  EXPECT_EQ(failed_create_pod_message("quota exceeded"), "Error creating: quota exceeded");
  EXPECT_EQ(deleted_pod_message("web-abc"), "Deleted pod: web-abc");
  EXPECT_EQ(failed_delete_pod_message("boom"), "Error deleting: boom");
  EXPECT_EQ(kSuccessfulCreatePodReason, "SuccessfulCreate");
  EXPECT_EQ(kFailedCreatePodReason, "FailedCreate");
  EXPECT_EQ(kSuccessfulDeletePodReason, "SuccessfulDelete");
  EXPECT_EQ(kFailedDeletePodReason, "FailedDelete");
}

}  // namespace
}  // namespace kcm::controller
