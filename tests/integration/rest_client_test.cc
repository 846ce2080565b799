// The client's transport, REST and watch layers against a real kcm-local.
// RestConfigs are built by hand from the files kcm-local writes (pki/ca.crt,
// admin.crt/.key, token), except where the kubeconfig loader itself is used.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "client/clientset.h"
#include "client/discovery.h"
#include "client/kubeconfig.h"
#include "local_cluster.h"

namespace kcm::client {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ClientIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    e2e::LocalCluster::Options options;
    options.extra_args = {"--watch-history", "20"};
    cluster_ = new e2e::LocalCluster(options);
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }

  static RestConfig cert_config() {
    RestConfig c;
    c.host = cluster_->url();
    const auto pki = cluster_->data_dir() / "pki";
    c.ca_pem = slurp(pki / "ca.crt");
    c.client_cert_pem = slurp(pki / "admin.crt");
    c.client_key_pem = slurp(pki / "admin.key");
    c.qps = -1;  // no client-side limit unless a test wants one
    return c;
  }
  static RestConfig token_config() {
    RestConfig c;
    c.host = cluster_->url();
    c.ca_pem = slurp(cluster_->data_dir() / "pki" / "ca.crt");
    c.bearer_token = slurp(cluster_->data_dir() / "pki" / "token");
    while (!c.bearer_token.empty() && c.bearer_token.back() == '\n')
      c.bearer_token.pop_back();
    c.qps = -1;
    return c;
  }
  static std::shared_ptr<Clientset> clients(const RestConfig& config) {
    auto cs = Clientset::create(config);
    EXPECT_TRUE(cs.ok()) << cs.error();
    return cs.ok() ? *cs : nullptr;
  }
  static void ensure_namespace(Clientset& cs, const std::string& name) {
    auto created = cs.namespaces().create(json::parse(
        R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + name + R"("}})"));
    ASSERT_TRUE(created.ok() || created.error().is(api::reason::kAlreadyExists))
        << created.error().message;
  }
  static json::value lease(const std::string& ns, const std::string& name,
                           const std::string& holder, const std::string& labels = "{}") {
    return json::parse(
        R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":")" + name +
        R"(","namespace":")" + ns + R"(","labels":)" + labels + R"(},"spec":{"holderIdentity":")" +
        holder + R"("}})");
  }

  static e2e::LocalCluster* cluster_;
};

e2e::LocalCluster* ClientIntegrationTest::cluster_ = nullptr;

std::string rv_of(const json::value& v) {
  return std::string(api::as_string_view(api::find_path(v, {"metadata", "resourceVersion"})));
}
std::string name_of(const json::value& v) {
  return std::string(api::as_string_view(api::find_path(v, {"metadata", "name"})));
}

TEST_F(ClientIntegrationTest, TlsWithClientCertificate) {
  auto cs = clients(cert_config());
  auto list = cs->namespaces().list({});
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_FALSE(list->resource_version.empty());
  bool has_default = false;
  for (const auto& item : list->items) {
    has_default |= name_of(item) == "default";
    EXPECT_EQ(api::as_string_view(api::find_path(item, {"kind"})), "Namespace");
  }
  EXPECT_TRUE(has_default);
  // Keep-alive: the same connection serves further requests.
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(cs->namespaces().get("default").ok());
  EXPECT_EQ(cs->transport().connections_opened(), 1u);
}

TEST_F(ClientIntegrationTest, BearerToken) {
  auto cs = clients(token_config());
  auto got = cs->namespaces().get("default");
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(name_of(*got), "default");
}

TEST_F(ClientIntegrationTest, KubeconfigTokenContext) {
  auto kubeconfig = load_kubeconfig_file(cluster_->kubeconfig().string());
  ASSERT_TRUE(kubeconfig.ok()) << kubeconfig.error();
  for (const std::string context : {"", "kcm-local-token"}) {
    auto config = client_config(*kubeconfig, {context, ""});
    ASSERT_TRUE(config.ok()) << config.error();
    auto cs = clients(*config);
    auto got = cs->namespaces().get("kube-system");
    ASSERT_TRUE(got.ok()) << context << ": " << got.error().message;
  }
}

TEST_F(ClientIntegrationTest, WithoutCredentialsIsUnauthorized) {
  RestConfig c = token_config();
  c.bearer_token.clear();
  auto cs = clients(c);
  auto got = cs->namespaces().get("default");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, 401);
  EXPECT_TRUE(got.error().is(api::reason::kUnauthorized)) << got.error().reason;
}

TEST_F(ClientIntegrationTest, WrongCaIsRejectedClearly) {
  RestConfig c = cert_config();
  c.ca_pem = c.client_cert_pem;  // a certificate that did not sign the server's
  auto cs = clients(c);
  auto got = cs->namespaces().get("default");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, 0);
  EXPECT_EQ(got.error().message,
            "Get \"" + cluster_->url() +
                "/api/v1/namespaces/default\": tls: failed to verify certificate: x509: "
                "certificate signed by unknown authority");

  // No CA at all: the system roots do not know kcm-local's CA either.
  c.ca_pem.clear();
  auto system_roots = clients(c)->namespaces().get("default");
  ASSERT_FALSE(system_roots.ok());
  EXPECT_NE(system_roots.error().message.find("x509: certificate signed by unknown authority"),
            std::string::npos)
      << system_roots.error().message;

  // ... unless verification is skipped.
  c.insecure_skip_tls_verify = true;
  auto insecure = clients(c)->namespaces().get("default");
  EXPECT_TRUE(insecure.ok()) << insecure.error().message;
}

TEST_F(ClientIntegrationTest, ServerNameIsVerified) {
  RestConfig c = cert_config();
  c.tls_server_name = "not-kcm.example.com";
  auto got = clients(c)->namespaces().get("default");
  ASSERT_FALSE(got.ok());
  EXPECT_NE(got.error().message.find("tls: failed to verify certificate: x509: certificate is "
                                     "valid for "),
            std::string::npos)
      << got.error().message;
  EXPECT_NE(got.error().message.find(", not not-kcm.example.com"), std::string::npos)
      << got.error().message;
  c.tls_server_name = "localhost";
  auto ok = clients(c)->namespaces().get("default");
  EXPECT_TRUE(ok.ok()) << ok.error().message;
}

TEST_F(ClientIntegrationTest, LeaseCrud) {
  auto cs = clients(cert_config());
  ensure_namespace(*cs, "crud");
  auto leases = cs->leases("crud");

  auto created = leases.create(lease("crud", "l1", "a"));
  ASSERT_TRUE(created.ok()) << created.error().message;
  EXPECT_FALSE(rv_of(*created).empty());
  auto again = leases.create(lease("crud", "l1", "a"));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, 409);
  EXPECT_TRUE(again.error().is(api::reason::kAlreadyExists));
  EXPECT_EQ(again.error().message, "leases.coordination.k8s.io \"l1\" already exists");

  auto got = leases.get("l1");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(rv_of(*got), rv_of(*created));

  json::value changed = *got;
  changed.at("spec").as_object()["holderIdentity"] = "b";
  auto updated = leases.update(changed);
  ASSERT_TRUE(updated.ok()) << updated.error().message;
  EXPECT_EQ(api::as_string_view(api::find_path(*updated, {"spec", "holderIdentity"})), "b");
  // The stale resourceVersion now conflicts.
  auto stale = leases.update(changed);
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error().code, 409);
  EXPECT_TRUE(stale.error().is(api::reason::kConflict));

  auto merged = leases.patch("l1", PatchType::kMerge, R"({"spec":{"leaseDurationSeconds":15}})");
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(api::find_path(*merged, {"spec", "leaseDurationSeconds"})->as_int64(), 15);
  auto json_patch = leases.patch("l1", PatchType::kJson,
                                 R"([{"op":"replace","path":"/spec/holderIdentity","value":"c"}])");
  ASSERT_TRUE(json_patch.ok()) << json_patch.error().message;
  EXPECT_EQ(api::as_string_view(api::find_path(*json_patch, {"spec", "holderIdentity"})), "c");
  auto strategic =
      leases.patch("l1", PatchType::kStrategicMerge, R"({"metadata":{"labels":{"tier":"x"}}})");
  ASSERT_TRUE(strategic.ok()) << strategic.error().message;

  PatchOptions dry;
  dry.dry_run = {"All"};
  auto dry_patch =
      leases.patch("l1", PatchType::kMerge, R"({"spec":{"holderIdentity":"dry"}})", dry);
  ASSERT_TRUE(dry_patch.ok()) << dry_patch.error().message;
  EXPECT_EQ(api::as_string_view(api::find_path(*leases.get("l1"), {"spec", "holderIdentity"})),
            "c");

  // Preconditions on delete.
  DeleteOptions wrong_uid;
  wrong_uid.preconditions = Preconditions{"not-the-uid", std::nullopt};
  auto refused = leases.delete_object("l1", wrong_uid);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, 409);

  DeleteOptions right;
  right.propagation_policy = "Background";
  right.preconditions = Preconditions{
      std::string(api::as_string_view(api::find_path(*got, {"metadata", "uid"}))), std::nullopt};
  auto deleted = leases.delete_object("l1", right);
  ASSERT_TRUE(deleted.ok()) << deleted.error().message;
  auto gone = leases.get("l1");
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().code, 404);
  EXPECT_TRUE(gone.error().is(api::reason::kNotFound));
  EXPECT_EQ(gone.error().message, "leases.coordination.k8s.io \"l1\" not found");

  auto no_name = leases.get("");
  ASSERT_FALSE(no_name.ok());
  EXPECT_EQ(no_name.error().message, "name is required");
}

TEST_F(ClientIntegrationTest, ServerSideApplyRequest) {
  auto cs = clients(cert_config());
  ensure_namespace(*cs, "apply");
  auto leases = cs->leases("apply");
  ASSERT_TRUE(leases.create(lease("apply", "applied", "w")).ok());
  PatchOptions options;
  options.field_manager = "kcm-test";
  options.force = true;
  const std::string body =
      R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"applied"},"spec":{"holderIdentity":"x"}})";
  auto applied = leases.patch("applied", PatchType::kApply, body, options);
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  EXPECT_EQ(api::as_string_view(api::find_path(*applied, {"spec", "holderIdentity"})), "x");
  // The applier owns what it applied; the creator keeps the rest.
  std::vector<std::string> managers;
  for (const auto& e : api::find_path(*applied, {"metadata", "managedFields"})->as_array()) {
    managers.push_back(std::string(api::as_string_view(e.as_object().if_contains("manager"))) +
                       "/" +
                       std::string(api::as_string_view(e.as_object().if_contains("operation"))));
  }
  EXPECT_THAT(managers, ::testing::Contains("kcm-test/Apply"));
  // Without force, a field another manager owns is a conflict (409).
  options.force = false;
  auto conflict = leases.patch(
      "applied", PatchType::kApply,
      R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"applied"},"spec":{"holderIdentity":"y"}})",
      [] {
        PatchOptions o;
        o.field_manager = "other";
        return o;
      }());
  ASSERT_FALSE(conflict.ok());
  EXPECT_EQ(conflict.error().message,
            "Apply failed with 1 conflict: conflict with \"kcm-test\": .spec.holderIdentity");
}

// Managed fields a client writes are kept when they decode, and then
// validated as object metadata (upstream's ValidateManagedFields).
TEST_F(ClientIntegrationTest, ClientWrittenManagedFieldsAreValidated) {
  auto cs = clients(cert_config());
  ensure_namespace(*cs, "managed-fields");
  auto leases = cs->leases("managed-fields");
  auto created = leases.create(lease("managed-fields", "l", "h"));
  ASSERT_TRUE(created.ok()) << created.error().message;
  json::value changed = *created;
  changed.as_object()["metadata"].as_object()["managedFields"] = json::parse(
      R"([{"manager":")" + std::string(129, 'm') +
      R"(","operation":"Update","apiVersion":"coordination.k8s.io/v1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}])");
  auto refused = leases.update(changed);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, 422);
  EXPECT_EQ(refused.error().message,
            "Lease.coordination.k8s.io \"l\" is invalid: metadata.managedFields[0].manager: Too "
            "long: may not be more than 128 bytes");
}

// Writes through /scale are tracked on the Scale: an applier owns the
// replicas through it, with the parent's version and subresource "scale".
TEST_F(ClientIntegrationTest, ServerSideApplyThroughScale) {
  auto cs = clients(cert_config());
  ensure_namespace(*cs, "apply-scale");
  auto deployments = cs->deployments("apply-scale");
  auto created = deployments.create(
      json::parse(
          R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}})"),
      [] {
        CreateOptions o;
        o.field_manager = "creator";
        return o;
      }());
  ASSERT_TRUE(created.ok()) << created.error().message;
  const std::string scale =
      R"({"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web"},"spec":{"replicas":5}})";
  PatchOptions options;
  options.field_manager = "autoscaler";
  auto conflict = deployments.patch("web", PatchType::kApply, scale, options, "scale");
  ASSERT_FALSE(conflict.ok());
  EXPECT_EQ(conflict.error().message,
            "Apply failed with 1 conflict: conflict with \"creator\" using autoscaling/v1: "
            ".spec.replicas");
  options.force = true;
  auto applied = deployments.patch("web", PatchType::kApply, scale, options, "scale");
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  EXPECT_EQ(api::find_path(*applied, {"spec", "replicas"})->as_int64(), 5);
  auto got = deployments.get("web");
  ASSERT_TRUE(got.ok()) << got.error().message;
  std::vector<std::string> entries;
  for (const auto& e : api::find_path(*got, {"metadata", "managedFields"})->as_array()) {
    const auto& o = e.as_object();
    entries.push_back(std::string(api::as_string_view(o.if_contains("manager"))) + " " +
                      std::string(api::as_string_view(o.if_contains("operation"))) + " " +
                      std::string(api::as_string_view(o.if_contains("apiVersion"))) + " " +
                      (o.contains("subresource")
                           ? std::string(api::as_string_view(o.if_contains("subresource")))
                           : "-") +
                      " " + api::to_json_string(*o.if_contains("fieldsV1")).substr(0, 40));
  }
  EXPECT_THAT(entries,
              ::testing::ElementsAre(
                  R"(autoscaler Apply apps/v1 scale {"f:spec":{"f:replicas":{}}})",
                  ::testing::StartsWith(R"(creator Update apps/v1 - {"f:spec":{"f:progress)")));

  // A Scale naming another uid is a failed precondition.
  auto wrong_uid = deployments.update(
      json::parse(
          R"({"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"web","uid":"other"},"spec":{"replicas":1}})"),
      {}, "scale");
  ASSERT_FALSE(wrong_uid.ok());
  EXPECT_EQ(wrong_uid.error().code, 409);
  EXPECT_THAT(wrong_uid.error().message,
              ::testing::StartsWith("Operation cannot be fulfilled on deployments/scale.apps "
                                    "\"web\": Precondition failed: UID in precondition: other, "
                                    "UID in object meta: "));
}

TEST_F(ClientIntegrationTest, NamespaceAndPodLifecycle) {
  auto cs = clients(cert_config());
  ensure_namespace(*cs, "pods-ns");
  auto pods = cs->pods("pods-ns");
  auto created = pods.create(json::parse(
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1"},"spec":{"containers":[{"name":"c","image":"busybox"}]}})"));
  ASSERT_TRUE(created.ok()) << created.error().message;
  auto invalid = pods.create(json::parse(
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"Bad_Name"},"spec":{"containers":[{"name":"c","image":"busybox"}]}})"));
  ASSERT_FALSE(invalid.ok());
  EXPECT_EQ(invalid.error().code, 422);
  EXPECT_TRUE(invalid.error().is(api::reason::kInvalid));
  DeleteOptions now;
  now.grace_period_seconds = 0;
  auto deleted = pods.delete_object("p1", now);
  ASSERT_TRUE(deleted.ok()) << deleted.error().message;
}

TEST_F(ClientIntegrationTest, ListPagination) {
  auto cs = clients(cert_config());
  ensure_namespace(*cs, "pages");
  auto leases = cs->leases("pages");
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(
        leases.create(lease("pages", "l" + std::to_string(i), "h", R"({"page":"yes"})")).ok());
  }
  ListOptions options;
  options.limit = 2;
  auto first = leases.list(options);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->items.size(), 2u);
  EXPECT_FALSE(first->continue_token.empty());

  auto all = leases.list_all(options);
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_EQ(all->items.size(), 5u);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(name_of(all->items[i]), "l" + std::to_string(i));

  ListOptions selected;
  selected.label_selector = "page=yes";
  auto removed = leases.delete_collection({}, selected);
  ASSERT_TRUE(removed.ok()) << removed.error().message;
  auto after = leases.list({});
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->items.empty());
}

TEST_F(ClientIntegrationTest, WatchSeesAddedModifiedDeleted) {
  auto cs = clients(cert_config());
  ensure_namespace(*cs, "watch");
  auto leases = cs->leases("watch");
  auto start = leases.list({});
  ASSERT_TRUE(start.ok());
  ListOptions options;
  options.resource_version = start->resource_version;
  options.timeout_seconds = 30;
  auto watch = leases.watch(options);
  ASSERT_TRUE(watch.ok()) << watch.error().message;

  auto created = leases.create(lease("watch", "w1", "a"));
  ASSERT_TRUE(created.ok());
  auto patched = leases.patch("w1", PatchType::kMerge, R"({"spec":{"holderIdentity":"b"}})");
  ASSERT_TRUE(patched.ok());
  ASSERT_TRUE(leases.delete_object("w1").ok());

  std::vector<WatchEventType> types;
  while (types.size() < 3) {
    auto event = (*watch)->next();
    ASSERT_TRUE(event.ok()) << event.error().message;
    ASSERT_TRUE(event->has_value()) << "the watch ended early";
    EXPECT_EQ(name_of((*event)->object), "w1");
    types.push_back((*event)->type);
  }
  EXPECT_EQ(types, (std::vector<WatchEventType>{WatchEventType::kAdded, WatchEventType::kModified,
                                                WatchEventType::kDeleted}));
}

TEST_F(ClientIntegrationTest, TooOldResourceVersionIsExpired) {
  auto cs = clients(cert_config());
  ensure_namespace(*cs, "old");
  auto leases = cs->leases("old");
  auto first = leases.create(lease("old", "churn", "0"));
  ASSERT_TRUE(first.ok());
  // More changes than --watch-history keeps.
  for (int i = 1; i <= 30; ++i) {
    auto p = leases.patch("churn", PatchType::kMerge,
                          R"({"spec":{"holderIdentity":")" + std::to_string(i) + R"("}})");
    ASSERT_TRUE(p.ok()) << p.error().message;
  }
  ListOptions options;
  options.resource_version = rv_of(*first);
  auto watch = leases.watch(options);
  ASSERT_TRUE(watch.ok()) << watch.error().message;
  auto event = (*watch)->next();
  ASSERT_TRUE(event.ok()) << event.error().message;
  ASSERT_TRUE(event->has_value());
  ASSERT_EQ((*event)->type, WatchEventType::kError);
  const auto status = api::Status::from_json((*event)->object);
  EXPECT_EQ(status.code, 410);
  EXPECT_TRUE(status.is(api::reason::kExpired)) << status.reason;
  EXPECT_TRUE(status.message.starts_with("too old resource version: ")) << status.message;
}

TEST_F(ClientIntegrationTest, RateLimiterThrottles) {
  RestConfig c = cert_config();
  c.qps = 5;
  c.burst = 1;
  auto cs = clients(c);
  const auto start = steady_clock::now();
  for (int i = 0; i < 6; ++i)
    ASSERT_TRUE(cs->namespaces().get("default").ok());
  const auto elapsed = steady_clock::now() - start;
  // One token at once, then one every 200ms.
  EXPECT_GE(elapsed, milliseconds(950));
  EXPECT_LT(elapsed, milliseconds(3000));
}

TEST_F(ClientIntegrationTest, StopUnblocksAWatchFromAnotherThread) {
  auto cs = clients(cert_config());
  ensure_namespace(*cs, "quiet");
  auto watch = cs->leases("quiet").watch({});
  ASSERT_TRUE(watch.ok()) << watch.error().message;
  std::thread stopper([&] {
    std::this_thread::sleep_for(milliseconds(300));
    (*watch)->stop();
  });
  const auto start = steady_clock::now();
  auto event = (*watch)->next();
  stopper.join();
  ASSERT_TRUE(event.ok()) << event.error().message;
  EXPECT_FALSE(event->has_value());
  EXPECT_LT(steady_clock::now() - start, std::chrono::seconds(3));
  // A stopped stream stays ended.
  auto after = (*watch)->next();
  ASSERT_TRUE(after.ok());
  EXPECT_FALSE(after->has_value());
}

TEST_F(ClientIntegrationTest, UnknownResourceIsNotFound) {
  auto cs = clients(cert_config());
  auto got = cs->resource({"example.com", "v1", "widgets"}, "default").get("w");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, 404);
  EXPECT_TRUE(got.error().is(api::reason::kNotFound));
}

// What the garbage collector and the namespace controller start from.
TEST_F(ClientIntegrationTest, DiscoveryListsThePreferredResources) {
  auto cs = clients(cert_config());
  ASSERT_TRUE(cs);
  DiscoveryClient discovery(cs->rest());
  auto groups = discovery.server_groups();
  ASSERT_TRUE(groups.ok()) << groups.error().message;
  ASSERT_FALSE(groups->empty());
  EXPECT_EQ(groups->front().name, "");
  EXPECT_EQ(groups->front().preferred_version, "v1");

  auto preferred = discovery.server_preferred_resources();
  ASSERT_TRUE(preferred.ok()) << preferred.error().message;
  EXPECT_TRUE(preferred->failed.empty());
  const auto find = [&](std::string_view group, std::string_view name) -> const ApiResource* {
    for (const ApiResource& r : preferred->resources)
      if (r.group_version.group == group && r.name == name) return &r;
    return nullptr;
  };
  const ApiResource* pods = find("", "pods");
  ASSERT_NE(pods, nullptr);
  EXPECT_TRUE(pods->namespaced);
  EXPECT_EQ(pods->kind, "Pod");
  EXPECT_TRUE(pods->supports_all({"delete", "list", "watch", "deletecollection"}));
  const ApiResource* deployments = find("apps", "deployments");
  ASSERT_NE(deployments, nullptr);
  EXPECT_EQ(deployments->group_version.version, "v1");
  const ApiResource* namespaces = find("", "namespaces");
  ASSERT_NE(namespaces, nullptr);
  EXPECT_FALSE(namespaces->namespaced);
  EXPECT_EQ(find("", "pods/status"), nullptr);  // no subresources

  auto missing = discovery.server_resources_for_group_version({"nope.example.com", "v1"});
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.error().is(api::reason::kNotFound));
}

}  // namespace
}  // namespace kcm::client
