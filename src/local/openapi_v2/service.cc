#include "local/openapi_v2/service.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <array>
#include <ctime>
#include <iomanip>
#include <locale>
#include <optional>
#include <sstream>

#include "local/openapi_v2/openapi_v2.h"

namespace kcm::local::openapi_v2 {
namespace {

// Upstream's computeETag: SHA-512 of the JSON document, upper-case hex.
std::string sha512_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &size, EVP_sha512(), nullptr) != 1) {
    return {};
  }
  std::string out;
  out.reserve(size * 2);
  for (unsigned int i = 0; i < size; ++i)
    out += fmt::format("{:02X}", digest[i]);
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// One entity tag at the start of `s` (W/ prefix and quotes included), as Go's
// scanETag reads it; empty when `s` does not start with one. `rest` gets what
// follows it.
std::string_view scan_etag(std::string_view s, std::string_view& rest) {
  std::size_t start = 0;
  if (s.starts_with("W/")) start = 2;
  if (s.size() - start < 2 || s[start] != '"') return {};
  for (std::size_t i = start + 1; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"') {
      rest = s.substr(i + 1);
      return s.substr(0, i + 1);
    }
    if (!(c == 0x21 || (c >= 0x23 && c <= 0x7E) || c >= 0x80)) return {};
  }
  return {};
}

std::string_view strip_weak(std::string_view tag) {
  if (tag.starts_with("W/")) tag.remove_prefix(2);
  return tag;
}

// Whether If-None-Match names our ETag (or is "*"): weak comparison.
bool none_match_hits(std::string_view header, std::string_view etag) {
  std::string_view buf = header;
  while (true) {
    buf = trim(buf);
    if (buf.empty()) return false;
    if (buf.front() == ',') {
      buf.remove_prefix(1);
      continue;
    }
    if (buf.front() == '*') return true;
    std::string_view rest;
    const std::string_view tag = scan_etag(buf, rest);
    if (tag.empty()) return false;
    if (strip_weak(tag) == strip_weak(etag)) return true;
    buf = rest;
  }
}

// An HTTP date in any of the three forms Go's http.ParseTime accepts.
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text) {
  for (const char* format :
       {"%a, %d %b %Y %H:%M:%S GMT", "%A, %d-%b-%y %H:%M:%S GMT", "%a %b %d %H:%M:%S %Y"}) {
    std::tm tm{};
    std::istringstream in{std::string(text)};
    in.imbue(std::locale::classic());
    in >> std::get_time(&tm, format);
    if (in.fail()) continue;
    in >> std::ws;
    if (!in.eof()) continue;
    return std::chrono::system_clock::from_time_t(timegm(&tm));
  }
  return std::nullopt;
}

}  // namespace

std::string http_date(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  std::array<char, 64> buf{};
  const std::size_t n = std::strftime(buf.data(), buf.size(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return std::string(buf.data(), n);
}

Service::Service(const registry::ResourceTable& table,
                 std::chrono::system_clock::time_point last_modified)
    : table_(table),
      last_modified_(std::chrono::time_point_cast<std::chrono::seconds>(last_modified)) {}

void Service::build() {
  std::call_once(once_, [this] {
    json_ = json::serialize(openapi_v2_json(table_));
    protobuf_ = openapi_v2_protobuf(table_);
    etag_ = "\"" + sha512_hex(json_) + "\"";
  });
}

const std::string& Service::etag() {
  build();
  return etag_;
}

Reply Service::get(std::string_view accept, std::string_view if_none_match,
                   std::string_view if_modified_since) {
  Reply reply;
  reply.headers.emplace_back("Vary", "Accept");
  const Format format = negotiate_format(accept);
  if (format == Format::kNotAcceptable) {
    reply.status = 406;
    reply.content_type = "text/plain; charset=utf-8";
    return reply;
  }
  build();
  const std::string& body = format == Format::kJson ? json_ : protobuf_;
  if (body.empty()) {
    // The encoder rejected the document (a bug, logged by openapi_v2_protobuf);
    // upstream answers 503 when it has nothing to serve.
    reply.status = 503;
    reply.content_type = "text/plain; charset=utf-8";
    return reply;
  }
  reply.content_type = format == Format::kJson ? "application/json" : kProtobufContentType;
  reply.headers.emplace_back("Etag", etag_);
  bool not_modified = false;
  if (!trim(if_none_match).empty()) {
    not_modified = none_match_hits(if_none_match, etag_);
  } else if (!trim(if_modified_since).empty()) {
    const auto since = parse_http_date(trim(if_modified_since));
    not_modified = since && last_modified_ <= *since;
  }
  if (not_modified) {
    // As Go's ServeContent: no body, and Last-Modified left out when there is an ETag.
    reply.status = 304;
    return reply;
  }
  reply.headers.emplace_back("Last-Modified", http_date(last_modified_));
  reply.body = body;
  return reply;
}

}  // namespace kcm::local::openapi_v2
