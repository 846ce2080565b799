#include "cache/typed_lister.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "api/kinds/node.h"
#include "test_util.h"

namespace kcm::cache {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;
using api::core_v1::Node;
using testing::eventually;
using testing::FakeApiServer;

struct EcsBindSpec {
  std::string instance_id;
  std::string private_ip;
  api::UnknownFields extra;
  static constexpr api::JsonMember json_members[] = {{.member = "private_ip", .json = "privateIP"}};
};
BOOST_DESCRIBE_STRUCT(EcsBindSpec, (), (instance_id, private_ip, extra))

struct EcsBind {
  static constexpr api::KindInfo kind_info{.group = "ecsbind.kcm.dev",
                                           .version = "v1",
                                           .kind = "EcsBind",
                                           .plural = "ecsbinds",
                                           .scope = api::Scope::kCluster};
  api::ObjectMeta metadata;
  EcsBindSpec spec;
  api::UnknownFields extra;
};
BOOST_DESCRIBE_STRUCT(EcsBind, (), (metadata, spec, extra))

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

json::value parse(std::string_view text) {
  return json::parse(text);
}

ObjectPtr cached_json(std::string_view text) {
  return CachedObject::from_json(parse(text)).value();
}

std::shared_ptr<Indexer> indexer_with(const std::vector<std::string_view>& objects) {
  Indexers indexers;
  indexers.emplace(std::string(kNamespaceIndex), meta_namespace_index_func);
  auto indexer = std::make_shared<Indexer>(std::move(indexers));
  for (std::string_view o : objects)
    indexer->add(cached_json(o));
  return indexer;
}

std::vector<std::string> names(const std::vector<EcsBind>& binds) {
  std::vector<std::string> out;
  for (const EcsBind& b : binds)
    out.push_back(b.metadata.name);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(TypedListerTest, GetAndListDecode) {
  auto indexer = indexer_with({
      R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"a","labels":{"app":"ecs"}},"spec":{"instanceId":"i-a","privateIP":"10.0.0.1","zone":"h"}})",
      R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"b"},"spec":{"instanceId":"i-b"}})",
  });
  const TypedLister<EcsBind> lister(Lister(indexer, EcsBind::kind_info.group_resource()));

  auto a = lister.get("a");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->spec.instance_id, "i-a");
  EXPECT_EQ(a->spec.private_ip, "10.0.0.1");
  EXPECT_EQ(a->spec.extra.fields().at("zone"), json::value("h"));

  auto missing = lister.get("zzz");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.error().is(api::reason::kNotFound));
  EXPECT_EQ(missing.error().message, R"(ecsbinds.ecsbind.kcm.dev "zzz" not found)");

  auto all = lister.list();
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(names(*all), (std::vector<std::string>{"a", "b"}));
  auto selected = lister.list(api::labels::Selector::from_set({{"app", "ecs"}}));
  ASSERT_TRUE(selected.ok());
  EXPECT_EQ(names(*selected), (std::vector<std::string>{"a"}));
}

TEST(TypedListerTest, ValuesAreTheCallersOwn) {
  auto indexer = indexer_with(
      {R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"a"},"spec":{"instanceId":"i-a"}})"});
  const TypedLister<EcsBind> lister(Lister(indexer, EcsBind::kind_info.group_resource()));
  auto first = lister.get("a");
  ASSERT_TRUE(first.ok());
  first->spec.instance_id = "changed";
  first->metadata.labels["x"] = "y";
  auto again = lister.get("a");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->spec.instance_id, "i-a");
  EXPECT_TRUE(again->metadata.labels.empty());
}

TEST(TypedListerTest, UndecodableCachedObjectsAreErrors) {
  auto indexer = indexer_with({
      R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"a"},"spec":{"instanceId":"i-a"}})",
      R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"bad"},"spec":{"privateIP":false}})",
  });
  const TypedLister<EcsBind> lister(Lister(indexer, EcsBind::kind_info.group_resource()));
  EXPECT_TRUE(lister.get("a").ok());
  auto bad = lister.get("bad");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, 500);
  EXPECT_EQ(bad.error().message,
            R"(unable to decode EcsBind "bad": spec.privateIP: expected string, got boolean)");
  auto all = lister.list();
  ASSERT_FALSE(all.ok());
  EXPECT_EQ(all.error().message, bad.error().message);
}

TEST(TypedListerTest, NamespacedKinds) {
  auto indexer = indexer_with({
      R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"s","namespace":"team"},"data":{"a":"1"}})",
      R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"s","namespace":"other"},"data":{"a":"2"}})",
      R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"t","namespace":"team"}})",
  });
  const TypedLister<Settings> lister(Lister(indexer, Settings::kind_info.group_resource()));
  auto team = lister.namespace_("team");
  auto s = team.get("s");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->data.at("a"), "1");
  auto in_team = team.list();
  ASSERT_TRUE(in_team.ok());
  EXPECT_EQ(in_team->size(), 2u);
  auto missing = lister.namespace_("other").get("t");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, R"(configmaps "t" not found)");
  // The cluster-wide lister takes "namespace/name".
  auto other = lister.get("other/s");
  ASSERT_TRUE(other.ok()) << other.error().message;
  EXPECT_EQ(other->data.at("a"), "2");
  auto all = lister.list();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 3u);
}

TEST(TypedListerTest, DecodeCached) {
  const ObjectPtr o = cached_json(
      R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n"},"spec":{"providerID":"ecs://i"}})");
  auto n = decode_cached<Node>(*o);
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(n->spec.provider_id, "ecs://i");
  auto wrong = decode_cached<EcsBind>(*o);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().message,
            R"(unable to decode EcsBind "n": kind: expected "EcsBind", got "Node")");
}

TEST(TypedListerTest, TypedInformerFromTheFactory) {
  std::map<std::string, std::shared_ptr<FakeApiServer>> servers;
  std::vector<api::GroupVersionResource> asked;
  SharedInformerFactoryOptions options;
  options.informer.reflector.backoff.initial = 1ms;
  options.informer.reflector.backoff.cap = 5ms;
  options.informer.reflector.watch_error_handler = [](const api::Status&) {};
  SharedInformerFactory factory(
      [&](const api::GroupVersionResource& gvr, const std::string&) {
        asked.push_back(gvr);
        auto& s = servers[gvr.resource];
        if (!s) s = std::make_shared<FakeApiServer>();
        return std::shared_ptr<ListerWatcher>(s);
      },
      options);

  auto nodes = typed_informer<Node>(factory);
  auto binds = typed_informer<EcsBind>(factory);
  EXPECT_EQ(factory.informer_for(Node::kind_info.gvr()), nodes.informer);
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[0], (api::GroupVersionResource{"", "v1", "nodes"}));
  EXPECT_EQ(asked[1], (api::GroupVersionResource{"ecsbind.kcm.dev", "v1", "ecsbinds"}));

  servers["nodes"]->create(parse(
      R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"node-a"},"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.7"}]}})"));
  servers["ecsbinds"]->create(parse(
      R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"bind-1"},"spec":{"instanceId":"i-a"}})"));

  std::stop_source stop;
  factory.start(stop.get_token());
  for (const auto& [resource, synced] : factory.wait_for_cache_sync(stop.get_token()))
    EXPECT_TRUE(synced);

  auto node = nodes.lister.get("node-a");
  ASSERT_TRUE(node.ok()) << node.error().message;
  ASSERT_EQ(node->status.addresses.size(), 1u);
  EXPECT_EQ(node->status.addresses[0].address, "10.0.0.7");
  auto bind = binds.lister.get("bind-1");
  ASSERT_TRUE(bind.ok()) << bind.error().message;
  EXPECT_EQ(bind->spec.instance_id, "i-a");

  // Later writes reach the typed lister through the informer.
  servers["ecsbinds"]->create(parse(
      R"({"kind":"EcsBind","apiVersion":"ecsbind.kcm.dev/v1","metadata":{"name":"bind-2"},"spec":{"instanceId":"i-b"}})"));
  EXPECT_TRUE(eventually([&] { return binds.lister.get("bind-2").ok(); }));
  factory.shutdown();
}

}  // namespace
}  // namespace kcm::cache
