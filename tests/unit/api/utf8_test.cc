// Go's unicode/utf8 rules for decoding and encoding runes.
#include "api/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace kcm::api {
namespace {

TEST(Utf8Test, AppendRuneEncodesEachWidthAndReplacesWhatIsNoRune) {
  struct Case {
    char32_t rune;
    std::string want;
  };
  const std::vector<Case> cases = {
      {U'a', "a"},
      {0x7F, "\x7f"},
      {0x80, "\xc2\x80"},
      {U'ñ', "ñ"},
      {0x7FF, "\xdf\xbf"},
      {0x800, "\xe0\xa0\x80"},
      {0xFFFF, "\xef\xbf\xbf"},
      {0x10000, "\xf0\x90\x80\x80"},
      {U'🐹', "🐹"},
      {0x10FFFF, "\xf4\x8f\xbf\xbf"},
      {0xD800, "\xef\xbf\xbd"},    // a surrogate: RuneError
      {0xDFFF, "\xef\xbf\xbd"},    // a surrogate: RuneError
      {0x110000, "\xef\xbf\xbd"},  // past the last code point: RuneError
  };
  for (const Case& c : cases) {
    std::string out = "<";
    append_rune(out, c.rune);
    EXPECT_EQ(out, "<" + c.want) << static_cast<std::uint32_t>(c.rune);
    if (c.want != "\xef\xbf\xbd" || c.rune == kRuneError) {
      // What was written decodes back to the rune.
      const auto back = decode_rune(c.want, 0);
      ASSERT_TRUE(back) << static_cast<std::uint32_t>(c.rune);
      EXPECT_EQ(back->first, c.rune);
      EXPECT_EQ(back->second, c.want.size());
    }
  }
}

TEST(Utf8Test, DecodeRuneRefusesWhatGoRefuses) {
  for (const std::string bad : {"\x80", "\xc0\x80", "\xc2", "\xe0\x80\x80", "\xed\xa0\x80",
                                "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xe2\x82"}) {
    EXPECT_FALSE(decode_rune(bad, 0)) << testing::PrintToString(bad);
    EXPECT_FALSE(valid_utf8(bad)) << testing::PrintToString(bad);
  }
  EXPECT_TRUE(valid_utf8("Iñtërnâtiônàlizætiøn,🐹"));
  EXPECT_TRUE(valid_utf8(""));
}

}  // namespace
}  // namespace kcm::api
