// The metadata-only ResourceClient (client-go's metadata client): the Accept
// header of each request, and PartialObjectMetadata pages and watch events.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "client/clientset.h"
#include "client/resource_client.h"
#include "recording_transport.h"

namespace kcm::client {
namespace {

namespace json = boost::json;
using test_support::RecordingTransport;

std::string accept_of(const HttpRequest& r) {
  return find_header(r.headers, "Accept").value_or("<none>");
}

const api::GroupVersionResource kLeases{"coordination.k8s.io", "v1", "leases"};

class MetadataClientTest : public ::testing::Test {
 protected:
  ResourceClient client(std::string ns = "", AcceptTypes accept = metadata_only()) {
    RestClientOptions options;
    options.logger = [](int, const std::string&) {};
    options.warning_handler = [](const std::string&) {};
    return ResourceClient(std::make_shared<RestClient>(transport_, std::move(options)), kLeases,
                          std::move(ns), std::move(accept));
  }

  std::shared_ptr<RecordingTransport> transport_ = std::make_shared<RecordingTransport>();
};

constexpr std::string_view kObjectAccept =
    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
constexpr std::string_view kListAccept =
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";

std::string partial(const std::string& name, const std::string& rv) {
  return R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":")" +
         name + R"(","namespace":"team","uid":"u-)" + name + R"(","resourceVersion":")" + rv +
         R"(","ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"pu"}]}})";
}

TEST_F(MetadataClientTest, MediaTypesAreThePartialObjectMetadataOnes) {
  EXPECT_EQ(metadata_only().object, kObjectAccept);
  EXPECT_EQ(metadata_only().list, kListAccept);
}

TEST_F(MetadataClientTest, ListPagesFollowContinueAndDecode) {
  transport_->answer(200, R"({"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1",)"
                          R"("metadata":{"resourceVersion":"10","continue":"next"},"items":[)" +
                              partial("a", "7") + "]}");
  transport_->answer(
      200,
      R"({"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1",)"
      R"("metadata":{"resourceVersion":"11"},"items":[{"metadata":{"name":"b","uid":"u-b"}}]})");
  ResourceClient leases = client("team");
  auto all = leases.list_all({.limit = 1});
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->resource_version, "10");
  ASSERT_EQ(all->items.size(), 2u);
  EXPECT_EQ(api::find_path(all->items[0], {"kind"})->as_string(), "PartialObjectMetadata");
  EXPECT_EQ(api::find_path(all->items[0], {"metadata", "ownerReferences"})->as_array().size(), 1u);
  EXPECT_FALSE(all->items[0].as_object().contains("spec"));
  // Items without a kind get the list's, less "List".
  EXPECT_EQ(api::find_path(all->items[1], {"kind"})->as_string(), "PartialObjectMetadata");
  EXPECT_EQ(api::find_path(all->items[1], {"apiVersion"})->as_string(), "meta.k8s.io/v1");

  ASSERT_EQ(transport_->requests().size(), 2u);
  EXPECT_EQ(transport_->requests()[0].target,
            "/apis/coordination.k8s.io/v1/namespaces/team/leases?limit=1");
  EXPECT_EQ(transport_->requests()[1].target,
            "/apis/coordination.k8s.io/v1/namespaces/team/leases?continue=next&limit=1");
  EXPECT_EQ(accept_of(transport_->requests().at(0)), kListAccept);
  EXPECT_EQ(accept_of(transport_->requests().at(1)), kListAccept);
}

TEST_F(MetadataClientTest, WatchAsksForObjectsAndDecodesEvents) {
  transport_->answer(200, R"({"type":"ADDED","object":)" + partial("a", "12") + "}\n" +
                              R"({"type":"DELETED","object":)" + partial("a", "13") + "}\n");
  // in_namespace keeps the media types.
  ResourceClient leases = client().in_namespace("team");
  auto stream = leases.watch({.resource_version = "11"});
  ASSERT_TRUE(stream.ok()) << stream.error().message;
  ASSERT_EQ(transport_->requests().size(), 1u);
  EXPECT_EQ(transport_->requests()[0].target,
            "/apis/coordination.k8s.io/v1/namespaces/team/leases?resourceVersion=11&watch=true");
  EXPECT_EQ(accept_of(transport_->requests().at(0)), kObjectAccept);

  auto added = (*stream)->next();
  ASSERT_TRUE(added.ok() && added->has_value());
  EXPECT_EQ((*added)->type, WatchEventType::kAdded);
  EXPECT_EQ(api::find_path((*added)->object, {"kind"})->as_string(), "PartialObjectMetadata");
  EXPECT_EQ(api::find_path((*added)->object, {"metadata", "uid"})->as_string(), "u-a");
  auto deleted = (*stream)->next();
  ASSERT_TRUE(deleted.ok() && deleted->has_value());
  EXPECT_EQ((*deleted)->type, WatchEventType::kDeleted);
  EXPECT_EQ(api::find_path((*deleted)->object, {"metadata", "resourceVersion"})->as_string(), "13");
  auto end = (*stream)->next();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

TEST_F(MetadataClientTest, GetPatchAndDeleteAskForPartialObjectMetadata) {
  transport_->answer(200, partial("a", "7"));
  transport_->answer(200, partial("a", "8"));
  transport_->answer(200, R"({"kind":"Status","apiVersion":"v1","status":"Success"})");
  ResourceClient leases = client("team");
  auto got = leases.get("a");
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(api::find_path(*got, {"metadata", "uid"})->as_string(), "u-a");
  auto patched = leases.patch("a", PatchType::kMerge, R"({"metadata":{"finalizers":null}})");
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  EXPECT_EQ(api::find_path(*patched, {"metadata", "resourceVersion"})->as_string(), "8");
  auto deleted = leases.delete_object("a", {.propagation_policy = "Background"});
  ASSERT_TRUE(deleted.ok()) << deleted.error().message;

  ASSERT_EQ(transport_->requests().size(), 3u);
  EXPECT_EQ(transport_->requests()[0].method, "GET");
  EXPECT_EQ(transport_->requests()[1].method, "PATCH");
  EXPECT_EQ(find_header(transport_->requests()[1].headers, "Content-Type"),
            "application/merge-patch+json");
  EXPECT_EQ(transport_->requests()[2].method, "DELETE");
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(transport_->requests()[i].target,
              "/apis/coordination.k8s.io/v1/namespaces/team/leases/a");
    EXPECT_EQ(accept_of(transport_->requests().at(i)), kObjectAccept) << i;
  }
}

TEST_F(MetadataClientTest, DefaultClientSendsTheRestClientsAccept) {
  transport_->answer(200,
                     R"({"kind":"LeaseList","apiVersion":"coordination.k8s.io/v1","items":[]})");
  transport_->answer(200, R"({"kind":"Lease","apiVersion":"coordination.k8s.io/v1"})");
  ResourceClient leases = client("team", {});
  ASSERT_TRUE(leases.list({}).ok());
  ASSERT_TRUE(leases.get("a").ok());
  EXPECT_EQ(accept_of(transport_->requests().at(0)), "application/json, */*");
  EXPECT_EQ(accept_of(transport_->requests().at(1)), "application/json, */*");
}

TEST(ClientsetMetadataTest, MetadataClientsCarryTheMetadataMediaTypes) {
  RestConfig config;
  config.host = "http://127.0.0.1:1";
  auto clientset = Clientset::create(config);
  ASSERT_TRUE(clientset.ok()) << clientset.error();
  const ResourceClient metadata = (*clientset)->metadata(kLeases, "team");
  EXPECT_EQ(metadata.accept().object, kObjectAccept);
  EXPECT_EQ(metadata.accept().list, kListAccept);
  EXPECT_EQ(metadata.namespace_name(), "team");
  EXPECT_EQ(metadata.resource().resource, "leases");
  EXPECT_TRUE((*clientset)->resource(kLeases).accept().object.empty());
}

}  // namespace
}  // namespace kcm::client
