// String reads of JSON object members shared by the CRD controllers and
// validation; absent or non-string values read as "".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"

namespace kcm::local::crd {

namespace json = boost::json;

// o[key] as a string ("" when absent or not a string).
inline std::string string_at(const json::object& o, std::string_view key) {
  return std::string(api::as_string_view(o.if_contains(key)));
}

// The array o[key] as strings (non-strings as ""); empty when absent or not an array.
inline std::vector<std::string> strings_at(const json::object& o, std::string_view key) {
  std::vector<std::string> out;
  if (const json::array* a = api::find_array(o, key)) {
    for (const json::value& v : *a)
      out.emplace_back(api::as_string_view(&v));
  }
  return out;
}

}  // namespace kcm::local::crd
