#include "local/apiserver/request_info.h"

#include <algorithm>
#include <cctype>

namespace kcm::local::apiserver {

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && path[i] == '/')
      ++i;
    const std::size_t j = path.find('/', i);
    const std::size_t end = j == std::string_view::npos ? path.size() : j;
    if (end > i) out.emplace_back(path.substr(i, end - i));
    i = end;
  }
  return out;
}

RequestInfo parse_request_info(std::string_view method, std::string_view path, bool watch) {
  RequestInfo info;
  info.path = std::string(path);
  std::vector<std::string> parts = split_path(path);
  if (parts.empty() || (parts[0] != "api" && parts[0] != "apis")) return info;
  info.api_prefix = parts[0];
  std::size_t i = 1;
  if (info.api_prefix == "apis") {
    if (parts.size() < 3) return info;  // /apis or /apis/<group>: discovery
    info.group = parts[1];
    info.version = parts[2];
    i = 3;
  } else {
    if (parts.size() < 2) return info;  // /api
    info.version = parts[1];
    i = 2;
  }
  if (i == parts.size()) return info;  // /api/v1 or /apis/g/v: discovery
  info.is_resource_request = true;
  std::vector<std::string> rest(parts.begin() + static_cast<std::ptrdiff_t>(i), parts.end());

  // The deprecated /watch/ prefix.
  bool watch_prefix = false;
  if (rest[0] == "watch") {
    watch_prefix = true;
    rest.erase(rest.begin());
  }
  // namespaces/<ns>/<resource>... ; but namespaces/<name>[/status|/finalize] is
  // the namespace itself.
  if (rest.size() >= 3 && rest[0] == "namespaces" &&
      !(rest.size() == 3 && (rest[2] == "status" || rest[2] == "finalize"))) {
    info.namespace_ = rest[1];
    rest.erase(rest.begin(), rest.begin() + 2);
  }
  info.parts = rest;
  if (!rest.empty()) info.resource = rest[0];
  if (rest.size() >= 2) info.name = rest[1];
  if (rest.size() >= 3) info.subresource = rest[2];

  if (method == "POST") {
    info.verb = "create";
  } else if (method == "GET" || method == "HEAD") {
    info.verb = info.name.empty() ? "list" : "get";
  } else if (method == "PUT") {
    info.verb = "update";
  } else if (method == "PATCH") {
    info.verb = "patch";
  } else if (method == "DELETE") {
    info.verb = info.name.empty() ? "deletecollection" : "delete";
  } else {
    info.verb = "";
  }
  if (info.verb == "list" && (watch || watch_prefix)) info.verb = "watch";
  if (info.verb == "get" && watch_prefix) {
    // /watch/.../name: a watch of one object.
    info.verb = "watch";
  }
  return info;
}

bool query_bool(std::string_view value) {
  const auto is = [&](std::string_view word) {
    return value.size() == word.size() &&
           std::equal(value.begin(), value.end(), word.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == b;
           });
  };
  return !is("false") && !is("0");
}

}  // namespace kcm::local::apiserver
