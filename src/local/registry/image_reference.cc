#include "local/registry/image_reference.h"

namespace kcm::local::registry {
namespace {

bool lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool alnum(char c) {
  return lower_alnum(c) || (c >= 'A' && c <= 'Z');
}
bool word(char c) {
  return alnum(c) || c == '_';
}
bool hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// [a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*
bool path_component(std::string_view s) {
  if (s.empty() || !lower_alnum(s.front()) || !lower_alnum(s.back())) return false;
  for (std::size_t i = 0; i < s.size();) {
    if (lower_alnum(s[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && !lower_alnum(s[j]))
      ++j;
    const std::string_view sep = s.substr(i, j - i);
    const bool dashes = sep.find_first_not_of('-') == std::string_view::npos;
    if (!(sep == "." || sep == "_" || sep == "__" || dashes)) return false;
    i = j;
  }
  return true;
}

// domain-component ('.' domain-component)* [':' port]
bool domain(std::string_view s) {
  const std::size_t colon = s.rfind(':');
  std::string_view host = s;
  if (colon != std::string_view::npos && s.front() != '[') {
    const std::string_view port = s.substr(colon + 1);
    if (port.empty() || port.find_first_not_of("0123456789") != std::string_view::npos) {
      return false;
    }
    host = s.substr(0, colon);
  }
  if (!host.empty() && host.front() == '[') return host.back() == ']';  // IPv6 literal
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = host.find('.', start);
    const std::string_view comp =
        host.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (comp.empty() || !alnum(comp.front()) || !alnum(comp.back())) return false;
    for (char c : comp) {
      if (!alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool digest(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::string_view hexpart = s.substr(colon + 1);
  if (hexpart.size() < 32) return false;
  for (char c : hexpart) {
    if (!hex(c)) return false;
  }
  for (char c : s.substr(0, colon)) {
    if (!alnum(c) && c != '+' && c != '.' && c != '_' && c != '-') return false;
  }
  return true;
}

}  // namespace

std::string image_tag(std::string_view image) {
  std::string_view name = image;
  std::string_view dig;
  if (const std::size_t at = image.find('@'); at != std::string_view::npos) {
    name = image.substr(0, at);
    dig = image.substr(at + 1);
    if (!digest(dig)) return {};
  }
  std::string_view tag;
  const std::size_t slash = name.rfind('/');
  const std::size_t colon = name.rfind(':');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    tag = name.substr(colon + 1);
    name = name.substr(0, colon);
    if (tag.empty() || tag.size() > 128 || !word(tag.front())) return {};
    for (char c : tag) {
      if (!word(c) && c != '.' && c != '-') return {};
    }
  }
  if (name.empty() || name.size() > 255) return {};
  // The first component is a registry when it looks like a host name.
  std::string_view path = name;
  if (const std::size_t first = name.find('/'); first != std::string_view::npos) {
    const std::string_view head = name.substr(0, first);
    bool has_upper = false;
    for (char c : head)
      has_upper = has_upper || (c >= 'A' && c <= 'Z');
    if (head.find_first_of(".:") != std::string_view::npos || head == "localhost" || has_upper) {
      if (!domain(head)) return {};
      path = name.substr(first + 1);
    }
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t next = path.find('/', start);
    if (!path_component(path.substr(start, next == std::string_view::npos ? next : next - start))) {
      return {};
    }
    if (next == std::string_view::npos) break;
    start = next + 1;
  }
  if (tag.empty() && dig.empty()) return "latest";
  return std::string(tag);
}

std::string default_pull_policy(std::string_view image) {
  return image_tag(image) == "latest" ? "Always" : "IfNotPresent";
}

}  // namespace kcm::local::registry
