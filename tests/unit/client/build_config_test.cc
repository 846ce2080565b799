#include "client/build_config.h"

#include <gtest/gtest.h>

#include "client/in_cluster.h"
#include "config_test_support.h"

namespace kcm::client {
namespace {

using testing::TempDir;

constexpr const char* kCaPem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
constexpr const char* kNotInCluster =
    "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT "
    "must be defined";
constexpr const char* kEmptyConfig =
    "invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER "
    "environment variable";

InClusterEnv env_in(const TempDir& dir, std::string host = "10.96.0.1", std::string port = "443") {
  InClusterEnv env;
  env.service_host = std::move(host);
  env.service_port = std::move(port);
  env.token_file = dir.file("sa/token");
  env.ca_file = dir.file("sa/ca.crt");
  return env;
}

TEST(InClusterTest, BuildsHostTokenAndCa) {
  TempDir dir;
  dir.write("sa/token", "sa-token\n");
  dir.write("sa/ca.crt", kCaPem);
  std::string warning;
  auto rc = in_cluster_config(env_in(dir), &warning);
  ASSERT_TRUE(rc.ok()) << rc.error();
  EXPECT_EQ(rc->host, "https://10.96.0.1:443");
  EXPECT_EQ(rc->bearer_token, "sa-token\n");
  EXPECT_EQ(rc->bearer_token_file, dir.file("sa/token"));
  EXPECT_EQ(rc->ca_pem, kCaPem);
  EXPECT_EQ(rc->ca_file, dir.file("sa/ca.crt"));
  EXPECT_EQ(warning, "");
  EXPECT_TRUE(in_cluster_possible(env_in(dir)));
}

TEST(InClusterTest, BracketsIpv6Hosts) {
  TempDir dir;
  dir.write("sa/token", "t");
  auto rc = in_cluster_config(env_in(dir, "fd00::1", "6443"));
  ASSERT_TRUE(rc.ok()) << rc.error();
  EXPECT_EQ(rc->host, "https://[fd00::1]:6443");
}

TEST(InClusterTest, Errors) {
  TempDir dir;
  for (auto [host, port] : {std::pair<std::string, std::string>{"", "443"}, {"h", ""}, {"", ""}}) {
    auto rc = in_cluster_config(env_in(dir, host, port));
    ASSERT_FALSE(rc.ok());
    EXPECT_EQ(rc.error(), kNotInCluster);
    EXPECT_FALSE(in_cluster_possible(env_in(dir, host, port)));
  }
  auto no_token = in_cluster_config(env_in(dir));
  ASSERT_FALSE(no_token.ok());
  EXPECT_EQ(no_token.error(), "open " + dir.file("sa/token") + ": no such file or directory");
  EXPECT_FALSE(in_cluster_possible(env_in(dir)));
  std::filesystem::create_directories(dir.file("sa/token"));
  EXPECT_FALSE(in_cluster_possible(env_in(dir)));  // a directory is not a token
}

TEST(InClusterTest, UnloadableCaIsOnlyAWarning) {
  TempDir dir;
  dir.write("sa/token", "t");
  std::string warning;
  auto rc = in_cluster_config(env_in(dir), &warning);
  ASSERT_TRUE(rc.ok()) << rc.error();
  EXPECT_EQ(rc->ca_pem, "");
  EXPECT_EQ(rc->ca_file, "");
  EXPECT_EQ(warning, "Expected to load root CA config from " + dir.file("sa/ca.crt") +
                         ", but got err: open " + dir.file("sa/ca.crt") +
                         ": no such file or directory");
  dir.write("sa/ca.crt", "not pem");
  rc = in_cluster_config(env_in(dir), &warning);
  ASSERT_TRUE(rc.ok());
  EXPECT_EQ(warning, "Expected to load root CA config from " + dir.file("sa/ca.crt") +
                         ", but got err: error reading " + dir.file("sa/ca.crt") +
                         ": data does not contain any valid RSA or ECDSA certificates");
}

struct Built {
  Result<RestConfig> config;
  std::vector<std::string> warnings;
};

Built build(const std::string& master, const std::string& kubeconfig, InClusterEnv env) {
  std::vector<std::string> warnings;
  BuildConfigOptions options;
  options.in_cluster = std::move(env);
  options.warn = [&](const std::string& w) { warnings.push_back(w); };
  auto rc = build_config_from_flags(master, kubeconfig, options);
  return {std::move(rc), std::move(warnings)};
}

TEST(BuildConfigFromFlagsTest, NeitherFlagUsesInClusterConfig) {
  TempDir dir;
  dir.write("sa/token", "t");
  dir.write("sa/ca.crt", kCaPem);
  auto b = build("", "", env_in(dir));
  ASSERT_TRUE(b.config.ok()) << b.config.error();
  EXPECT_EQ(b.config->host, "https://10.96.0.1:443");
  EXPECT_EQ(b.warnings,
            std::vector<std::string>{"Neither --kubeconfig nor --master was specified.  "
                                     "Using the inClusterConfig.  This might not work."});
}

TEST(BuildConfigFromFlagsTest, NeitherFlagOutsideAClusterFails) {
  TempDir dir;
  auto b = build("", "", env_in(dir, "", ""));
  ASSERT_FALSE(b.config.ok());
  EXPECT_EQ(b.config.error(), kEmptyConfig);
  ASSERT_EQ(b.warnings.size(), 2u);
  EXPECT_EQ(b.warnings[1],
            std::string("error creating inClusterConfig, falling back to default config: ") +
                kNotInCluster);
}

TEST(BuildConfigFromFlagsTest, MasterAloneIsEnough) {
  TempDir dir;
  auto b = build("https://10.0.0.1:6443", "", env_in(dir, "", ""));
  ASSERT_TRUE(b.config.ok()) << b.config.error();
  EXPECT_EQ(b.config->host, "https://10.0.0.1:6443");
  EXPECT_EQ(b.config->bearer_token, "");
  EXPECT_TRUE(b.warnings.empty());
}

TEST(BuildConfigFromFlagsTest, ExplicitKubeconfigAndMasterOverride) {
  TempDir dir;
  const std::string kc = dir.write("kc", R"(current-context: x
clusters: [{name: c, cluster: {server: 'https://from-file', certificate-authority-data: Q0E=}}]
users: [{name: u, user: {token: tok}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
)");
  auto plain = build("", kc, env_in(dir, "", ""));
  ASSERT_TRUE(plain.config.ok()) << plain.config.error();
  EXPECT_EQ(plain.config->host, "https://from-file");
  EXPECT_EQ(plain.config->bearer_token, "tok");
  EXPECT_EQ(plain.config->ca_pem, "CA");
  EXPECT_TRUE(plain.warnings.empty());

  auto overridden = build("https://master:6443", kc, env_in(dir, "", ""));
  ASSERT_TRUE(overridden.config.ok()) << overridden.config.error();
  EXPECT_EQ(overridden.config->host, "https://master:6443");
  EXPECT_EQ(overridden.config->bearer_token, "tok");
}

TEST(BuildConfigFromFlagsTest, MissingExplicitKubeconfigIsAnError) {
  TempDir dir;
  auto b = build("", dir.file("nope"), env_in(dir, "", ""));
  ASSERT_FALSE(b.config.ok());
  EXPECT_EQ(b.config.error(), "stat " + dir.file("nope") + ": no such file or directory");
}

TEST(BuildConfigFromFlagsTest, MalformedKubeconfigNamesTheFile) {
  TempDir dir;
  const std::string kc = dir.write("kc", "clusters: 3\n");
  auto b = build("", kc, env_in(dir, "", ""));
  ASSERT_FALSE(b.config.ok());
  EXPECT_EQ(b.config.error(),
            "error loading config file \"" + kc + "\": clusters: expected array, got number");
}

TEST(BuildConfigFromFlagsTest, EmptyKubeconfigFallsBackToInClusterWhenPossible) {
  TempDir dir;
  const std::string kc = dir.write("kc", "");
  auto outside = build("", kc, env_in(dir, "", ""));
  ASSERT_FALSE(outside.config.ok());
  EXPECT_EQ(outside.config.error(), kEmptyConfig);

  dir.write("sa/token", "t");
  auto inside = build("", kc, env_in(dir));
  ASSERT_TRUE(inside.config.ok()) << inside.config.error();
  EXPECT_EQ(inside.config->host, "https://10.96.0.1:443");
  EXPECT_EQ(inside.config->bearer_token_file, dir.file("sa/token"));
}

}  // namespace
}  // namespace kcm::client
