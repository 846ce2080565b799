#include "api/name_validation.h"

#include <fmt/format.h>

#include <cstdint>

namespace kcm::api {

namespace {

// The regexes upstream prints in its messages; matching itself is hand-written
// below (the patterns are simple and this runs on every write).
constexpr std::string_view kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1123LabelErrMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDns1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";
constexpr std::string_view kDns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1035LabelErrMsg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character";
constexpr std::string_view kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kQualifiedNameErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";

bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool is_alnum(char c) {
  return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool matches_dns1123_label(std::string_view s) {
  if (s.empty() || !is_lower_alnum(s.front()) || !is_lower_alnum(s.back())) return false;
  for (char c : s) {
    if (!is_lower_alnum(c) && c != '-') return false;
  }
  return true;
}

// label(\.label)*
bool matches_dns1123_subdomain(std::string_view s) {
  for (;;) {
    const std::size_t dot = s.find('.');
    if (!matches_dns1123_label(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// [a-z]([-a-z0-9]*[a-z0-9])?
bool matches_dns1035_label(std::string_view s) {
  return matches_dns1123_label(s) && s.front() >= 'a' && s.front() <= 'z';
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool matches_qualified_name(std::string_view s) {
  if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back())) return false;
  for (char c : s) {
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

void append_invalid(FieldErrors& out, std::string_view field, std::string_view bad,
                    const std::vector<std::string>& messages) {
  for (const auto& msg : messages) {
    out.push_back(invalid(std::string(field), json::value(json::string_view(bad)), msg));
  }
}

// Upstream's maskTrailingDash: a generateName may end in '-' because random
// characters follow. It replaces the last *two* characters with "a", a quirk kept
// for identical results.
std::string_view mask_trailing_dash(std::string_view name, std::string& storage) {
  if (name.size() > 1 && name.back() == '-') {
    storage.assign(name.substr(0, name.size() - 2));
    storage += 'a';
    return storage;
  }
  return name;
}

}  // namespace

std::string max_len_error(std::size_t length) {
  return fmt::format("must be no more than {} characters", length);
}

std::string empty_error() {
  return "must be non-empty";
}

std::string regex_error(std::string_view msg, std::string_view regex,
                        std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  if (examples.size() == 0) {
    return fmt::format("{} (regex used for validation is '{}')", out, regex);
  }
  out += " (e.g. ";
  bool first = true;
  for (std::string_view example : examples) {
    // Upstream appends "', " after every example and " or " before the next one,
    // hence the double space in "'my-name',  or '123-abc'".
    if (!first) out += " or ";
    first = false;
    out += fmt::format("'{}', ", example);
  }
  out += fmt::format("regex used for validation is '{}')", regex);
  return out;
}

std::vector<std::string> is_dns1123_label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123LabelMaxLength) errs.push_back(max_len_error(kDns1123LabelMaxLength));
  if (!matches_dns1123_label(value)) {
    if (matches_dns1123_subdomain(value)) {
      // A valid subdomain but not a label: the length was checked, so it is the dots.
      errs.emplace_back("must not contain dots");
    } else {
      errs.push_back(regex_error(kDns1123LabelErrMsg, kDns1123LabelFmt, {"my-name", "123-abc"}));
    }
  }
  return errs;
}

std::vector<std::string> is_dns1123_subdomain(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123SubdomainMaxLength) {
    errs.push_back(max_len_error(kDns1123SubdomainMaxLength));
  }
  if (!matches_dns1123_subdomain(value)) {
    errs.push_back(regex_error(kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

std::vector<std::string> is_dns1035_label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1035LabelMaxLength) errs.push_back(max_len_error(kDns1035LabelMaxLength));
  if (!matches_dns1035_label(value)) {
    errs.push_back(regex_error(kDns1035LabelErrMsg, kDns1035LabelFmt, {"my-name", "abc-123"}));
  }
  return errs;
}

std::vector<std::string> is_qualified_name(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  const std::size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back(
          "a qualified name " +
          regex_error(kQualifiedNameErrMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part " + empty_error());
    } else {
      for (const auto& msg : is_dns1123_subdomain(prefix))
        errs.push_back("prefix part " + msg);
    }
  }
  if (name.empty()) {
    errs.push_back("name part " + empty_error());
  } else if (name.size() > kQualifiedNameMaxLength) {
    errs.push_back("name part " + max_len_error(kQualifiedNameMaxLength));
  }
  if (!matches_qualified_name(name)) {
    errs.push_back("name part " + regex_error(kQualifiedNameErrMsg, kQualifiedNameFmt,
                                              {"MyName", "my.name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> is_valid_label_value(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(max_len_error(kLabelValueMaxLength));
  if (!value.empty() && !matches_qualified_name(value)) {
    errs.push_back(
        regex_error(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

FieldErrors validate_label_name(std::string_view name, std::string_view field) {
  FieldErrors errs;
  append_invalid(errs, field, name, is_qualified_name(name));
  return errs;
}

FieldErrors validate_labels(const json::object& labels, std::string_view field) {
  FieldErrors errs;
  for (const auto& kv : labels) {
    const std::string_view key(kv.key().data(), kv.key().size());
    append_invalid(errs, field, key, is_qualified_name(key));
    const json::string* value = kv.value().if_string();
    if (value == nullptr) {
      errs.push_back(type_invalid(std::string(field), kv.value(), "must be a string"));
      continue;
    }
    const std::string_view v(value->data(), value->size());
    append_invalid(errs, field, v, is_valid_label_value(v));
  }
  return errs;
}

FieldErrors validate_labels(std::span<const std::pair<std::string, std::string>> labels,
                            std::string_view field) {
  FieldErrors errs;
  for (const auto& [key, value] : labels) {
    append_invalid(errs, field, key, is_qualified_name(key));
    append_invalid(errs, field, value, is_valid_label_value(value));
  }
  return errs;
}

FieldErrors validate_annotations(const json::object& annotations, std::string_view field) {
  FieldErrors errs;
  std::uint64_t total = 0;
  std::string lowered;
  for (const auto& kv : annotations) {
    const std::string_view key(kv.key().data(), kv.key().size());
    // Case does not matter for annotation keys. Upstream lowers Unicode too; that
    // cannot turn an invalid key valid, so ASCII lowering gives the same verdict.
    lowered.assign(key);
    for (char& c : lowered) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    append_invalid(errs, field, key, is_qualified_name(lowered));
    total += key.size();
    if (const json::string* value = kv.value().if_string()) {
      total += value->size();
    } else {
      errs.push_back(type_invalid(std::string(field), kv.value(), "must be a string"));
    }
  }
  if (total > kTotalAnnotationSizeLimitBytes) {
    errs.push_back(too_long(std::string(field), kTotalAnnotationSizeLimitBytes));
  }
  return errs;
}

std::vector<std::string> is_valid_path_segment_name(std::string_view name) {
  if (name == "." || name == "..") return {fmt::format("may not be '{}'", name)};
  return is_valid_path_segment_prefix(name);
}

std::vector<std::string> is_valid_path_segment_prefix(std::string_view name) {
  std::vector<std::string> errs;
  if (name.find('/') != std::string_view::npos) errs.emplace_back("may not contain '/'");
  if (name.find('%') != std::string_view::npos) errs.emplace_back("may not contain '%'");
  return errs;
}

std::vector<std::string> validate_path_segment_name(std::string_view name, bool prefix) {
  return prefix ? is_valid_path_segment_prefix(name) : is_valid_path_segment_name(name);
}

std::vector<std::string> name_is_dns_subdomain(std::string_view name, bool prefix) {
  std::string storage;
  return is_dns1123_subdomain(prefix ? mask_trailing_dash(name, storage) : name);
}

std::vector<std::string> name_is_dns_label(std::string_view name, bool prefix) {
  std::string storage;
  return is_dns1123_label(prefix ? mask_trailing_dash(name, storage) : name);
}

std::vector<std::string> name_is_dns1035_label(std::string_view name, bool prefix) {
  std::string storage;
  return is_dns1035_label(prefix ? mask_trailing_dash(name, storage) : name);
}

FieldErrors validate_object_name(std::string_view name, std::string_view generate_name,
                                 NameValidator validator, std::string_view meta_field) {
  FieldErrors errs;
  if (!generate_name.empty()) {
    append_invalid(errs, child(meta_field, "generateName"), generate_name,
                   validator(generate_name, true));
  }
  if (name.empty()) {
    errs.push_back(required(child(meta_field, "name"), "name or generateName is required"));
  } else {
    append_invalid(errs, child(meta_field, "name"), name, validator(name, false));
  }
  return errs;
}

}  // namespace kcm::api
