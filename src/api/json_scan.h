// Reads a few string members of a JSON document without building the
// document: for answers of which a caller needs only, say, metadata.name.
// No node is allocated; the text is still parsed to its end, so malformed
// JSON is refused exactly as parse_json refuses it, with the same message.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kcm::api {

// One string member to read: its path of object keys from the root object
// (e.g. {"metadata", "name"}) and, after scan_strings, its value: nullopt when
// the member is absent or is not a string. A duplicate key keeps its last
// value, as parse_json does.
struct ScannedString {
  std::span<const std::string_view> path;
  std::optional<std::string> value;
};

// Fills every member's value from `text`. Returns false and fills `error`
// when `text` is not one well-formed JSON value (then the values are unset).
bool scan_strings(std::string_view text, std::span<ScannedString> members, std::string* error);

}  // namespace kcm::api
