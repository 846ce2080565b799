#include "local/registry/validation_common.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <cctype>

#include "api/name_validation.h"
#include "local/registry/field_access.h"

namespace kcm::local::registry {
namespace {

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::vector<std::string> has_chdir_prefix(std::string_view value) {
  if (value == ".") return {"must not be '.'"};
  if (value == "..") return {"must not be '..'"};
  if (value.starts_with("..")) return {"must not start with '..'"};
  return {};
}

// One IPv4 address, with Go's pre-1.17 leniency for leading zeros.
bool parse_ipv4_sloppy(std::string_view s) {
  int parts = 0;
  std::size_t i = 0;
  while (true) {
    if (i >= s.size() || !is_digit(s[i])) return false;
    int value = 0;
    std::size_t digits = 0;
    while (i < s.size() && is_digit(s[i])) {
      value = value * 10 + (s[i] - '0');
      if (value > 255 || ++digits > 3) return false;
      ++i;
    }
    ++parts;
    if (i == s.size()) break;
    if (s[i] != '.' || parts == 4) return false;
    ++i;
  }
  return parts == 4;
}

}  // namespace

std::string inclusive_range_error(std::int64_t lo, std::int64_t hi) {
  return fmt::format("must be between {} and {}, inclusive", lo, hi);
}

void validate_nonnegative(std::int64_t value, std::string_view field, api::FieldErrors& errs) {
  if (value < 0) {
    errs.push_back(
        api::invalid(std::string(field), json::value(value), std::string(kNegativeErrorMsg)));
  }
}

void append_invalid(std::string_view field, std::string_view value,
                    const std::vector<std::string>& messages, api::FieldErrors& errs) {
  for (const auto& msg : messages) {
    errs.push_back(api::invalid(std::string(field), json::value(value), msg));
  }
}

void validate_dns1123_label(std::string_view value, std::string_view field,
                            api::FieldErrors& errs) {
  append_invalid(field, value, api::is_dns1123_label(value), errs);
}

void validate_dns1123_subdomain(std::string_view value, std::string_view field,
                                api::FieldErrors& errs) {
  append_invalid(field, value, api::is_dns1123_subdomain(value), errs);
}

void validate_qualified_name(std::string_view value, std::string_view field,
                             api::FieldErrors& errs) {
  append_invalid(field, value, api::is_qualified_name(value), errs);
}

std::vector<std::string> is_valid_port_num(std::int64_t port) {
  if (port >= 1 && port <= 65535) return {};
  return {inclusive_range_error(1, 65535)};
}

std::vector<std::string> is_valid_port_name(std::string_view port) {
  std::vector<std::string> errs;
  if (port.size() > 15) errs.push_back(api::max_len_error(15));
  bool charset_ok = !port.empty();
  bool has_letter = false;
  for (char c : port) {
    if (!((c >= 'a' && c <= 'z') || is_digit(c) || c == '-')) charset_ok = false;
    if (c >= 'a' && c <= 'z') has_letter = true;
  }
  if (!charset_ok) {
    errs.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  }
  if (!has_letter) errs.push_back("must contain at least one letter (a-z)");
  if (port.find("--") != std::string_view::npos) {
    errs.push_back("must not contain consecutive hyphens");
  }
  if (!port.empty() && (port.front() == '-' || port.back() == '-')) {
    errs.push_back("must not begin or end with a hyphen");
  }
  return errs;
}

std::vector<std::string> is_env_var_name(std::string_view value) {
  std::vector<std::string> errs;
  bool ok = !value.empty() && !is_digit(value[0]);
  for (char c : value) {
    if (!(is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_')) ok = false;
  }
  if (!ok) {
    errs.push_back(api::regex_error(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', "
        "'-', or '.', and must not start with a digit",
        "[-._a-zA-Z][-._a-zA-Z0-9]*", {"my.env-name", "MY_ENV.NAME", "MyEnvName1"}));
  }
  for (auto& m : has_chdir_prefix(value))
    errs.push_back(std::move(m));
  return errs;
}

std::vector<std::string> is_relaxed_env_var_name(std::string_view value) {
  std::vector<std::string> errs;
  if (value.empty()) errs.push_back("environment variable name " + api::empty_error());
  for (unsigned char c : value) {
    // Bytes >= 0x80 belong to non-ASCII runes, which are refused too.
    if (c >= 0x80 || c < 0x20 || c == 0x7f || c == '=') {
      errs.push_back(
          "a valid environment variable name must consist only of printable ASCII characters "
          "other than '='");
      break;
    }
  }
  return errs;
}

std::vector<std::string> is_config_map_key(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > api::kDns1123SubdomainMaxLength) {
    errs.push_back(api::max_len_error(api::kDns1123SubdomainMaxLength));
  }
  bool ok = !value.empty();
  for (char c : value) {
    if (!(is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_')) ok = false;
  }
  if (!ok) {
    errs.push_back(api::regex_error(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        "[-._a-zA-Z0-9]+", {"key.name", "KEY_NAME", "key-name"}));
  }
  for (auto& m : has_chdir_prefix(value))
    errs.push_back(std::move(m));
  return errs;
}

std::vector<std::string> is_http_header_name(std::string_view value) {
  bool ok = !value.empty();
  for (char c : value) {
    if (!(is_alpha(c) || is_digit(c) || c == '-')) ok = false;
  }
  if (ok) return {};
  return {api::regex_error("a valid HTTP header must consist of alphanumeric characters or '-'",
                           "[-A-Za-z0-9]+", {"X-Header-Name"})};
}

std::vector<std::string> is_valid_user_id(std::int64_t uid) {
  if (uid >= 0 && uid <= 0xffffffffLL) return {};
  return {inclusive_range_error(0, 0xffffffffLL)};
}

std::vector<std::string> is_valid_group_id(std::int64_t gid) {
  return is_valid_user_id(gid);
}

std::vector<std::string> is_dns1123_subdomain_with_underscore(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > api::kDns1123SubdomainMaxLength) {
    errs.push_back(api::max_len_error(api::kDns1123SubdomainMaxLength));
  }
  // _?[a-z0-9]([-_a-z0-9]*[a-z0-9])? joined by '.'
  bool ok = !value.empty();
  std::size_t start = 0;
  while (ok && start <= value.size()) {
    std::size_t dot = value.find('.', start);
    std::string_view label =
        value.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (!label.empty() && label[0] == '_') label.remove_prefix(1);
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (label.empty() || !alnum(label.front()) || !alnum(label.back())) ok = false;
    for (char c : label) {
      if (!(alnum(c) || c == '-' || c == '_')) ok = false;
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (!ok) {
    errs.push_back(api::regex_error(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
        "'_', '-' or '.', and must start and end with an alphanumeric character",
        "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*", {"example.com"}));
  }
  return errs;
}

bool parse_ip_sloppy(std::string_view value, bool* is_v6) {
  if (value.find(':') == std::string_view::npos) {
    if (is_v6 != nullptr) *is_v6 = false;
    return parse_ipv4_sloppy(value);
  }
  if (is_v6 != nullptr) *is_v6 = true;
  std::string s(value);
  in6_addr addr{};
  return ::inet_pton(AF_INET6, s.c_str(), &addr) == 1;
}

bool parse_cidr_sloppy(std::string_view value, bool* is_v6) {
  const std::size_t slash = value.find('/');
  if (slash == std::string_view::npos) return false;
  bool v6 = false;
  if (!parse_ip_sloppy(value.substr(0, slash), &v6)) return false;
  std::string_view bits = value.substr(slash + 1);
  if (bits.empty() || bits.size() > 4) return false;
  int n = 0;
  for (char c : bits) {
    if (!is_digit(c)) return false;
    n = n * 10 + (c - '0');
  }
  if (n > (v6 ? 128 : 32)) return false;
  if (is_v6 != nullptr) *is_v6 = v6;
  return true;
}

void validate_ip(std::string_view value, std::string_view field, api::FieldErrors& errs) {
  if (!parse_ip_sloppy(value)) {
    errs.push_back(api::invalid(std::string(field), json::value(value),
                                "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"));
  }
}

void validate_cidr(std::string_view value, std::string_view field, api::FieldErrors& errs) {
  if (!parse_cidr_sloppy(value)) {
    errs.push_back(api::invalid(std::string(field), json::value(value),
                                "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"));
  }
}

void validate_path_no_backsteps(std::string_view path, std::string_view field,
                                api::FieldErrors& errs) {
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = path.find('/', start);
    if (path.substr(start, slash == std::string_view::npos ? slash : slash - start) == "..") {
      errs.push_back(api::invalid(std::string(field), json::value(path), "must not contain '..'"));
      return;
    }
    if (slash == std::string_view::npos) return;
    start = slash + 1;
  }
}

void validate_local_descending_path(std::string_view path, std::string_view field,
                                    api::FieldErrors& errs) {
  if (path.starts_with("/")) {
    errs.push_back(api::invalid(std::string(field), json::value(path), "must be a relative path"));
  }
  validate_path_no_backsteps(path, field, errs);
}

void validate_local_non_reserved_path(std::string_view path, std::string_view field,
                                      api::FieldErrors& errs) {
  validate_local_descending_path(path, field, errs);
  // The ".." element check already reported "../x".
  if (path.starts_with("..") && !path.starts_with("../")) {
    errs.push_back(api::invalid(std::string(field), json::value(path), "must not start with '..'"));
  }
}

void validate_file_mode(const json::object& o, std::string_view key, std::string_view field,
                        api::FieldErrors& errs) {
  if (auto mode = int_member(o, key); mode && (*mode > 0777 || *mode < 0)) {
    errs.push_back(
        api::invalid(std::string(field), json::value(*mode), std::string(kFileModeErrorMsg)));
  }
}

void validate_immutable(const json::value* now, const json::value* old, std::string_view field,
                        api::FieldErrors& errs) {
  const bool now_set = now != nullptr && !now->is_null();
  const bool old_set = old != nullptr && !old->is_null();
  if (now_set != old_set || (now_set && *now != *old)) {
    errs.push_back(api::invalid(std::string(field), now_set ? *now : json::value(nullptr),
                                std::string(kFieldImmutableErrorMsg)));
  }
}

void validate_kube_finalizer_name(std::string_view name, std::string_view field,
                                  api::FieldErrors& errs) {
  if (name.find('/') != std::string_view::npos) return;
  if (name == "kubernetes" || name == "orphan" || name == "foregroundDeletion") return;
  errs.push_back(api::invalid(std::string(field), json::value(name),
                              "name is neither a standard finalizer name nor is it fully "
                              "qualified"));
}

void validate_kube_finalizer_names(const json::object& obj, api::FieldErrors& errs) {
  const json::object* meta = object_member(obj, "metadata");
  const json::array* finalizers = meta != nullptr ? array_member(*meta, "finalizers") : nullptr;
  if (finalizers == nullptr) return;
  for (std::size_t i = 0; i < finalizers->size(); ++i) {
    if (!(*finalizers)[i].is_string()) continue;
    validate_kube_finalizer_name((*finalizers)[i].get_string(),
                                 api::index("metadata.finalizers", i), errs);
  }
}

void append(api::FieldErrors& errs, api::FieldErrors more) {
  errs.insert(errs.end(), std::make_move_iterator(more.begin()),
              std::make_move_iterator(more.end()));
}

void validate_port_num_or_name(const json::object& holder, std::string_view key,
                               std::string_view field, api::FieldErrors& errs) {
  const json::value* port = member(holder, key);
  if (port != nullptr && port->is_string()) {
    append_invalid(field, port->get_string(), is_valid_port_name(port->get_string()), errs);
    return;
  }
  const std::int64_t n = int_member(holder, key).value_or(0);
  for (const auto& msg : is_valid_port_num(n)) {
    errs.push_back(api::invalid(std::string(field), json::value(n), msg));
  }
}

void validate_port_protocol(std::string_view protocol, std::string_view field,
                            api::FieldErrors& errs) {
  if (protocol.empty()) {
    errs.push_back(api::required(std::string(field)));
  } else if (protocol != "SCTP" && protocol != "TCP" && protocol != "UDP") {
    errs.push_back(
        api::not_supported(std::string(field), json::value(protocol), {"SCTP", "TCP", "UDP"}));
  }
}

}  // namespace kcm::local::registry
