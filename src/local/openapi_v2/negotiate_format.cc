#include <string>

#include "api/accept_header.h"
#include "local/openapi_v2/openapi_v2.h"

namespace kcm::local::openapi_v2 {
namespace {

bool matches(const api::AcceptClause& c, std::string_view media_type) {
  const auto slash = media_type.find('/');
  const std::string_view type = media_type.substr(0, slash);
  const std::string_view subtype = media_type.substr(slash + 1);
  return (c.type == type || c.type == "*") && (c.subtype == subtype || c.subtype == "*");
}

}  // namespace

Format negotiate_format(std::string_view accept) {
  if (accept.empty()) accept = "*/*";
  for (const api::AcceptClause& c : api::parse_accept(accept)) {
    // Upstream tries JSON first, then the two protobuf spellings.
    if (matches(c, "application/json")) return Format::kJson;
    if (matches(c, kProtobufContentTypeDeprecated) || matches(c, kProtobufContentType)) {
      return Format::kProtobuf;
    }
  }
  return Format::kNotAcceptable;
}

}  // namespace kcm::local::openapi_v2
