#include "controller/client_pod_control.h"

#include <gtest/gtest.h>

namespace kcm::controller {
namespace {

TEST(ClientPodControl, HasStatusCauseLooksAtTheDetails) {
  api::Status plain = api::internal_error("boom");
  EXPECT_FALSE(has_status_cause(plain, kNamespaceTerminatingCause));
  api::Status no_details;
  EXPECT_FALSE(has_status_cause(no_details, kNamespaceTerminatingCause));

  api::Status terminating = api::forbidden({"", "pods"}, "",
                                           "unable to create new content in namespace ns "
                                           "because it is being terminated");
  ASSERT_TRUE(terminating.details);
  terminating.details->causes.push_back({"FieldValueInvalid", "x", "spec"});
  EXPECT_FALSE(has_status_cause(terminating, kNamespaceTerminatingCause));
  terminating.details->causes.push_back(
      {"NamespaceTerminating", "namespace ns is being terminated", "metadata.namespace"});
  EXPECT_TRUE(has_status_cause(terminating, kNamespaceTerminatingCause));
  EXPECT_FALSE(has_status_cause(terminating, "NamespaceTerminatingX"));
}

TEST(ClientPodControl, ObjectReferenceOfTheOwner) {
  const json::object rs = json::parse(R"({
    "apiVersion": "apps/v1", "kind": "ReplicaSet",
    "metadata": {"name": "web", "namespace": "default", "uid": "u-1", "resourceVersion": "42",
                 "labels": {"app": "web"}}})")
                              .as_object();
  const record::ObjectReference ref = object_reference_of(rs);
  EXPECT_EQ(ref, (record::ObjectReference{.kind = "ReplicaSet",
                                          .namespace_ = "default",
                                          .name = "web",
                                          .uid = "u-1",
                                          .api_version = "apps/v1",
                                          .resource_version = "42"}));
  // Missing members stay empty rather than failing.
  EXPECT_EQ(object_reference_of(json::object{}), record::ObjectReference{});
}

}  // namespace
}  // namespace kcm::controller
