#include "api/described_json.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "api/field_error.h"

namespace kcm::api {

std::string lower_camel_case(std::string_view member) {
  while (!member.empty() && member.back() == '_')
    member.remove_suffix(1);
  std::string out;
  out.reserve(member.size());
  bool upper_next = false;
  for (const char c : member) {
    if (c == '_') {
      upper_next = !out.empty();
      continue;
    }
    if (upper_next && c >= 'a' && c <= 'z') {
      out.push_back(static_cast<char>(c - 'a' + 'A'));
    } else {
      out.push_back(c);
    }
    upper_next = false;
  }
  return out;
}

Status decode_failure(const KindInfo& info, const json::value& object, std::string_view error) {
  Status s;
  s.code = 500;
  s.reason = std::string(reason::kInternalError);
  const std::string_view name =
      object.is_object() ? as_string_view(find_path(object, {"metadata", "name"})) : "";
  s.message = name.empty()
                  ? fmt::format("unable to decode {}: {}", info.kind, error)
                  : fmt::format("unable to decode {} {}: {}", info.kind, go_quote(name), error);
  return s;
}

namespace detail {

std::string MemberPath::str() const {
  switch (step_) {
    case Step::kRoot:
      return std::string(text_);
    case Step::kMember:
      return child(parent_->str(), text_);
    case Step::kIndex:
      return api::index(parent_->str(), index_);
    case Step::kKey:
      return api::key(parent_->str(), text_);
  }
  return {};
}

std::string type_error(const MemberPath& path, std::string_view want, const json::value& got) {
  const std::string p = path.str();
  if (p.empty()) return fmt::format("expected {}, got {}", want, json_type_name(got));
  return fmt::format("{}: expected {}, got {}", p, want, json_type_name(got));
}

std::string range_error(const MemberPath& path, std::string_view type) {
  const std::string p = path.str();
  if (p.empty()) return fmt::format("integer out of range for {}", type);
  return fmt::format("{}: integer out of range for {}", p, type);
}

std::string prefixed(const MemberPath& path, std::string_view error) {
  const std::string p = path.str();
  if (p.empty()) return std::string(error);
  return fmt::format("{}: {}", p, error);
}

std::string type_meta_error(const MemberPath& path, std::string_view want, std::string_view got) {
  return fmt::format("{}: expected {}, got {}", path.str(), go_quote(want), go_quote(got));
}

json::value encode_double(double d) {
  // Go writes 3.0 as "3"; Boost.JSON would write "3E0".
  constexpr double kLimit = 9007199254740992.0;  // 2^53: exact in a double
  if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= kLimit) {
    return static_cast<std::int64_t>(d);
  }
  return d;
}

void reorder(json::object& out, const std::vector<json::string>& order, bool type_meta_first) {
  json::object sorted(out.storage());
  sorted.reserve(out.size());
  const auto in_order = [&](std::string_view k) {
    for (const json::string& o : order) {
      if (o == k) return true;
    }
    return false;
  };
  if (type_meta_first) {
    for (const std::string_view k : {"kind", "apiVersion"}) {
      if (in_order(k)) continue;
      if (json::value* v = out.if_contains(k)) sorted.emplace(k, std::move(*v));
    }
  }
  for (const json::string& k : order) {
    if (sorted.contains(k)) continue;
    if (json::value* v = out.if_contains(k)) sorted.emplace(k, std::move(*v));
  }
  for (auto& kv : out) {
    if (!sorted.contains(kv.key())) sorted.emplace(kv.key(), std::move(kv.value()));
  }
  out = std::move(sorted);
}

}  // namespace detail

}  // namespace kcm::api
