// Character classes of the ASCII text Kubernetes formats use (quantities,
// durations): unlike <cctype>, independent of the locale and safe for any char.
#pragma once

namespace kcm::api {

// '0' to '9'.
constexpr bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace kcm::api
