#include "api/base64.h"

#include <gtest/gtest.h>

namespace kcm::api {
namespace {

struct Base64Case {
  std::string plain;
  std::string standard;
  std::string url;
};

TEST(Base64Test, EncodesAndDecodesRfc4648Vectors) {
  const Base64Case cases[] = {
      {"", "", ""},
      {"f", "Zg==", "Zg"},
      {"fo", "Zm8=", "Zm8"},
      {"foo", "Zm9v", "Zm9v"},
      {"foob", "Zm9vYg==", "Zm9vYg"},
      {"fooba", "Zm9vYmE=", "Zm9vYmE"},
      {"foobar", "Zm9vYmFy", "Zm9vYmFy"},
      {"\xfb\xff", "+/8=", "-_8"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(base64_encode(c.plain), c.standard);
    EXPECT_EQ(base64_encode(c.plain, Base64Alphabet::kUrlUnpadded), c.url);
    auto s = base64_decode(c.standard);
    ASSERT_TRUE(s.ok()) << c.standard;
    EXPECT_EQ(*s, c.plain);
    auto u = base64_decode(c.url, Base64Alphabet::kUrlUnpadded);
    ASSERT_TRUE(u.ok()) << c.url;
    EXPECT_EQ(*u, c.plain);
  }
}

TEST(Base64Test, RejectsMalformedInput) {
  const std::pair<std::string, std::string> bad[] = {
      {"Zg=", "illegal base64 data at input byte 3"},
      {"Zm9v!", "illegal base64 data at input byte 4"},  // Go names the bad character
      {"Zm9vY", "illegal base64 data at input byte 4"},  // ... or the incomplete quantum
      {"Zm9vYm", "illegal base64 data at input byte 4"},
      {"Z!==", "illegal base64 data at input byte 1"},
      {"Zh==", "illegal base64 data at input byte 1"},  // non-zero trailing bits
  };
  for (const auto& [text, message] : bad) {
    auto r = base64_decode(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error(), message);
  }
  EXPECT_FALSE(base64_decode("Z", Base64Alphabet::kUrlUnpadded).ok());
  EXPECT_FALSE(base64_decode("Zg==", Base64Alphabet::kUrlUnpadded).ok());
}

}  // namespace
}  // namespace kcm::api
