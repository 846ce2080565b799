// Bodies captured from the real kubectl: each tests/data/protobuf/<case>.pb was
// sent by kubectl 1.32 (protobuf) and <case>.json by kubectl 1.31 (JSON) for
// the same command (see tests/data/protobuf/README.md). Decoding the protobuf
// body must give exactly the JSON the older client sent.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>

#include "api/json.h"
#include "local/protobuf/decode.h"

namespace kcm::local::protobuf {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string data_path(const std::string& name) {
  return std::string(KCM_TEST_DATA_DIR) + "/protobuf/" + name;
}

struct BodyCase {
  const char* name;
  const char* pb;  // kubectl 1.32 unless named otherwise
};

void PrintTo(const BodyCase& c, std::ostream* os) {
  *os << c.pb;
}

class KubectlBodyTest : public ::testing::TestWithParam<BodyCase> {};

TEST_P(KubectlBodyTest, DecodesToTheJsonTheJsonClientSends) {
  const BodyCase& c = GetParam();
  std::string expected = read_file(data_path(std::string(c.name) + ".json"));
  while (!expected.empty() && (expected.back() == '\n' || expected.back() == '\r')) {
    expected.pop_back();
  }
  ASSERT_FALSE(expected.empty()) << c.name;
  const std::string body = read_file(data_path(c.pb));
  ASSERT_FALSE(body.empty()) << c.pb;

  std::string error;
  const auto want = api::parse_json(expected, &error);
  ASSERT_TRUE(want) << error;
  const auto gv = api::GroupVersion::parse(want->at("apiVersion").as_string());
  const api::GroupVersionKind gvk{gv.group, gv.version, std::string(want->at("kind").as_string())};

  auto got = decode_protobuf_object(body, gvk);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(api::to_json_string(*got), expected);
}

INSTANTIATE_TEST_SUITE_P(
    Captured, KubectlBodyTest,
    ::testing::Values(
        BodyCase{"create-namespace", "create-namespace.pb"},
        BodyCase{"create-deployment", "create-deployment.pb"},
        BodyCase{"create-deployment-zero-replicas", "create-deployment-zero-replicas.pb"},
        BodyCase{"create-deployment-two-images", "create-deployment-two-images.pb"},
        BodyCase{"create-deployment-port-command", "create-deployment-port-command.pb"},
        BodyCase{"debug-node", "debug-node.pb"},
        BodyCase{"debug-node-sysadmin", "debug-node-sysadmin.pb"},
        BodyCase{"debug-copy", "debug-copy.pb"},
        BodyCase{"debug-copy", "debug-copy.kubectl-1.33.pb"},
        BodyCase{"debug-copy-set-image", "debug-copy-set-image.pb"},
        BodyCase{"debug-copy-set-image", "debug-copy-set-image.kubectl-1.33.pb"},
        BodyCase{"drain-delete-pod", "drain-delete-pod.pb"},
        BodyCase{"drain-delete-pod-grace-period", "drain-delete-pod-grace-period.pb"}),
    [](const ::testing::TestParamInfo<BodyCase>& info) {
      std::string name = info.param.pb;
      for (char& ch : name) {
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      }
      return name;
    });

}  // namespace
}  // namespace kcm::local::protobuf
