#include "api/version.h"

#include <fmt/format.h>

#include <charconv>

#include "api/field_error.h"
#include "api/go_strings.h"

namespace kcm::api {
namespace {

bool is_go_space(char c) {  // RE2's \s
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_identifier_char(char c) {
  return is_digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-';
}

// One or more dot-separated non-empty runs of [0-9A-Za-z-], at the start of
// `s`; returns the length matched (0 for none).
std::size_t dotted_identifiers(std::string_view s) {
  std::size_t end = 0;
  for (;;) {
    std::size_t i = end == 0 ? 0 : end + 1;
    const std::size_t start = i;
    while (i < s.size() && is_identifier_char(s[i]))
      ++i;
    if (i == start) return end;
    end = i;
    if (end >= s.size() || s[end] != '.') return end;
  }
}

// extraMatchRE: (-pre.release)?(+build.metadata)?\s*$
bool split_extra(std::string_view extra, std::string& pre_release, std::string& build) {
  if (!extra.empty() && extra.front() == '-') {
    const std::size_t n = dotted_identifiers(extra.substr(1));
    if (n == 0) return false;
    pre_release = extra.substr(1, n);
    extra.remove_prefix(1 + n);
  }
  if (!extra.empty() && extra.front() == '+') {
    const std::size_t n = dotted_identifiers(extra.substr(1));
    if (n == 0) return false;
    build = extra.substr(1, n);
    extra.remove_prefix(1 + n);
  }
  for (const char c : extra)
    if (!is_go_space(c)) return false;
  return true;
}

Result<Version> parse(std::string_view text, bool semver) {
  // versionMatchRE: ^\s*v?([0-9]+(?:\.[0-9]+)*)(.*)*$, where '.' does not
  // match a newline.
  std::size_t i = 0;
  while (i < text.size() && is_go_space(text[i]))
    ++i;
  if (i < text.size() && text[i] == 'v') ++i;
  const std::size_t numbers_start = i;
  std::size_t numbers_end = i;
  while (i < text.size() && is_digit(text[i])) {
    while (i < text.size() && is_digit(text[i]))
      ++i;
    numbers_end = i;
    if (i + 1 < text.size() && text[i] == '.' && is_digit(text[i + 1])) {
      ++i;
    } else {
      break;
    }
  }
  const std::string_view extra = text.substr(numbers_end);
  if (numbers_end == numbers_start || extra.find('\n') != std::string_view::npos) {
    return fail(fmt::format("could not parse {} as version", go_quote(text)));
  }
  const std::vector<std::string_view> parts =
      split(text.substr(numbers_start, numbers_end - numbers_start), '.');
  if ((semver && parts.size() != 3) || (!semver && parts.size() < 2)) {
    return fail(fmt::format("illegal version string {}", go_quote(text)));
  }
  Version v;
  v.semver = semver;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const std::string_view part = parts[k];
    if ((k == 0 || semver) && part.size() > 1 && part.front() == '0') {
      return fail(fmt::format("illegal zero-prefixed version component {} in {}", go_quote(part),
                              go_quote(text)));
    }
    unsigned long n = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), n);
    if (ec != std::errc() || end != part.data() + part.size()) {
      return fail(fmt::format(
          "illegal non-numeric version component {} in {}: strconv.ParseUint: parsing {}: value "
          "out of range",
          go_quote(part), go_quote(text), go_quote(part)));
    }
    v.components.push_back(n);
  }
  if (semver && !extra.empty()) {
    if (!split_extra(extra, v.pre_release, v.build_metadata)) {
      return fail(fmt::format("could not parse pre-release/metadata ({}) in version {}", extra,
                              go_quote(text)));
    }
    for (const std::string_view part : split(v.pre_release, '.')) {
      const bool numeric = !part.empty() && part.find_first_not_of("0123456789") == part.npos;
      if (numeric && part.size() > 1 && part.front() == '0') {
        return fail(fmt::format("illegal zero-prefixed version component {} in {}", go_quote(part),
                                go_quote(text)));
      }
    }
  }
  return v;
}

}  // namespace

std::string Version::to_string() const {
  std::string out;
  for (std::size_t i = 0; i < components.size(); ++i)
    out += fmt::format("{}{}", i ? "." : "", components[i]);
  if (!pre_release.empty()) out += "-" + pre_release;
  if (!build_metadata.empty()) out += "+" + build_metadata;
  return out;
}

Result<Version> parse_generic_version(std::string_view text) {
  return parse(text, false);
}

Result<Version> parse_semantic_version(std::string_view text) {
  return parse(text, true);
}

Result<Version> parse_version(std::string_view text) {
  auto semantic = parse(text, true);
  if (semantic) return semantic;
  return parse(text, false);
}

}  // namespace kcm::api
