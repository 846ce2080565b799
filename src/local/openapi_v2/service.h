// GET /openapi/v2 as kube-openapi's handler answers it: the document as JSON
// or gnostic protobuf by the Accept header (406 when neither is acceptable),
// "Vary: Accept", a quoted ETag (SHA-512 of the JSON, upper-case hex, the
// same for both forms), Last-Modified, and 304 for a matching If-None-Match
// or, without one, an If-Modified-Since no older than Last-Modified.
//
// Free of HTTP plumbing so the API server only copies the reply out.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "local/registry/resource_info.h"

namespace kcm::local::openapi_v2 {

struct Reply {
  int status = 200;
  std::string content_type;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

class Service {
 public:
  // `table` must outlive the service. `last_modified` is what Last-Modified
  // reports (upstream: when the spec was last built).
  explicit Service(
      const registry::ResourceTable& table,
      std::chrono::system_clock::time_point last_modified = std::chrono::system_clock::now());

  // The answer to a GET (or HEAD: the caller drops the body) with these
  // request headers ("" when absent). The document is built on first use.
  Reply get(std::string_view accept, std::string_view if_none_match = {},
            std::string_view if_modified_since = {});

  // The quoted ETag, e.g. "\"5E0B...\"" (builds the document).
  const std::string& etag();

 private:
  void build();

  const registry::ResourceTable& table_;
  std::chrono::system_clock::time_point last_modified_;
  std::once_flag once_;
  std::string json_;
  std::string protobuf_;
  std::string etag_;
};

// "Sun, 06 Nov 1994 08:49:37 GMT" (Go's http.TimeFormat, always UTC).
std::string http_date(std::chrono::system_clock::time_point t);

}  // namespace kcm::local::openapi_v2
