// Hexadecimal digits, for the URL unescaping of the HTTPS endpoint's paths
// and queries (healthz.cc, secure_server.cc).
#pragma once

namespace kcm::app {

// The value of the hex digit `c` (either case), or -1 when `c` is not one.
inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace kcm::app
