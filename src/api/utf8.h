// UTF-8 decoding and encoding with Go's unicode/utf8 rules: overlong forms, surrogates,
// code points past U+10FFFF and truncated sequences are invalid.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace kcm::api {

// The code point and length of the sequence starting at s[i] (i < s.size()),
// or nothing where utf8.DecodeRuneInString finds an invalid byte.
std::optional<std::pair<char32_t, std::size_t>> decode_rune(std::string_view s, std::size_t i);

// utf8.ValidString.
bool valid_utf8(std::string_view s);

// utf8.RuneError, what Go substitutes for an invalid byte or code point.
inline constexpr char32_t kRuneError = 0xFFFD;

// utf8.AppendRune: `r` in UTF-8; surrogates and code points past U+10FFFF
// are written as kRuneError.
void append_rune(std::string& out, char32_t r);

}  // namespace kcm::api
