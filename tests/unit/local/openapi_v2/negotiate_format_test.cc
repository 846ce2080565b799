#include <gtest/gtest.h>

#include "local/openapi_v2/openapi_v2.h"

namespace kcm::local::openapi_v2 {
namespace {

TEST(NegotiateFormat, ChoosesAsKubeOpenApiDoes) {
  struct Case {
    std::string accept;
    Format want;
  };
  const std::vector<Case> cases = {
      {"", Format::kJson},
      {"*/*", Format::kJson},
      {"*", Format::kJson},
      {"application/json", Format::kJson},
      {"application/*", Format::kJson},
      {"application/json, */*", Format::kJson},
      // What kubectl 1.27/1.28 send, and the current spelling.
      {"application/com.github.proto-openapi.spec.v2@v1.0+protobuf", Format::kProtobuf},
      {"application/com.github.proto-openapi.spec.v2.v1.0+protobuf", Format::kProtobuf},
      {"application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json",
       Format::kProtobuf},
      // Higher q wins; at equal q, an exact type beats a wildcard.
      {"application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
       Format::kProtobuf},
      {"*/*, application/com.github.proto-openapi.spec.v2.v1.0+protobuf", Format::kProtobuf},
      // goautoneg puts a concrete type before "*" even at a lower q.
      {"*/*;q=1, application/com.github.proto-openapi.spec.v2.v1.0+protobuf;q=0.5",
       Format::kProtobuf},
      // Upstream does not drop q=0 ranges.
      {"application/json;q=0", Format::kJson},
      {"text/html", Format::kNotAcceptable},
      {"application/yaml", Format::kNotAcceptable},
      {"Application/JSON", Format::kNotAcceptable},  // matched case-sensitively upstream
      {"application/json/x", Format::kNotAcceptable},
      {"text/html, application/vnd.kubernetes.protobuf", Format::kNotAcceptable},
      {"text/html, application/json;q=0.1", Format::kJson},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(negotiate_format(c.accept), c.want) << c.accept;
  }
}

}  // namespace
}  // namespace kcm::local::openapi_v2
