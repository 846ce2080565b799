// Metadata-only requests through kcm-local's real request handler (what
// client-go's metadata informers send), on an in-memory store.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <chrono>

#include "local/apiserver/api_handler.h"

namespace kcm::local::apiserver {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kMetadataAccept =
    "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,"
    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
constexpr std::string_view kMetadataListAccept =
    "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
constexpr std::string_view kTableAccept =
    "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;"
    "g=meta.k8s.io,application/json";

// Records what the handler answers; a stream's chunks are concatenated.
class RecordingExchange final : public Exchange {
 public:
  explicit RecordingExchange(HttpRequest request) : request_(std::move(request)) {}

  const HttpRequest& request() const override { return request_; }
  const std::string& user() const override { return user_; }
  const std::vector<std::string>& groups() const override { return groups_; }
  net::awaitable<void> respond(http::status status, std::string_view content_type, std::string body,
                               Headers) override {
    status_ = static_cast<int>(status);
    content_type_ = content_type;
    body_ = std::move(body);
    co_return;
  }
  net::awaitable<bool> start_stream(http::status status, std::string_view content_type) override {
    status_ = static_cast<int>(status);
    content_type_ = content_type;
    co_return true;
  }
  net::awaitable<bool> write_chunk(std::string data) override {
    body_ += data;
    co_return true;
  }
  net::awaitable<void> finish_stream() override { co_return; }
  net::awaitable<void> wait_closed() override {
    // The client never leaves; watches end by their timeoutSeconds.
    net::steady_timer timer(co_await net::this_coro::executor, std::chrono::minutes(1));
    boost::system::error_code ec;
    co_await timer.async_wait(net::redirect_error(net::use_awaitable, ec));
  }

  int status() const { return status_; }
  const std::string& content_type() const { return content_type_; }
  const std::string& body() const { return body_; }

 private:
  HttpRequest request_;
  std::string user_ = "admin";
  std::vector<std::string> groups_ = {"system:masters", "system:authenticated"};
  int status_ = 0;
  std::string content_type_;
  std::string body_;
};

class ApiHandlerMetadataTest : public ::testing::Test {
 protected:
  ApiHandlerMetadataTest()
      : catalog_(registry::builtin_resources()),
        rest_(store_, catalog_.builtins()),
        handler_(rest_, catalog_, VersionInfo{}, "https://127.0.0.1:6443") {
    EXPECT_EQ(call(http::verb::post, "/api/v1/namespaces", "application/json",
                   R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"default"}})")
                  .status(),
              201);
  }

  RecordingExchange call(http::verb method, std::string_view target, std::string_view accept,
                         std::string body = "") {
    HttpRequest request{method, target, 11};
    if (!accept.empty()) request.set(http::field::accept, accept);
    if (!body.empty()) request.set(http::field::content_type, "application/json");
    request.body() = std::move(body);
    request.prepare_payload();
    RecordingExchange ex(std::move(request));
    net::io_context ioc;
    net::co_spawn(ioc, handler_.handle(ex), net::detached);
    ioc.run();
    return ex;
  }

  json::object create_pod(std::string_view name, std::string_view accept = "application/json") {
    const RecordingExchange ex = call(
        http::verb::post, "/api/v1/namespaces/default/pods", accept,
        R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + std::string(name) +
            R"(","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}})");
    EXPECT_EQ(ex.status(), 201) << ex.body();
    return json::parse(ex.body()).as_object();
  }

  storage::Store store_;
  registry::ResourceCatalog catalog_;
  RestStore rest_;
  ApiHandler handler_;
};

TEST_F(ApiHandlerMetadataTest, GetAnswersTheObjectsMetadata) {
  const json::object pod = create_pod("web");
  const RecordingExchange ex =
      call(http::verb::get, "/api/v1/namespaces/default/pods/web", kMetadataAccept);
  EXPECT_EQ(ex.status(), 200);
  EXPECT_EQ(ex.content_type(), "application/json");
  const json::object got = json::parse(ex.body()).as_object();
  EXPECT_EQ(got.at("kind"), "PartialObjectMetadata");
  EXPECT_EQ(got.at("apiVersion"), "meta.k8s.io/v1");
  EXPECT_EQ(got.size(), 3u);  // kind, apiVersion, metadata: no spec or status
  EXPECT_EQ(got.at("metadata"), pod.at("metadata"));
}

TEST_F(ApiHandlerMetadataTest, CreateAnswersWithMetadataToo) {
  const json::object created = create_pod("web", kMetadataAccept);
  EXPECT_EQ(created.at("kind"), "PartialObjectMetadata");
  EXPECT_EQ(created.at("metadata").at("name"), "web");
  EXPECT_FALSE(created.contains("spec"));
}

TEST_F(ApiHandlerMetadataTest, ListAnswersPartialObjectMetadataList) {
  create_pod("a");
  create_pod("b");
  const RecordingExchange ex =
      call(http::verb::get, "/api/v1/namespaces/default/pods?limit=1", kMetadataListAccept);
  ASSERT_EQ(ex.status(), 200) << ex.body();
  const json::object list = json::parse(ex.body()).as_object();
  EXPECT_EQ(list.at("kind"), "PartialObjectMetadataList");
  EXPECT_EQ(list.at("apiVersion"), "meta.k8s.io/v1");
  EXPECT_TRUE(list.at("metadata").as_object().contains("continue"));
  EXPECT_EQ(list.at("metadata").at("remainingItemCount"), 1);
  const json::array& items = list.at("items").as_array();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].at("kind"), "PartialObjectMetadata");
  EXPECT_EQ(items[0].at("apiVersion"), "meta.k8s.io/v1");
  EXPECT_EQ(items[0].at("metadata").at("name"), "a");
  EXPECT_EQ(items[0].at("metadata").at("labels").at("app"), "web");
  EXPECT_FALSE(items[0].as_object().contains("spec"));
}

TEST_F(ApiHandlerMetadataTest, MismatchedOrUnservableShapesAre406) {
  create_pod("web");
  const RecordingExchange list_as_object =
      call(http::verb::get, "/api/v1/namespaces/default/pods",
           "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1");
  EXPECT_EQ(list_as_object.status(), 406);
  const json::object status = json::parse(list_as_object.body()).as_object();
  EXPECT_EQ(status.at("kind"), "Status");
  EXPECT_EQ(status.at("reason"), "NotAcceptable");
  EXPECT_EQ(status.at("message"),
            "you requested PartialObjectMetadata, but the requested object is a list "
            "(*core.PodList)");

  const RecordingExchange object_as_list =
      call(http::verb::get, "/api/v1/namespaces/default/pods/web",
           "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json");
  EXPECT_EQ(object_as_list.status(), 406);
  EXPECT_THAT(object_as_list.body(), HasSubstr("is not a list (*core.Pod)"));

  const RecordingExchange protobuf_only = call(http::verb::get, "/api/v1/namespaces/default/pods",
                                               "application/vnd.kubernetes.protobuf");
  EXPECT_EQ(protobuf_only.status(), 406);
  EXPECT_THAT(protobuf_only.body(), HasSubstr("only the following media types are accepted"));
}

TEST_F(ApiHandlerMetadataTest, TablesAndPlainJsonAreUnchanged) {
  create_pod("web");
  const RecordingExchange table =
      call(http::verb::get, "/api/v1/namespaces/default/pods", kTableAccept);
  EXPECT_EQ(table.status(), 200);
  EXPECT_EQ(table.content_type(), "application/json;as=Table;v=v1;g=meta.k8s.io");
  EXPECT_EQ(json::parse(table.body()).at("kind"), "Table");

  const RecordingExchange plain =
      call(http::verb::get, "/api/v1/namespaces/default/pods/web", "application/json, */*");
  EXPECT_EQ(plain.status(), 200);
  EXPECT_EQ(plain.content_type(), "application/json");
  EXPECT_EQ(json::parse(plain.body()).at("kind"), "Pod");
}

TEST_F(ApiHandlerMetadataTest, WatchStreamsMetadataEventsAndBookmarks) {
  create_pod("web");
  const RecordingExchange ex = call(http::verb::get,
                                    "/api/v1/namespaces/default/pods?watch=true&"
                                    "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&"
                                    "allowWatchBookmarks=true&timeoutSeconds=1",
                                    kMetadataAccept);
  EXPECT_EQ(ex.status(), 200);
  EXPECT_EQ(ex.content_type(), "application/json");
  std::vector<json::object> events;
  std::string_view rest = ex.body();
  while (!rest.empty()) {
    const auto newline = rest.find('\n');
    events.push_back(json::parse(rest.substr(0, newline)).as_object());
    rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
  }
  ASSERT_EQ(events.size(), 2u) << ex.body();
  EXPECT_EQ(events[0].at("type"), "ADDED");
  EXPECT_EQ(events[0].at("object").at("kind"), "PartialObjectMetadata");
  EXPECT_EQ(events[0].at("object").at("metadata").at("name"), "web");
  EXPECT_FALSE(events[0].at("object").as_object().contains("spec"));
  EXPECT_EQ(events[1].at("type"), "BOOKMARK");
  EXPECT_EQ(events[1].at("object").at("kind"), "PartialObjectMetadata");
  EXPECT_EQ(events[1].at("object").at("apiVersion"), "meta.k8s.io/v1");
  EXPECT_EQ(events[1].at("object").at("metadata").at("annotations").at("k8s.io/initial-events-end"),
            "true");
}

// Query booleans read as upstream's: "1" and "TRUE" are true, and a given
// sendInitialEvents (false too) needs resourceVersionMatch.
TEST_F(ApiHandlerMetadataTest, WatchBooleansReadAsUpstreamReadsThem) {
  create_pod("web");
  const RecordingExchange lenient = call(http::verb::get,
                                         "/api/v1/namespaces/default/pods?watch=1&"
                                         "sendInitialEvents=1&resourceVersionMatch=NotOlderThan&"
                                         "allowWatchBookmarks=TRUE&timeoutSeconds=1",
                                         kMetadataAccept);
  EXPECT_EQ(lenient.status(), 200);
  EXPECT_NE(lenient.body().find(R"("type":"BOOKMARK")"), std::string::npos) << lenient.body();

  const RecordingExchange refused =
      call(http::verb::get, "/api/v1/namespaces/default/pods?watch=true&sendInitialEvents=false",
           kMetadataAccept);
  EXPECT_EQ(refused.status(), 422);
  EXPECT_NE(refused.body().find("sendInitialEvents requires setting resourceVersionMatch to "
                                "NotOlderThan"),
            std::string::npos)
      << refused.body();
}

// A write to a path that only reads: 405 with upstream's Status.
TEST_F(ApiHandlerMetadataTest, NonResourcePathsRefuseWrites) {
  const RecordingExchange ex = call(http::verb::post, "/version", "application/json");
  EXPECT_EQ(ex.status(), 405);
  EXPECT_NE(ex.body().find("the server does not allow this method on the requested resource"),
            std::string::npos)
      << ex.body();
}

}  // namespace
}  // namespace kcm::local::apiserver
