// Go's strings functions that user-facing parsing relies on, where their
// exact behaviour shows (empty items, which spaces are trimmed).
#pragma once

#include <string_view>
#include <vector>

namespace kcm::api {

// strings.TrimSpace for ASCII text: strips spaces, tabs, newlines, \v, \f
// and \r at both ends.
std::string_view trim_space(std::string_view s);

// strings.Split(s, sep): every item, empty ones included; "" gives one
// empty item.
std::vector<std::string_view> split(std::string_view s, char sep);

}  // namespace kcm::api
