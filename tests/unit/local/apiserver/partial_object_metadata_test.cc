// Objects and lists as meta.k8s.io PartialObjectMetadata(List).
#include "local/apiserver/partial_object_metadata.h"

#include <gtest/gtest.h>

namespace kcm::local::apiserver {
namespace {

storage::ObjectPtr stored(std::string json) {
  auto object = std::make_shared<storage::StoredObject>();
  object->json = std::move(json);
  return object;
}

TEST(PartialObjectMetadataTest, KeepsTheWholeMetadataInGoFieldOrder) {
  const json::object pod = json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{
      "managedFields":[{"manager":"kubectl","operation":"Update"}],
      "finalizers":["f"],"labels":{"app":"web"},"annotations":{"a":"b"},
      "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u1",
                          "controller":true,"blockOwnerDeletion":true}],
      "creationTimestamp":"2026-01-02T03:04:05Z","deletionTimestamp":"2026-01-02T03:05:05Z",
      "deletionGracePeriodSeconds":0,"generation":2,"resourceVersion":"7","uid":"u2",
      "namespace":"default","generateName":"web-","name":"web-abcde"},
      "spec":{"containers":[]},"status":{"phase":"Running"}})")
                               .as_object();
  EXPECT_EQ(
      json::serialize(as_partial_object_metadata(pod, "meta.k8s.io/v1")),
      R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{)"
      R"("name":"web-abcde","generateName":"web-","namespace":"default","uid":"u2",)"
      R"("resourceVersion":"7","generation":2,"creationTimestamp":"2026-01-02T03:04:05Z",)"
      R"("deletionTimestamp":"2026-01-02T03:05:05Z","deletionGracePeriodSeconds":0,)"
      R"("labels":{"app":"web"},"annotations":{"a":"b"},"ownerReferences":[{"apiVersion":)"
      R"("apps/v1","kind":"ReplicaSet","name":"rs","uid":"u1","controller":true,)"
      R"("blockOwnerDeletion":true}],"finalizers":["f"],"managedFields":[{"manager":"kubectl",)"
      R"("operation":"Update"}]}})");
}

TEST(PartialObjectMetadataTest, LeavesOutEmptyFieldsButNotCreationTimestamp) {
  const json::object object =
      json::parse(R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w",)"
                  R"("labels":{},"finalizers":[],"generation":0,"uid":"","x-unknown":1}})")
          .as_object();
  EXPECT_EQ(json::serialize(as_partial_object_metadata(object, "meta.k8s.io/v1beta1")),
            R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1beta1",)"
            R"("metadata":{"name":"w","creationTimestamp":null}})");
  EXPECT_EQ(json::serialize(as_partial_object_metadata(json::object(), "meta.k8s.io/v1")),
            R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",)"
            R"("metadata":{"creationTimestamp":null}})");
}

TEST(PartialObjectMetadataTest, ListsCarryListMetaAndTypedItems) {
  const std::vector<storage::ObjectPtr> items = {
      stored(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"default",)"
             R"("resourceVersion":"3","creationTimestamp":"2026-01-02T03:04:05Z"},"spec":{}})"),
      stored(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"b","namespace":"default",)"
             R"("resourceVersion":"4","creationTimestamp":"2026-01-02T03:04:06Z"},"spec":{}})")};
  EXPECT_EQ(
      encode_partial_object_metadata_list("meta.k8s.io/v1", 9, "tok", 5, items),
      R"({"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{)"
      R"("resourceVersion":"9","continue":"tok","remainingItemCount":5},"items":[)"
      R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a",)"
      R"("namespace":"default","resourceVersion":"3","creationTimestamp":"2026-01-02T03:04:05Z"}},)"
      R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"b",)"
      R"("namespace":"default","resourceVersion":"4","creationTimestamp":"2026-01-02T03:04:06Z"}}]})");
}

TEST(PartialObjectMetadataTest, AnEmptyListHasNullItems) {
  EXPECT_EQ(encode_partial_object_metadata_list("meta.k8s.io/v1beta1", 12, "", std::nullopt, {}),
            R"({"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1beta1",)"
            R"("metadata":{"resourceVersion":"12"},"items":null})");
}

TEST(PartialObjectMetadataTest, NamesGoTypesAsUpstreamMessagesDo) {
  EXPECT_EQ(go_response_type("", "Pod", false, true), "*core.PodList");
  EXPECT_EQ(go_response_type("apps", "Deployment", false, false), "*apps.Deployment");
  EXPECT_EQ(go_response_type("events.k8s.io", "Event", false, true), "*core.EventList");
  EXPECT_EQ(go_response_type("coordination.k8s.io", "Lease", false, false), "*coordination.Lease");
  EXPECT_EQ(go_response_type("example.com", "Widget", true, true),
            "*unstructured.UnstructuredList");
  const api::Status list = partial_metadata_of_list("*core.PodList");
  EXPECT_EQ(list.code, 406);
  EXPECT_EQ(list.reason, "NotAcceptable");
  EXPECT_EQ(list.message,
            "you requested PartialObjectMetadata, but the requested object is a list "
            "(*core.PodList)");
  EXPECT_EQ(partial_metadata_list_of_object("*unstructured.Unstructured").message,
            "you requested PartialObjectMetadataList, but the requested object is not a list "
            "(*unstructured.Unstructured)");
}

}  // namespace
}  // namespace kcm::local::apiserver
