#include "client/typed_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "api/condition.h"
#include "api/kinds/node.h"
#include "recording_transport.h"

namespace kcm::client {
namespace {

namespace json = boost::json;
using test_support::RecordingTransport;
using ::testing::HasSubstr;

// --- kinds under test ----------------------------------------------------------

struct EcsBindSpec {
  std::string instance_id;
  std::string private_ip;
  std::optional<std::string> node_name;
  api::UnknownFields extra;
  static constexpr api::JsonMember json_members[] = {{.member = "private_ip", .json = "privateIP"}};
};
BOOST_DESCRIBE_STRUCT(EcsBindSpec, (), (instance_id, private_ip, node_name, extra))

struct EcsBindStatus {
  std::string phase;
  std::int64_t observed_generation = 0;
  std::vector<api::Condition> conditions;
  api::UnknownFields extra;
};
BOOST_DESCRIBE_STRUCT(EcsBindStatus, (), (phase, observed_generation, conditions, extra))

struct EcsBind {
  static constexpr api::KindInfo kind_info{.group = "ecsbind.kcm.dev",
                                           .version = "v1",
                                           .kind = "EcsBind",
                                           .plural = "ecsbinds",
                                           .scope = api::Scope::kCluster};
  api::ObjectMeta metadata;
  EcsBindSpec spec;
  EcsBindStatus status;
  api::UnknownFields extra;
};
BOOST_DESCRIBE_STRUCT(EcsBind, (), (metadata, spec, status, extra))

// A namespaced kind with only a data map.
struct Settings {
  static constexpr api::KindInfo kind_info{.group = "",
                                           .version = "v1",
                                           .kind = "ConfigMap",
                                           .plural = "configmaps",
                                           .scope = api::Scope::kNamespaced};
  api::ObjectMeta metadata;
  std::map<std::string, std::string> data;
  api::UnknownFields extra;
};
BOOST_DESCRIBE_STRUCT(Settings, (), (metadata, data, extra))

RestClientOptions quiet() {
  RestClientOptions o;
  o.logger = [](int, const std::string&) {};
  o.warning_handler = [](const std::string&) {};
  return o;
}

template <class T>
TypedClient<T> client_for(const std::shared_ptr<RecordingTransport>& transport,
                          std::string ns = "") {
  return TypedClient<T>(ResourceClient(std::make_shared<RestClient>(transport, quiet()),
                                       T::kind_info.gvr(), std::move(ns)));
}

std::string header(const HttpRequest& r, std::string_view name) {
  return find_header(r.headers, name).value_or("");
}

// What a server stores for a custom resource: keys sorted, members kcm does
// not model (spec.zone, status.lastProbe, top-level "notes").
constexpr std::string_view kStoredBind =
    R"({"apiVersion":"ecsbind.kcm.dev/v1","kind":"EcsBind",)"
    R"("metadata":{"creationTimestamp":"2026-01-02T03:04:05Z","generation":2,"name":"bind-1","resourceVersion":"41","uid":"u-1"},)"
    R"("notes":"kept","spec":{"instanceId":"i-abc","privateIP":"10.0.0.7","zone":"h"},)"
    R"("status":{"lastProbe":{"ok":true},"phase":"Pending"}})";

// --- tests ---------------------------------------------------------------------------

TEST(TypedClientTest, GetDecodesTheKind) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(200, std::string(kStoredBind));
  auto binds = client_for<EcsBind>(transport);
  auto b = binds.get("bind-1");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(transport->last().method, "GET");
  EXPECT_EQ(transport->last().target, "/apis/ecsbind.kcm.dev/v1/ecsbinds/bind-1");
  EXPECT_EQ(b->metadata.name, "bind-1");
  EXPECT_EQ(b->metadata.resource_version, "41");
  EXPECT_EQ(b->spec.instance_id, "i-abc");
  EXPECT_EQ(b->spec.private_ip, "10.0.0.7");
  EXPECT_FALSE(b->spec.node_name.has_value());
  EXPECT_EQ(b->status.phase, "Pending");
}

TEST(TypedClientTest, BuiltInKindsUseTheSameTemplate) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(200, R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"node-a"},)"
                         R"("spec":{"providerID":"ecs://i-abc"},)"
                         R"("status":{"addresses":[{"type":"InternalIP","address":"10.0.0.7"}]}})");
  auto nodes = client_for<api::core_v1::Node>(transport);
  auto n = nodes.get("node-a");
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(transport->last().target, "/api/v1/nodes/node-a");
  EXPECT_EQ(n->spec.provider_id, "ecs://i-abc");
  ASSERT_EQ(n->status.addresses.size(), 1u);
  EXPECT_EQ(n->status.addresses[0].address, "10.0.0.7");

  // Creating a node sends the encoded struct.
  api::core_v1::Node fresh;
  fresh.metadata.name = "node-b";
  fresh.metadata.labels["ecsbind.kcm.dev/instance"] = "i-def";
  fresh.spec.provider_id = "ecs://i-def";
  transport->answer(
      201, R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"node-b","uid":"n-2"}})");
  auto created = nodes.create(fresh);
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_EQ(created->metadata.uid, "n-2");
  EXPECT_EQ(transport->last().method, "POST");
  EXPECT_EQ(transport->last().target, "/api/v1/nodes");
  EXPECT_EQ(
      transport->last().body,
      R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"node-b",)"
      R"("labels":{"ecsbind.kcm.dev/instance":"i-def"}},"spec":{"providerID":"ecs://i-def"}})");
}

TEST(TypedClientTest, ServerErrorsPassThrough) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(
      404, R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
           R"("message":"ecsbinds.ecsbind.kcm.dev \"nope\" not found","reason":"NotFound",)"
           R"("details":{"name":"nope","group":"ecsbind.kcm.dev","kind":"ecsbinds"},"code":404})");
  auto binds = client_for<EcsBind>(transport);
  auto b = binds.get("nope");
  ASSERT_FALSE(b.ok());
  EXPECT_TRUE(b.error().is(api::reason::kNotFound));
  EXPECT_EQ(b.error().code, 404);
  EXPECT_EQ(b.error().message, R"(ecsbinds.ecsbind.kcm.dev "nope" not found)");
}

TEST(TypedClientTest, UndecodableAnswersAreInternalErrors) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(200,
                    R"({"kind":"EcsBind","metadata":{"name":"bind-1"},"spec":{"instanceId":7}})");
  transport->answer(200, R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"p"}})");
  auto binds = client_for<EcsBind>(transport);
  auto b = binds.get("bind-1");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().code, 500);
  EXPECT_TRUE(b.error().is(api::reason::kInternalError));
  EXPECT_EQ(b.error().message,
            R"(unable to decode EcsBind "bind-1": spec.instanceId: expected string, got number)");
  auto pod = binds.get("p");
  ASSERT_FALSE(pod.ok());
  EXPECT_EQ(pod.error().message,
            R"(unable to decode EcsBind "p": kind: expected "EcsBind", got "Pod")");
}

TEST(TypedClientTest, GetModifyUpdateStatusKeepsWhatIsNotModelled) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(200, std::string(kStoredBind));
  auto binds = client_for<EcsBind>(transport);
  auto b = binds.get("bind-1");
  ASSERT_TRUE(b.ok()) << b.error().message;

  // Unchanged, the object goes back byte for byte.
  transport->answer(200, std::string(kStoredBind));
  ASSERT_TRUE(binds.update(*b).ok());
  EXPECT_EQ(transport->last().method, "PUT");
  EXPECT_EQ(transport->last().target, "/apis/ecsbind.kcm.dev/v1/ecsbinds/bind-1");
  EXPECT_EQ(transport->last().body, kStoredBind);

  b->status.phase = "Bound";
  b->status.observed_generation = b->metadata.generation;
  api::set_condition(b->status.conditions,
                     {.type = "Ready", .status = "True", .reason = "Bound", .message = ""},
                     api::Time(api::Time::TimePoint(std::chrono::seconds(1767323045))));
  transport->answer(200, std::string(kStoredBind));
  ASSERT_TRUE(binds.update_status(*b).ok());
  EXPECT_EQ(transport->last().method, "PUT");
  EXPECT_EQ(transport->last().target, "/apis/ecsbind.kcm.dev/v1/ecsbinds/bind-1/status");
  EXPECT_EQ(
      transport->last().body,
      R"({"apiVersion":"ecsbind.kcm.dev/v1","kind":"EcsBind",)"
      R"("metadata":{"creationTimestamp":"2026-01-02T03:04:05Z","generation":2,"name":"bind-1","resourceVersion":"41","uid":"u-1"},)"
      R"("notes":"kept","spec":{"instanceId":"i-abc","privateIP":"10.0.0.7","zone":"h"},)"
      R"("status":{"lastProbe":{"ok":true},"phase":"Bound","observedGeneration":2,)"
      R"("conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-01-02T03:04:05Z",)"
      R"("reason":"Bound","message":""}]}})");
}

// The untyped status write that keeps only the outcome: the same PUT, and
// an answer that is not decoded (so one that is not JSON still succeeds).
TEST(TypedClientTest, StatusWriteOutcomeSendsTheSamePutAndReadsOnlyTheCode) {
  auto transport = std::make_shared<RecordingTransport>();
  ResourceClient binds(std::make_shared<RestClient>(transport, quiet()), EcsBind::kind_info.gvr());
  const json::value bind = json::parse(kStoredBind);
  transport->answer(200, "not JSON");
  EXPECT_TRUE(binds.update_status_outcome(bind).ok());
  EXPECT_EQ(transport->last().method, "PUT");
  EXPECT_EQ(transport->last().target, "/apis/ecsbind.kcm.dev/v1/ecsbinds/bind-1/status");
  EXPECT_EQ(transport->last().body, kStoredBind);

  transport->answer(409,
                    R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"conflict",)"
                    R"("reason":"Conflict","code":409})");
  auto conflict = binds.update_status_outcome(bind);
  ASSERT_FALSE(conflict.ok());
  EXPECT_TRUE(conflict.error().is(api::reason::kConflict));

  auto nameless = binds.update_status_outcome(json::value(json::object{}));
  ASSERT_FALSE(nameless.ok());
  EXPECT_EQ(transport->requests().size(), 2u);  // nothing sent
}

TEST(TypedClientTest, WritesForMetaSendTheSameRequestsAndReadOnlyNameAndVersion) {
  auto transport = std::make_shared<RecordingTransport>();
  ResourceClient binds(std::make_shared<RestClient>(transport, quiet()), EcsBind::kind_info.gvr());
  const json::value bind = json::parse(kStoredBind);
  std::string written(kStoredBind);
  written.replace(written.find(R"("resourceVersion":"41")"), 22, R"("resourceVersion":"42")");
  transport->answer(200, written);
  auto meta = binds.update_status_for_meta(bind);
  ASSERT_TRUE(meta.ok()) << meta.error().message;
  EXPECT_EQ(meta->name, "bind-1");
  EXPECT_EQ(meta->resource_version, "42");
  EXPECT_EQ(transport->last().method, "PUT");
  EXPECT_EQ(transport->last().target, "/apis/ecsbind.kcm.dev/v1/ecsbinds/bind-1/status");
  EXPECT_EQ(transport->last().body, kStoredBind);

  // A create with generateName learns the name the server chose.
  const json::value generated =
      json::parse(R"({"kind":"EcsBind","metadata":{"generateName":"bind-"}})");
  transport->answer(201,
                    R"({"kind":"EcsBind","metadata":{"generateName":"bind-","name":"bind-x7k2q",)"
                    R"("resourceVersion":"43","uid":"u-2"},"spec":{"zone":"h"}})");
  meta = binds.create_for_meta(generated);
  ASSERT_TRUE(meta.ok()) << meta.error().message;
  EXPECT_EQ(meta->name, "bind-x7k2q");
  EXPECT_EQ(meta->resource_version, "43");
  EXPECT_EQ(transport->last().method, "POST");
  EXPECT_EQ(transport->last().target, "/apis/ecsbind.kcm.dev/v1/ecsbinds");
  EXPECT_EQ(transport->last().body, json::serialize(generated));

  // Only the object's own metadata counts, not a nested one.
  transport->answer(200,
                    R"({"spec":{"template":{"metadata":{"name":"t","resourceVersion":"7"}}}})");
  meta = binds.update_status_for_meta(bind);
  ASSERT_TRUE(meta.ok()) << meta.error().message;
  EXPECT_EQ(meta->name, "");
  EXPECT_EQ(meta->resource_version, "");

  // Unlike the outcome-only write, the body is read: bad JSON is an error,
  // with send_json's message.
  transport->answer(200, R"({"metadata":{"name":"bind-1"})");
  meta = binds.update_status_for_meta(bind);
  ASSERT_FALSE(meta.ok());
  EXPECT_THAT(meta.error().message, HasSubstr("unable to decode the response of PUT"));
  EXPECT_THAT(meta.error().message, HasSubstr("invalid JSON at byte"));

  // A Failure Status is an error, whether it came with a 2xx (as for every
  // decoded answer) or with its own code.
  struct FailureCase {
    int http_status;
    const char* reason;
    int code;
  };
  for (const FailureCase& c :
       {FailureCase{200, "NotFound", 404}, FailureCase{409, "Conflict", 409}}) {
    transport->answer(
        c.http_status,
        R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"m","reason":")" +
            std::string(c.reason) + R"(","code":)" + std::to_string(c.code) + "}");
    meta = binds.create_for_meta(generated);
    ASSERT_FALSE(meta.ok()) << c.reason;
    EXPECT_TRUE(meta.error().is(c.reason)) << meta.error().message;
  }
  // A Success Status is an answer like any other.
  transport->answer(200, R"({"kind":"Status","apiVersion":"v1","status":"Success"})");
  EXPECT_TRUE(binds.update_status_for_meta(bind).ok());

  const std::size_t sent = transport->requests().size();
  EXPECT_FALSE(binds.update_status_for_meta(json::value(json::object{})).ok());
  EXPECT_EQ(transport->requests().size(), sent);  // nothing sent without a name
}

TEST(TypedClientTest, PatchAndRemove) {
  auto transport = std::make_shared<RecordingTransport>();
  auto binds = client_for<EcsBind>(transport);
  transport->answer(200, std::string(kStoredBind));
  auto patched =
      binds.patch("bind-1", PatchType::kMerge, R"({"status":{"phase":"Pending"}})", {}, "status");
  ASSERT_TRUE(patched.ok()) << patched.error().message;
  EXPECT_EQ(patched->status.phase, "Pending");
  EXPECT_EQ(transport->last().method, "PATCH");
  EXPECT_EQ(transport->last().target, "/apis/ecsbind.kcm.dev/v1/ecsbinds/bind-1/status");
  EXPECT_EQ(header(transport->last(), "Content-Type"), "application/merge-patch+json");
  EXPECT_EQ(transport->last().body, R"({"status":{"phase":"Pending"}})");

  // Deletion answers a Success Status, or the object when finalizers hold it.
  transport->answer(200, R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success"})");
  EXPECT_TRUE(binds.remove("bind-1").ok());
  EXPECT_EQ(transport->last().method, "DELETE");
  EXPECT_EQ(transport->last().target, "/apis/ecsbind.kcm.dev/v1/ecsbinds/bind-1");
  transport->answer(200, std::string(kStoredBind));
  EXPECT_TRUE(binds.remove("bind-1").ok());
  // As client-go's Delete, only the outcome counts: the answer is not decoded.
  transport->answer(202, "not JSON");
  EXPECT_TRUE(binds.remove("bind-1").ok());
  transport->answer(409,
                    R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"conflict",)"
                    R"("reason":"Conflict","code":409})");
  DeleteOptions options;
  options.preconditions = Preconditions{.uid = "u-1", .resource_version = std::nullopt};
  auto removed = binds.remove("bind-1", options);
  ASSERT_FALSE(removed.ok());
  EXPECT_TRUE(removed.error().is(api::reason::kConflict));
  EXPECT_EQ(transport->last().body,
            R"({"kind":"DeleteOptions","apiVersion":"v1","preconditions":{"uid":"u-1"}})");
}

TEST(TypedClientTest, ListDecodesEveryItem) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(200, R"({"kind":"EcsBindList","apiVersion":"ecsbind.kcm.dev/v1",)"
                         R"("metadata":{"resourceVersion":"50","continue":"next"},"items":[)"
                         R"({"metadata":{"name":"a"},"spec":{"instanceId":"i-a"}},)"
                         R"({"metadata":{"name":"b"},"spec":{"instanceId":"i-b"}}]})");
  auto binds = client_for<EcsBind>(transport);
  ListOptions options;
  options.limit = 2;
  options.label_selector = "app=ecs";
  auto page = binds.list(options);
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_EQ(transport->last().target,
            "/apis/ecsbind.kcm.dev/v1/ecsbinds?labelSelector=app%3Decs&limit=2");
  ASSERT_EQ(page->items.size(), 2u);
  EXPECT_EQ(page->items[0].metadata.name, "a");
  EXPECT_EQ(page->items[1].spec.instance_id, "i-b");
  EXPECT_EQ(page->resource_version, "50");
  EXPECT_EQ(page->continue_token, "next");

  // One bad item fails the list, naming it.
  transport->answer(
      200, R"({"kind":"EcsBindList","apiVersion":"ecsbind.kcm.dev/v1","metadata":{},)"
           R"("items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"},"status":[]}]})");
  auto bad = binds.list();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            R"(unable to decode EcsBind "b": status: expected object, got array)");
}

TEST(TypedClientTest, WatchDeliversTypedEvents) {
  auto transport = std::make_shared<RecordingTransport>();
  transport->answer(
      200,
      R"({"type":"ADDED","object":{"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"a","resourceVersion":"5"},"spec":{"instanceId":"i-a"}}})"
      "\n"
      R"({"type":"MODIFIED","object":{"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"a","resourceVersion":"6"},"spec":{"instanceId":7}}})"
      "\n"
      R"({"type":"DELETED","object":{"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"a","resourceVersion":"7"}}})"
      "\n"
      R"j({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (5)","reason":"Expired","code":410}})j"
      "\n");
  auto binds = client_for<EcsBind>(transport);
  ListOptions options;
  options.resource_version = "4";
  auto watch = binds.watch(options);
  ASSERT_TRUE(watch.ok()) << watch.error().message;
  EXPECT_EQ(transport->last().target,
            "/apis/ecsbind.kcm.dev/v1/ecsbinds?resourceVersion=4&watch=true");

  auto added = watch->next();
  ASSERT_TRUE(added.ok() && added->has_value());
  EXPECT_EQ((*added)->type, WatchEventType::kAdded);
  EXPECT_EQ((*added)->object.spec.instance_id, "i-a");
  EXPECT_EQ((*added)->object.metadata.resource_version, "5");

  // An object that does not decode is an error; the stream goes on.
  auto bad = watch->next();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            R"(unable to decode EcsBind "a": spec.instanceId: expected string, got number)");

  auto deleted = watch->next();
  ASSERT_TRUE(deleted.ok() && deleted->has_value());
  EXPECT_EQ((*deleted)->type, WatchEventType::kDeleted);
  EXPECT_EQ((*deleted)->object.metadata.resource_version, "7");

  auto error = watch->next();
  ASSERT_TRUE(error.ok() && error->has_value());
  EXPECT_EQ((*error)->type, WatchEventType::kError);
  EXPECT_TRUE((*error)->status.is(api::reason::kExpired));
  EXPECT_EQ((*error)->status.code, 410);

  auto end = watch->next();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

TEST(TypedClientTest, NamespacedKinds) {
  auto transport = std::make_shared<RecordingTransport>();
  auto all = client_for<Settings>(transport);
  auto team = all.in_namespace("team");
  EXPECT_EQ(team.namespace_name(), "team");
  transport->answer(
      200, R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"s","namespace":"team"},)"
           R"("data":{"a":"1"},"binaryData":{"b":"AA=="}})");
  auto s = team.get("s");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(transport->last().target, "/api/v1/namespaces/team/configmaps/s");
  EXPECT_EQ(s->data.at("a"), "1");
  EXPECT_EQ(s->extra.fields().at("binaryData"), json::parse(R"({"b":"AA=="})"));

  transport->answer(200, R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{},"items":[]})");
  ASSERT_TRUE(all.list().ok());
  EXPECT_EQ(transport->last().target, "/api/v1/configmaps");

  // Writes through a client for all namespaces go to the object's namespace.
  Settings fresh;
  fresh.metadata.name = "new";
  fresh.metadata.namespace_ = "team";
  fresh.data["k"] = "v";
  transport->answer(
      201,
      R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"new","namespace":"team"}})");
  ASSERT_TRUE(all.create(fresh).ok());
  EXPECT_EQ(transport->last().target, "/api/v1/namespaces/team/configmaps");
  EXPECT_EQ(
      transport->last().body,
      R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"new","namespace":"team"},"data":{"k":"v"}})");
  transport->answer(
      200,
      R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"new","namespace":"team"}})");
  ASSERT_TRUE(all.update(fresh).ok());
  EXPECT_EQ(transport->last().target, "/api/v1/namespaces/team/configmaps/new");
  // The client's own namespace wins.
  transport->answer(
      201,
      R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"new","namespace":"team"}})");
  ASSERT_TRUE(all.in_namespace("elsewhere").create(fresh).ok());
  EXPECT_EQ(transport->last().target, "/api/v1/namespaces/elsewhere/configmaps");
}

TEST(TypedClientTest, FromAClientset) {
  RestConfig config;
  config.host = "http://127.0.0.1:1";
  auto clientset = Clientset::create(config);
  ASSERT_TRUE(clientset.ok()) << clientset.error();
  auto binds = typed_client<EcsBind>(**clientset);
  EXPECT_EQ(binds.dynamic().resource(), EcsBind::kind_info.gvr());
  EXPECT_EQ(binds.namespace_name(), "");
  auto nodes = typed_client<api::core_v1::Node>(**clientset);
  EXPECT_EQ(nodes.dynamic().resource(), (api::GroupVersionResource{"", "v1", "nodes"}));
  auto settings = typed_client<Settings>(**clientset, "team");
  EXPECT_EQ(settings.namespace_name(), "team");
  EXPECT_EQ(settings.dynamic().resource(), (api::GroupVersionResource{"", "v1", "configmaps"}));
  // typed_client<EcsBind>(clientset, "ns") does not compile: EcsBind is cluster-scoped.
}

}  // namespace
}  // namespace kcm::client
