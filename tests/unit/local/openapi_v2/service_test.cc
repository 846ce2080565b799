#include "local/openapi_v2/service.h"

#include <gtest/gtest.h>

#include <regex>

#include "local/openapi_v2/openapi_v2.h"

namespace kcm::local::openapi_v2 {
namespace {

using namespace std::chrono_literals;

std::string header(const Reply& r, std::string_view name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "<none>";
}

class ServiceTest : public ::testing::Test {
 protected:
  // 2024-05-01T10:00:00.7Z: Last-Modified drops the fraction.
  const std::chrono::system_clock::time_point built_ =
      std::chrono::system_clock::from_time_t(1714557600) + 700ms;
  const registry::ResourceTable table_ = registry::builtin_resources();
  Service service_{table_, built_};
};

TEST_F(ServiceTest, ServesJsonByDefault) {
  for (std::string_view accept : {"", "application/json", "*/*", "application/json, */*"}) {
    const Reply r = service_.get(accept);
    EXPECT_EQ(r.status, 200) << accept;
    EXPECT_EQ(r.content_type, "application/json");
    EXPECT_EQ(r.body, json::serialize(openapi_v2_json(table_)));
    EXPECT_EQ(header(r, "Vary"), "Accept");
    EXPECT_EQ(header(r, "Last-Modified"), "Wed, 01 May 2024 10:00:00 GMT");
  }
}

TEST_F(ServiceTest, ServesProtobufUnderTheCurrentMediaType) {
  for (std::string_view accept : {"application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
                                  "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"}) {
    const Reply r = service_.get(accept);
    EXPECT_EQ(r.status, 200) << accept;
    EXPECT_EQ(r.content_type, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
    EXPECT_EQ(r.body, openapi_v2_protobuf(table_));
    EXPECT_FALSE(r.body.empty());
  }
}

TEST_F(ServiceTest, AnswersNotAcceptable) {
  const Reply r = service_.get("text/html");
  EXPECT_EQ(r.status, 406);
  EXPECT_EQ(r.body, "");
  EXPECT_EQ(header(r, "Vary"), "Accept");
  EXPECT_EQ(header(r, "Etag"), "<none>");
}

TEST_F(ServiceTest, EtagIsTheQuotedSha512OfTheJson) {
  const std::string etag = service_.etag();
  EXPECT_TRUE(std::regex_match(etag, std::regex("\"[0-9A-F]{128}\""))) << etag;
  EXPECT_EQ(header(service_.get(""), "Etag"), etag);
  // Both forms carry the same tag, as upstream's.
  EXPECT_EQ(header(service_.get(kProtobufContentTypeDeprecated), "Etag"), etag);
  // The same table gives the same tag; the tag is of the content, not the time.
  Service other(table_, built_ + 1h);
  EXPECT_EQ(other.etag(), etag);
}

TEST_F(ServiceTest, NotModified) {
  const std::string etag = service_.etag();
  struct Case {
    std::string if_none_match;
    std::string if_modified_since;
    int status;
  };
  const std::vector<Case> cases = {
      {etag, "", 304},
      {"W/" + etag, "", 304},
      {"\"other\", " + etag, "", 304},
      {"*", "", 304},
      {"\"other\"", "", 200},
      {"garbage", "", 200},
      // If-Modified-Since only counts without If-None-Match.
      {"", "Wed, 01 May 2024 10:00:00 GMT", 304},
      {"", "Thu, 02 May 2024 10:00:00 GMT", 304},
      {"", "Wed, 01 May 2024 09:59:59 GMT", 200},
      {"", "Wednesday, 01-May-24 10:00:00 GMT", 304},
      {"", "Wed May  1 10:00:00 2024", 304},
      {"", "yesterday", 200},
      {"\"other\"", "Thu, 02 May 2024 10:00:00 GMT", 200},
  };
  for (const auto& c : cases) {
    const Reply r = service_.get("application/json", c.if_none_match, c.if_modified_since);
    EXPECT_EQ(r.status, c.status) << c.if_none_match << " / " << c.if_modified_since;
    if (r.status == 304) {
      EXPECT_EQ(r.body, "");
      EXPECT_EQ(header(r, "Etag"), etag);
      EXPECT_EQ(header(r, "Last-Modified"), "<none>");
    }
  }
}

TEST(HttpDate, FormatsAsGo) {
  EXPECT_EQ(http_date(std::chrono::system_clock::from_time_t(784111777)),
            "Sun, 06 Nov 1994 08:49:37 GMT");
}

}  // namespace
}  // namespace kcm::local::openapi_v2
