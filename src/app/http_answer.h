// What one of kcm's HTTPS endpoints answers (/healthz, /debug/flags, /metrics,
// ...), before the secure server adds its own headers (Date, Content-Length,
// Cache-Control).
#pragma once

#include <string>
#include <string_view>

namespace kcm::app {

struct HttpAnswer {
  int status = 200;
  // Go's net/http: handlers set text/plain explicitly or it is sniffed to the
  // same value from their plain-text bodies.
  std::string content_type = "text/plain; charset=utf-8";
  // X-Content-Type-Options: nosniff (set by http.Error and some handlers).
  bool nosniff = false;
  std::string body;
};

// Go's http.Error: the text plus a newline, plain text, nosniff.
inline HttpAnswer http_error(int status, std::string_view text) {
  HttpAnswer a;
  a.status = status;
  a.nosniff = true;
  a.body = std::string(text) + "\n";
  return a;
}

}  // namespace kcm::app
