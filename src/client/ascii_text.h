// ASCII text helpers the REST client, transport and token sources share.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

#include "api/go_strings.h"

namespace kcm::client {

// `s` without leading and trailing ASCII whitespace (" \t\r\n\v\f").
inline std::string trim_space(std::string_view s) {
  return std::string(api::trim_space(s));
}

// `s` with ASCII letters in lower case (other bytes unchanged).
inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace kcm::client
