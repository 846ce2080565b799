#include "controller/client_pod_control.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "record/fake_recorder.h"
#include "recording_transport.h"

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

constexpr std::string_view kOwner = R"({
  "apiVersion": "apps/v1", "kind": "ReplicaSet",
  "metadata": {"name": "web", "namespace": "default", "uid": "u-1"}})";
constexpr std::string_view kPod = R"({
  "metadata": {"generateName": "web-", "namespace": "default", "labels": {"app": "web"},
               "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web",
                                    "uid": "u-1", "controller": true,
                                    "blockOwnerDeletion": true}]},
  "spec": {"containers": [{"name": "c", "image": "nginx"}]}})";

struct PodControlFixture {
  std::shared_ptr<test_support::RecordingTransport> transport =
      std::make_shared<test_support::RecordingTransport>();
  std::shared_ptr<record::FakeRecorder> recorder = std::make_shared<record::FakeRecorder>();
  ClientPodControl control{client::Clientset::over(transport, quiet_options()), recorder};

  static client::RestClientOptions quiet_options() {
    client::RestClientOptions options;
    options.logger = [](int, const std::string&) {};
    options.warning_handler = [](const std::string&) {};
    return options;
  }
  Result<void, api::Status> create() {
    return control.create_pod("default", json::parse(kPod).as_object(),
                              json::parse(kOwner).as_object());
  }
};

TEST(ClientPodControl, CreatePodRecordsTheNameTheServerGave) {
  PodControlFixture f;
  f.transport->answer(201, R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"web-x7k2q",)"
                           R"("generateName":"web-","namespace":"default","resourceVersion":"7"},)"
                           R"("spec":{"containers":[{"name":"c","image":"nginx"}]}})");
  auto created = f.create();
  ASSERT_TRUE(created.ok()) << created.error().message;
  ASSERT_EQ(f.transport->requests().size(), 1u);
  EXPECT_EQ(f.transport->requests()[0].method, "POST");
  EXPECT_EQ(f.transport->requests()[0].target, "/api/v1/namespaces/default/pods");
  EXPECT_EQ(json::parse(f.transport->requests()[0].body), json::parse(kPod));
  EXPECT_EQ(f.recorder->events(),
            std::vector<std::string>{"Normal SuccessfulCreate Created pod: web-x7k2q"});
  ASSERT_EQ(f.recorder->objects().size(), 1u);
  EXPECT_EQ(f.recorder->objects()[0].name, "web");
}

TEST(ClientPodControl, CreatePodFailures) {
  {  // Refused: a warning event with the server's message.
    PodControlFixture f;
    f.transport->answer(api::forbidden({"", "pods"}, "", "exceeded quota: q"));
    auto created = f.create();
    ASSERT_FALSE(created.ok());
    EXPECT_TRUE(created.error().is(api::reason::kForbidden));
    ASSERT_EQ(f.recorder->events().size(), 1u);
    EXPECT_TRUE(f.recorder->events()[0].starts_with("Warning FailedCreate Error creating: "))
        << f.recorder->events()[0];
  }
  {  // A terminating namespace refuses every creation: no event.
    PodControlFixture f;
    api::Status terminating = api::forbidden({"", "pods"}, "", "namespace default is terminating");
    terminating.details->causes.push_back(
        {"NamespaceTerminating", "namespace default is being terminated", "metadata.namespace"});
    f.transport->answer(terminating);
    EXPECT_FALSE(f.create().ok());
    EXPECT_TRUE(f.recorder->events().empty());
  }
  {  // An answer that is not JSON is an error, not a pod without a name.
    PodControlFixture f;
    f.transport->answer(201, R"({"kind":"Pod","metadata":{"name":"web-x7k2q")");
    auto created = f.create();
    ASSERT_FALSE(created.ok());
    EXPECT_NE(created.error().message.find("unable to decode the response of POST"),
              std::string::npos)
        << created.error().message;
    ASSERT_EQ(f.recorder->events().size(), 1u);
    EXPECT_TRUE(f.recorder->events()[0].starts_with("Warning FailedCreate"));
  }
  {  // No controllerRef: nothing is sent.
    PodControlFixture f;
    json::object pod = json::parse(kPod).as_object();
    pod["metadata"].as_object().erase("ownerReferences");
    auto created = f.control.create_pod("default", pod, json::parse(kOwner).as_object());
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().message, "controllerRef is nil");
    EXPECT_TRUE(f.transport->requests().empty());
  }
}

}  // namespace
}  // namespace kcm::controller
