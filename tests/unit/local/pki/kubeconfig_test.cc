#include "local/pki/kubeconfig.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "pki_test_util.h"

namespace kcm::local::pki {
namespace {

namespace fs = std::filesystem;

std::string base64_decode(const std::string& text) {
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return "<invalid base64>";
  std::size_t len = static_cast<std::size_t>(n);
  for (auto it = text.rbegin(); it != text.rend() && *it == '='; ++it)
    --len;
  out.resize(len);
  return out;
}

// Runs a shell command; returns its exit status and standard output.
std::pair<int, std::string> run(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, {}};
  std::string out;
  std::array<char, 4096> buf;
  while (const std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe))
    out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

class KubeconfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/kcm-kubeconfig-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    auto creds = load_or_create(root_ / "data", {});
    ASSERT_TRUE(creds.ok()) << creds.error();
    creds_ = std::move(*creds);
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path root_;
  Credentials creds_;
};

TEST_F(KubeconfigTest, WritesTheExpectedStructure) {
  const fs::path file = root_ / "sub" / "dir" / "kubeconfig";
  const auto written = write_kubeconfig(file, "https://127.0.0.1:6443", creds_);
  ASSERT_TRUE(written.ok()) << written.error();
  EXPECT_EQ(mode_of(file), 0600u);
  EXPECT_FALSE(fs::exists(root_ / "sub" / "dir" / "kubeconfig.tmp"));
  EXPECT_EQ(read(file), kubeconfig_yaml("https://127.0.0.1:6443", creds_));

  const YAML::Node config = YAML::LoadFile(file.string());
  EXPECT_EQ(config["apiVersion"].as<std::string>(), "v1");
  EXPECT_EQ(config["kind"].as<std::string>(), "Config");
  EXPECT_EQ(config["current-context"].as<std::string>(), "kcm-local");

  const YAML::Node clusters = config["clusters"];
  ASSERT_TRUE(clusters.IsSequence());
  ASSERT_EQ(clusters.size(), 1u);
  EXPECT_EQ(clusters[0]["name"].as<std::string>(), "kcm-local");
  EXPECT_EQ(clusters[0]["cluster"]["server"].as<std::string>(), "https://127.0.0.1:6443");
  EXPECT_EQ(base64_decode(clusters[0]["cluster"]["certificate-authority-data"].as<std::string>()),
            creds_.ca_cert_pem);
  EXPECT_FALSE(clusters[0]["cluster"]["insecure-skip-tls-verify"]);

  const YAML::Node users = config["users"];
  ASSERT_TRUE(users.IsSequence());
  ASSERT_EQ(users.size(), 2u);
  EXPECT_EQ(users[0]["name"].as<std::string>(), "kcm-admin");
  EXPECT_EQ(base64_decode(users[0]["user"]["client-certificate-data"].as<std::string>()),
            creds_.client_cert_pem);
  EXPECT_EQ(base64_decode(users[0]["user"]["client-key-data"].as<std::string>()),
            creds_.client_key_pem);
  EXPECT_EQ(users[0]["user"].size(), 2u);
  EXPECT_EQ(users[1]["name"].as<std::string>(), "kcm-admin-token");
  EXPECT_EQ(users[1]["user"]["token"].as<std::string>(), creds_.token);
  EXPECT_EQ(users[1]["user"].size(), 1u);

  const YAML::Node contexts = config["contexts"];
  ASSERT_TRUE(contexts.IsSequence());
  ASSERT_EQ(contexts.size(), 2u);
  const std::pair<const char*, const char*> expected[] = {{"kcm-local", "kcm-admin"},
                                                          {"kcm-local-token", "kcm-admin-token"}};
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(contexts[i]["name"].as<std::string>(), expected[i].first);
    EXPECT_EQ(contexts[i]["context"]["cluster"].as<std::string>(), "kcm-local");
    EXPECT_EQ(contexts[i]["context"]["user"].as<std::string>(), expected[i].second);
    EXPECT_FALSE(contexts[i]["context"]["namespace"]) << "namespace must be unset";
  }
}

TEST_F(KubeconfigTest, TokenIsAlwaysAString) {
  creds_.token = "12345";
  const std::string yaml = kubeconfig_yaml("https://localhost:6443", creds_);
  EXPECT_THAT(yaml, ::testing::HasSubstr("token: \"12345\"\n"));
}

TEST_F(KubeconfigTest, ReplacesAnExistingFileAndTightensItsMode) {
  const fs::path file = root_ / "kubeconfig";
  std::ofstream(file) << "old";
  fs::permissions(file, fs::perms::all);
  ASSERT_TRUE(write_kubeconfig(file, "https://localhost:1", creds_).ok());
  EXPECT_EQ(mode_of(file), 0600u);
  EXPECT_EQ(YAML::LoadFile(file.string())["clusters"][0]["cluster"]["server"].as<std::string>(),
            "https://localhost:1");
}

TEST_F(KubeconfigTest, RejectsNonHttpsServers) {
  for (const char* url : {"http://127.0.0.1:6443", "", "https://", "127.0.0.1:6443"}) {
    const auto written = write_kubeconfig(root_ / "kubeconfig", url, creds_);
    ASSERT_FALSE(written.ok()) << url;
    EXPECT_EQ(written.error(),
              "kubeconfig server URL must start with https:// (credentials are only sent over "
              "TLS): \"" +
                  std::string(url) + "\"");
  }
  EXPECT_FALSE(fs::exists(root_ / "kubeconfig"));
}

TEST_F(KubeconfigTest, WriteFailureIsAnError) {
  std::ofstream(root_ / "file") << "x";
  const auto written =
      write_kubeconfig(root_ / "file" / "kubeconfig", "https://localhost:1", creds_);
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error(),
            "cannot create directory " + (root_ / "file").string() + ": Not a directory");
}

// kubectl itself reads the file, when it is installed.
TEST_F(KubeconfigTest, KubectlReadsIt) {
  if (run("command -v kubectl >/dev/null 2>&1").first != 0) GTEST_SKIP() << "no kubectl on PATH";
  const fs::path file = root_ / "kubeconfig";
  ASSERT_TRUE(write_kubeconfig(file, "https://127.0.0.1:6443", creds_).ok());
  const std::string base = "kubectl config view --raw --kubeconfig " + file.string() + " -o ";
  auto [rc, out] = run(base + "jsonpath='{.current-context}' 2>&1");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out, "kcm-local");
  std::tie(rc, out) = run(base + "jsonpath='{.users[1].user.token}' 2>&1");
  EXPECT_EQ(out, creds_.token);
  std::tie(rc, out) =
      run(base + "jsonpath='{.clusters[0].cluster.certificate-authority-data}' 2>&1");
  EXPECT_EQ(base64_decode(out), creds_.ca_cert_pem);
  std::tie(rc, out) =
      run("kubectl config get-contexts --kubeconfig " + file.string() + " -o name 2>&1");
  EXPECT_EQ(out, "kcm-local\nkcm-local-token\n");
}

}  // namespace
}  // namespace kcm::local::pki
