// Percent-decoding of the HTTPS endpoint's request paths and queries, as Go's
// net/url unescapes them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcm::app {

// Decodes every "%XX" of `s`; nullopt when a '%' is not followed by two hex
// digits. With `plus_is_space` a '+' reads as a space (url.QueryUnescape);
// without, it stays (url.PathUnescape).
std::optional<std::string> url_unescape(std::string_view s, bool plus_is_space);

// Go's url.ParseQuery, as far as kcm's endpoints read it: pairs split on
// '&', key and value split on the first '=', '+' and %XX decoded; pairs with
// ';' or a bad escape are dropped. Returns the values of `key` in order;
// nullopt when the key is absent (`?verbose` alone yields {""}).
std::optional<std::vector<std::string>> query_values(std::string_view raw_query,
                                                     std::string_view key);

}  // namespace kcm::app
