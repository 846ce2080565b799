// The syntax errors Go's encoding/json reports, for messages that users see in
// API responses ("invalid character 'k' looking for beginning of value").
#pragma once

#include <string>
#include <string_view>

namespace kcm::api {

// Checks `text` as Go's json scanner does; returns "" when it is valid JSON,
// else Go's error text.
std::string go_json_syntax_error(std::string_view text);

}  // namespace kcm::api
