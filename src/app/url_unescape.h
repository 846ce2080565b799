// Percent-decoding of the HTTPS endpoint's request paths and queries, as Go's
// net/url unescapes them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kcm::app {

// Decodes every "%XX" of `s`; nullopt when a '%' is not followed by two hex
// digits. With `plus_is_space` a '+' reads as a space (url.QueryUnescape);
// without, it stays (url.PathUnescape).
std::optional<std::string> url_unescape(std::string_view s, bool plus_is_space);

}  // namespace kcm::app
