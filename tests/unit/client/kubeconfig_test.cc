#include "client/kubeconfig.h"

#include <gtest/gtest.h>

#include "config_test_support.h"

namespace kcm::client {
namespace {

using testing::TempDir;

constexpr const char* kFull = R"(apiVersion: v1
kind: Config
current-context: dev
preferences: {}
clusters:
- name: c1
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority-data: Q0EtUEVN
    tls-server-name: kubernetes
    proxy-url: http://proxy:3128
    disable-compression: true
    extensions:
    - name: client.authentication.k8s.io/exec
      extension: {audience: kcm}
    - name: other
      extension: 1
- name: c2
  cluster:
    server: http://127.0.0.1:8080
    insecure-skip-tls-verify: true
    certificate-authority: ca.crt
users:
- name: u1
  user:
    token: abc
    tokenFile: tok
    client-certificate-data: Q0VSVA==
    client-key-data: S0VZ
    username: alice
    password: secret
- name: u2
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: plugin
      args: [get-token, --x]
      env:
      - name: A
        value: b
      installHint: install it
      provideClusterInfo: true
contexts:
- name: dev
  context:
    cluster: c1
    user: u1
    namespace: kube-system
extensions: []
)";

TEST(KubeconfigParseTest, ReadsEveryField) {
  auto kc = parse_kubeconfig(kFull);
  ASSERT_TRUE(kc.ok()) << kc.error();
  EXPECT_EQ(kc->current_context, "dev");
  ASSERT_EQ(kc->clusters.size(), 2u);
  const auto& c1 = kc->clusters.at("c1");
  EXPECT_EQ(c1.server, "https://10.0.0.1:6443");
  EXPECT_EQ(c1.certificate_authority_data, "CA-PEM");
  EXPECT_EQ(c1.tls_server_name, "kubernetes");
  EXPECT_EQ(c1.proxy_url, "http://proxy:3128");
  EXPECT_TRUE(c1.disable_compression);
  EXPECT_EQ(c1.exec_extension_json, R"({"audience":"kcm"})");
  EXPECT_FALSE(c1.insecure_skip_tls_verify);
  const auto& c2 = kc->clusters.at("c2");
  EXPECT_TRUE(c2.insecure_skip_tls_verify);
  EXPECT_EQ(c2.certificate_authority, "ca.crt");  // not resolved by parse
  const auto& u1 = kc->users.at("u1");
  EXPECT_EQ(u1.token, "abc");
  EXPECT_EQ(u1.token_file, "tok");
  EXPECT_EQ(u1.client_certificate_data, "CERT");
  EXPECT_EQ(u1.client_key_data, "KEY");
  EXPECT_EQ(u1.username, "alice");
  EXPECT_EQ(u1.password, "secret");
  EXPECT_FALSE(u1.exec.has_value());
  const auto& u2 = kc->users.at("u2");
  ASSERT_TRUE(u2.exec.has_value());
  EXPECT_EQ(u2.exec->command, "plugin");
  EXPECT_EQ(u2.exec->args, (std::vector<std::string>{"get-token", "--x"}));
  ASSERT_EQ(u2.exec->env.size(), 1u);
  EXPECT_EQ(u2.exec->env[0].first, "A");
  EXPECT_EQ(u2.exec->env[0].second, "b");
  EXPECT_EQ(u2.exec->install_hint, "install it");
  EXPECT_TRUE(u2.exec->provide_cluster_info);
  EXPECT_EQ(u2.exec->interactive_mode, "IfAvailable");  // v1beta1 default
  const auto& dev = kc->contexts.at("dev");
  EXPECT_EQ(dev.cluster, "c1");
  EXPECT_EQ(dev.user, "u1");
  EXPECT_EQ(dev.namespace_name, "kube-system");
}

TEST(KubeconfigParseTest, EmptyAndNullDocumentsAreEmptyConfigs) {
  for (const char* text : {"", "# only a comment\n", "~", "{}"}) {
    auto kc = parse_kubeconfig(text);
    ASSERT_TRUE(kc.ok()) << text << ": " << kc.error();
    EXPECT_TRUE(kc->clusters.empty());
    EXPECT_TRUE(kc->current_context.empty());
  }
}

TEST(KubeconfigParseTest, JsonIsAcceptedToo) {
  auto kc = parse_kubeconfig(
      R"({"apiVersion":"v1","clusters":[{"name":"a","cluster":{"server":"https://x"}}]})");
  ASSERT_TRUE(kc.ok()) << kc.error();
  EXPECT_EQ(kc->clusters.at("a").server, "https://x");
}

TEST(KubeconfigParseTest, V1ExecKeepsInteractiveModeUnset) {
  auto kc = parse_kubeconfig(R"(users:
- name: u
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: p}
)");
  ASSERT_TRUE(kc.ok()) << kc.error();
  EXPECT_EQ(kc->users.at("u").exec->interactive_mode, "");
}

TEST(KubeconfigParseTest, RejectsBadInputWithFieldPaths) {
  const std::pair<std::string, std::string> cases[] = {
      {"users:\n- name: u\n  user:\n    client-certificate-data: Zm9v!!!!\n",
       "users[0].user.client-certificate-data: illegal base64 data at input byte 4"},
      {"clusters:\n- name: a\n- name: c\n  cluster:\n    certificate-authority-data: '%%%%'\n",
       "clusters[1].cluster.certificate-authority-data: illegal base64 data at input byte 0"},
      {"users:\n- name: u\n  user:\n    client-key-data: 123\n",
       "users[0].user.client-key-data: expected string, got number"},
      {"clusters:\n- name: c\n  cluster:\n    insecure-skip-tls-verify: 'true'\n",
       "clusters[0].cluster.insecure-skip-tls-verify: expected boolean, got string"},
      {"clusters:\n- name: c\n  cluster:\n    server: [a]\n",
       "clusters[0].cluster.server: expected string, got array"},
      {"clusters: {}\n", "clusters: expected array, got object"},
      {"clusters:\n- 5\n", "clusters[0]: expected object, got number"},
      {"contexts:\n- name: x\n  context: yes\n",
       "contexts[0].context: expected object, got string"},
      {"current-context: 5\n", "current-context: expected string, got number"},
      {"users:\n- name: u\n  user:\n    exec:\n      args: [a, 1]\n",
       "users[0].user.exec.args[1]: expected string, got number"},
      {"users:\n- name: u\n  user:\n    exec:\n      env: [x]\n",
       "users[0].user.exec.env[0]: expected object, got string"},
      {"users:\n- name: u\n  user:\n    exec:\n      provideClusterInfo: 1\n",
       "users[0].user.exec.provideClusterInfo: expected boolean, got number"},
      {"users:\n- name: u\n  user:\n    auth-provider: oidc\n",
       "users[0].user.auth-provider: expected object, got string"},
      {"clusters:\n- name: c\n  cluster:\n    extensions: [1]\n",
       "clusters[0].cluster.extensions[0]: expected object, got number"},
      {"clusters:\n- name: c\n- name: c\n",
       "error converting *[]NamedCluster into *map[string]*api.Cluster: duplicate name \"c\" in "
       "list"},
      {"users:\n- name: u\n- name: u\n",
       "error converting *[]NamedAuthInfo into *map[string]*api.AuthInfo: duplicate name \"u\" in "
       "list"},
      {"contexts:\n- name: x\n- name: x\n",
       "error converting *[]NamedContext into *map[string]*api.Context: duplicate name \"x\" in "
       "list"},
      {"apiVersion: v2\n", "no kind \"Config\" is registered for version \"v2\""},
      {"kind: Pod\n", "no kind \"Pod\" is registered for version \"v1\""},
      {"- a\n- b\n", "expected a kubeconfig object, got array"},
      {"just text\n", "expected a kubeconfig object, got string"},
  };
  for (const auto& [text, want] : cases) {
    auto kc = parse_kubeconfig(text);
    ASSERT_FALSE(kc.ok()) << text;
    EXPECT_EQ(kc.error(), want) << text;
  }
}

TEST(KubeconfigParseTest, YamlSyntaxErrorsAreReported) {
  auto kc = parse_kubeconfig("clusters: [\n");
  ASSERT_FALSE(kc.ok());
  EXPECT_FALSE(kc.error().empty());
}

TEST(KubeconfigLoadTest, FileErrorsAreGoStyle) {
  TempDir dir;
  auto missing = load_kubeconfig_file(dir.file("nope"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "open " + dir.file("nope") + ": no such file or directory");
  auto is_dir = load_kubeconfig_file(dir.path());
  ASSERT_FALSE(is_dir.ok());
  EXPECT_EQ(is_dir.error(), "read " + dir.path() + ": is a directory");
}

TEST(KubeconfigLoadTest, RecordsOriginAndResolvesPathsAgainstEachFilesDir) {
  TempDir dir;
  const std::string a = dir.write("a/config", R"(current-context: ""
clusters:
- name: c
  cluster: {server: https://a, certificate-authority: certs/../ca.crt}
users:
- name: u
  user:
    client-certificate: client.crt
    client-key: /abs/client.key
    tokenFile: ./tok
    exec: {apiVersion: client.authentication.k8s.io/v1, command: bin/plugin, interactiveMode: Never}
- name: bare
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: plugin, interactiveMode: Never}
)");
  const std::string b = dir.write("b/config", R"(current-context: ctx-b
clusters:
- name: c
  cluster: {server: https://b}
- name: other
  cluster: {server: https://other, certificate-authority: ca.crt}
contexts:
- name: ctx-b
  context: {cluster: c, user: u}
)");
  auto kc = load_kubeconfig_files({a, dir.file("missing"), b});
  ASSERT_TRUE(kc.ok()) << kc.error();
  // First file wins the whole "c" entry.
  EXPECT_EQ(kc->clusters.at("c").server, "https://a");
  EXPECT_EQ(kc->clusters.at("c").certificate_authority, dir.path() + "/a/ca.crt");
  EXPECT_EQ(kc->clusters.at("c").location_of_origin, a);
  EXPECT_EQ(kc->clusters.at("other").certificate_authority, dir.path() + "/b/ca.crt");
  EXPECT_EQ(kc->clusters.at("other").location_of_origin, b);
  // The first non-empty current-context wins.
  EXPECT_EQ(kc->current_context, "ctx-b");
  const auto& u = kc->users.at("u");
  EXPECT_EQ(u.client_certificate, dir.path() + "/a/client.crt");
  EXPECT_EQ(u.client_key, "/abs/client.key");
  EXPECT_EQ(u.token_file, dir.path() + "/a/tok");
  EXPECT_EQ(u.exec->command, dir.path() + "/a/bin/plugin");
  EXPECT_EQ(kc->users.at("bare").exec->command, "plugin");  // looked up in PATH
}

TEST(KubeconfigLoadTest, FirstFileWinsEvenWithDisjointFields) {
  TempDir dir;
  const std::string a = dir.write("a", "users:\n- name: red\n  user: {token: t1}\n");
  const std::string b =
      dir.write("b", "users:\n- name: red\n  user: {username: x}\n- name: blue\n  user: {}\n");
  auto kc = load_kubeconfig_files({a, b});
  ASSERT_TRUE(kc.ok()) << kc.error();
  EXPECT_EQ(kc->users.at("red").token, "t1");
  EXPECT_EQ(kc->users.at("red").username, "");
  EXPECT_EQ(kc->users.count("blue"), 1u);
}

TEST(KubeconfigLoadTest, LoadErrors) {
  TempDir dir;
  const std::string bad1 = dir.write("bad1", "clusters: {}\n");
  const std::string bad2 = dir.write("bad2", "current-context: [x]\n");
  const std::string good = dir.write("good", "current-context: x\n");

  auto explicit_missing = load_kubeconfig_files({dir.file("none")}, true);
  ASSERT_FALSE(explicit_missing.ok());
  EXPECT_EQ(explicit_missing.error(), "stat " + dir.file("none") + ": no such file or directory");

  auto all_missing = load_kubeconfig_files({dir.file("none"), dir.file("none2")});
  ASSERT_TRUE(all_missing.ok());
  EXPECT_TRUE(all_missing->clusters.empty());

  auto one = load_kubeconfig_files({good, bad1});
  ASSERT_FALSE(one.ok());
  EXPECT_EQ(one.error(),
            "error loading config file \"" + bad1 + "\": clusters: expected array, got object");

  auto two = load_kubeconfig_files({bad1, good, bad2});
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error(),
            "[error loading config file \"" + bad1 +
                "\": clusters: expected array, got object, error loading config file \"" + bad2 +
                "\": current-context: expected string, got array]");

  auto base64 = load_kubeconfig_files(
      {dir.write("b64", "users:\n- name: u\n  user:\n    client-certificate-data: Zm9v!!!!\n")},
      true);
  ASSERT_FALSE(base64.ok());
  EXPECT_EQ(base64.error(), "error loading config file \"" + dir.file("b64") +
                                "\": users[0].user.client-certificate-data: illegal base64 data "
                                "at input byte 4");
}

TEST(KubeconfigLoadTest, SplitsKubeconfigList) {
  EXPECT_EQ(split_kubeconfig_list(""), std::vector<std::string>{});
  EXPECT_EQ(split_kubeconfig_list("/a"), std::vector<std::string>{"/a"});
  EXPECT_EQ(split_kubeconfig_list("/a::/b:/a:"), (std::vector<std::string>{"/a", "/b"}));
}

// --- client_config -------------------------------------------------------

Result<RestConfig> from_yaml(const TempDir& dir, const std::string& yaml,
                             const ConfigOverrides& overrides = {}) {
  auto kc = load_kubeconfig_files({dir.write("config", yaml)}, true);
  if (!kc) return fail(kc.error());
  return client_config(*kc, overrides);
}

TEST(ClientConfigTest, BuildsRestConfigFromCurrentContext) {
  TempDir dir;
  dir.write("ca.crt", "CA FILE PEM");
  auto rc = from_yaml(dir, R"(current-context: dev
clusters:
- name: c
  cluster: {server: https://10.0.0.1:6443, certificate-authority: ca.crt, tls-server-name: kube}
users:
- name: u
  user: {token: secret-token, client-certificate-data: Q0VSVA==, client-key-data: S0VZ}
contexts:
- name: dev
  context: {cluster: c, user: u}
)");
  ASSERT_TRUE(rc.ok()) << rc.error();
  EXPECT_EQ(rc->host, "https://10.0.0.1:6443");
  EXPECT_EQ(rc->ca_pem, "CA FILE PEM");
  EXPECT_EQ(rc->ca_file, dir.file("ca.crt"));
  EXPECT_EQ(rc->tls_server_name, "kube");
  EXPECT_EQ(rc->bearer_token, "secret-token");
  EXPECT_EQ(rc->client_cert_pem, "CERT");
  EXPECT_EQ(rc->client_key_pem, "KEY");
  EXPECT_FALSE(rc->insecure_skip_tls_verify);
  EXPECT_EQ(rc->source, "kubeconfig " + dir.file("config"));
}

TEST(ClientConfigTest, ReadsFilesNamedByTheUser) {
  TempDir dir;
  dir.write("tok", "file-token\n");
  dir.write("c.crt", "CERT FILE");
  dir.write("c.key", "KEY FILE");
  auto rc = from_yaml(dir, R"(current-context: x
clusters: [{name: c, cluster: {server: 'https://h', insecure-skip-tls-verify: true}}]
users: [{name: u, user: {tokenFile: tok, client-certificate: c.crt, client-key: c.key}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
)");
  ASSERT_TRUE(rc.ok()) << rc.error();
  EXPECT_EQ(rc->bearer_token, "file-token\n");  // as read; the token source trims
  EXPECT_EQ(rc->bearer_token_file, dir.file("tok"));
  EXPECT_EQ(rc->client_cert_pem, "CERT FILE");
  EXPECT_EQ(rc->client_key_pem, "KEY FILE");
  EXPECT_EQ(rc->client_cert_file, dir.file("c.crt"));
  EXPECT_TRUE(rc->insecure_skip_tls_verify);
}

TEST(ClientConfigTest, ExecPluginCarriesTheClusterExtension) {
  TempDir dir;
  auto rc = from_yaml(dir,
                      "current-context: x\n"
                      "clusters: [{name: c, cluster: {server: 'https://h', extensions: "
                      "[{name: client.authentication.k8s.io/exec, extension: {a: 1}}]}}]\n"
                      "users: [{name: u, user: {exec: {apiVersion: "
                      "client.authentication.k8s.io/v1, command: ./p, interactiveMode: Never, "
                      "installHint: \"get \\e[1mit\"}}}]\n"
                      "contexts: [{name: x, context: {cluster: c, user: u}}]\n");
  ASSERT_TRUE(rc.ok()) << rc.error();
  ASSERT_TRUE(rc->exec.has_value());
  EXPECT_EQ(rc->exec->command, dir.file("p"));
  EXPECT_EQ(rc->exec->cluster_config_json, R"({"a":1})");
  EXPECT_EQ(rc->exec->install_hint, "get U+001B[1mit");
}

TEST(ClientConfigTest, ServerOverrideReplacesServerAndDropsTlsServerName) {
  TempDir dir;
  auto rc = from_yaml(dir, R"(current-context: x
clusters: [{name: c, cluster: {server: 'https://old', tls-server-name: n}}]
contexts: [{name: x, context: {cluster: c}}]
)",
                      {.server = "https://new:6443"});
  ASSERT_TRUE(rc.ok()) << rc.error();
  EXPECT_EQ(rc->host, "https://new:6443");
  EXPECT_EQ(rc->tls_server_name, "");
}

TEST(ClientConfigTest, ContextOverrideSelectsAnotherContext) {
  TempDir dir;
  const std::string yaml = R"(current-context: a
clusters: [{name: ca, cluster: {server: 'https://a'}}, {name: cb, cluster: {server: 'https://b'}}]
contexts: [{name: a, context: {cluster: ca}}, {name: b, context: {cluster: cb}}]
)";
  auto rc = from_yaml(dir, yaml, {.context = "b"});
  ASSERT_TRUE(rc.ok()) << rc.error();
  EXPECT_EQ(rc->host, "https://b");
}

TEST(ClientConfigTest, InsecureSchemesCarryNoCredentials) {
  TempDir dir;
  for (const char* server : {"http://h:8080", "h:8080"}) {
    auto rc = from_yaml(dir, std::string("current-context: x\nclusters: [{name: c, cluster: "
                                         "{server: '") +
                                 server +
                                 "', certificate-authority-data: Q0E=}}]\n"
                                 "users: [{name: u, user: {token: t}}]\n"
                                 "contexts: [{name: x, context: {cluster: c, user: u}}]\n");
    ASSERT_TRUE(rc.ok()) << rc.error();
    EXPECT_EQ(rc->host, "http://h:8080");
    EXPECT_EQ(rc->bearer_token, "");
    EXPECT_EQ(rc->ca_pem, "");
  }
}

TEST(ClientConfigTest, DropsQueryOfServerWithPath) {
  TempDir dir;
  auto rc = from_yaml(dir, R"(current-context: x
clusters: [{name: c, cluster: {server: 'https://h/prefix?x=1#f'}}]
contexts: [{name: x, context: {cluster: c}}]
)");
  ASSERT_TRUE(rc.ok()) << rc.error();
  EXPECT_EQ(rc->host, "https://h/prefix");
}

TEST(ClientConfigTest, EmptyConfigIsTheEmptyConfigError) {
  Kubeconfig empty;
  auto rc = client_config(empty);
  ASSERT_FALSE(rc.ok());
  EXPECT_EQ(rc.error(),
            "invalid configuration: no configuration has been provided, try setting "
            "KUBERNETES_MASTER environment variable");
  EXPECT_TRUE(is_empty_config_error(rc.error()));
  EXPECT_FALSE(is_empty_config_error("invalid configuration: no server found for cluster \"c\""));

  auto with_server = client_config(empty, {.server = "https://m"});
  ASSERT_TRUE(with_server.ok()) << with_server.error();
  EXPECT_EQ(with_server->host, "https://m");
  EXPECT_EQ(with_server->source, "flags");
}

TEST(ClientConfigTest, ReportsClientcmdValidationErrors) {
  TempDir dir;
  dir.write("ca.crt", "x");
  const std::string ctx =
      "contexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n";
  const std::string ok_cluster = "clusters: [{name: c, cluster: {server: 'https://h'}}]\n";
  const std::string ok_user = "users: [{name: u, user: {}}]\n";
  const std::string d = dir.path();
  struct Case {
    std::string yaml;
    ConfigOverrides overrides;
    std::string want;
  };
  const Case cases[] = {
      {ok_cluster + ok_user + ctx, {.context = "foo"}, "context \"foo\" does not exist"},
      {ok_cluster + ok_user + "current-context: nope\n",
       {},
       "invalid configuration: [context was not found for specified context: nope, cluster has no "
       "server defined]"},
      {"clusters: [{name: c, cluster: {insecure-skip-tls-verify: true}}]\n" + ok_user + ctx,
       {},
       "invalid configuration: no server found for cluster \"c\""},
      {"clusters: [{name: c, cluster: {}}]\n" + ok_user + ctx,
       {},
       "invalid configuration: no server found for cluster \"c\""},
      {"clusters: [{name: c, cluster: {server: 'https://h', certificate-authority: nope.crt}}]\n" +
           ok_user + ctx,
       {},
       "invalid configuration: unable to read certificate-authority " + d +
           "/nope.crt for c due to open " + d + "/nope.crt: no such file or directory"},
      {"clusters: [{name: c, cluster: {server: 'https://h', certificate-authority: ca.crt, "
       "certificate-authority-data: Q0E=}}]\n" +
           ok_user + ctx,
       {},
       "invalid configuration: certificate-authority-data and certificate-authority are both "
       "specified for c. certificate-authority-data will override."},
      {"clusters: [{name: c, cluster: {server: 'https://h', proxy-url: 'ftp://p'}}]\n" + ok_user +
           ctx,
       {},
       "invalid configuration: invalid 'proxy-url' \"ftp://p\" for cluster \"c\": unsupported "
       "scheme \"ftp\", must be http, https, or socks5"},
      {ok_cluster + "users: [{name: u, user: {token: t, username: a}}]\n" + ctx,
       {},
       "invalid configuration: more than one authentication method found for u; found [token "
       "basicAuth], only one is allowed"},
      {ok_cluster + "users: [{name: u, user: {client-certificate-data: Q0E=}}]\n" + ctx,
       {},
       "invalid configuration: client-key-data or client-key must be specified for u to use the "
       "clientCert authentication method."},
      {ok_cluster +
           "users: [{name: u, user: {client-certificate: ca.crt, client-certificate-data: Q0E=, "
           "client-key-data: Q0E=}}]\n" +
           ctx,
       {},
       "invalid configuration: client-cert-data and client-cert are both specified for u. "
       "client-cert-data will override."},
      {ok_cluster +
           "users: [{name: u, user: {client-certificate-data: Q0E=, client-key: ca.crt, "
           "client-key-data: Q0E=}}]\n" +
           ctx,
       {},
       "invalid configuration: client-key-data and client-key are both specified for u; "
       "client-key-data will override"},
      {ok_cluster + "users: [{name: u, user: {client-certificate: a.crt, client-key: a.key}}]\n" +
           ctx,
       {},
       "invalid configuration: [unable to read client-cert " + d + "/a.crt for u due to open " + d +
           "/a.crt: no such file or directory, unable to read client-key " + d +
           "/a.key for u due to open " + d + "/a.key: no such file or directory]"},
      {ok_cluster +
           "users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: "
           "p}}}]\n" +
           ctx,
       {},
       "invalid configuration: interactiveMode must be specified for u to use exec authentication "
       "plugin"},
      {ok_cluster +
           "users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: "
           "p, interactiveMode: Sometimes}}}]\n" +
           ctx,
       {},
       "invalid configuration: invalid interactiveMode for u: \"Sometimes\""},
      {ok_cluster +
           "users: [{name: u, user: {exec: {interactiveMode: Never, env: [{value: v}]}}}]\n" + ctx,
       {},
       "invalid configuration: [command must be specified for u to use exec authentication plugin, "
       "apiVersion must be specified for u to use exec authentication plugin, env variable name "
       "must be specified for u to use exec authentication plugin]"},
      {ok_cluster +
           "users: [{name: u, user: {auth-provider: {name: oidc}, exec: {apiVersion: "
           "client.authentication.k8s.io/v1beta1, command: p}}}]\n" +
           ctx,
       {},
       "invalid configuration: authProvider cannot be provided in combination with an exec plugin "
       "for u"},
      {ok_cluster + "users: [{name: u, user: {auth-provider: {name: oidc}}}]\n" + ctx,
       {},
       "no Auth Provider found for name \"oidc\""},
      {ok_cluster + "users: [{name: u, user: {tokenFile: missing}}]\n" + ctx,
       {},
       "open " + d + "/missing: no such file or directory"},
  };
  for (const auto& c : cases) {
    auto rc = from_yaml(dir, c.yaml, c.overrides);
    ASSERT_FALSE(rc.ok()) << c.yaml;
    EXPECT_EQ(rc.error(), c.want) << c.yaml;
  }
}

TEST(ClientConfigTest, MissingClusterWithServerOverrideIsUsable) {
  TempDir dir;
  auto rc = from_yaml(dir, "current-context: x\ncontexts: [{name: x, context: {cluster: gone}}]\n",
                      {.server = "https://m"});
  ASSERT_TRUE(rc.ok()) << rc.error();
  EXPECT_EQ(rc->host, "https://m");
}

}  // namespace
}  // namespace kcm::client
