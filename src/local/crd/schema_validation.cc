#include "local/crd/schema_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/regex.hpp>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <unordered_map>
#include <vector>

#include "api/name_validation.h"

namespace kcm::local::crd {

namespace {

using api::FieldErrors;

struct Ctx {
  std::string_view prefix;
  FieldErrors errs;
};

std::string trim_dot(std::string_view name) {
  if (!name.empty() && name.front() == '.') name.remove_prefix(1);
  return std::string(name);
}

// The field path kubeOpenAPIResultToFieldErrors gives an error named `name`.
std::string field_of(const Ctx& ctx, std::string_view name) {
  if (name.empty() || name == ".") return ctx.prefix.empty() ? "<nil>" : std::string(ctx.prefix);
  return api::child(ctx.prefix, trim_dot(name));
}

// kube-openapi's name of a value's type.
std::string_view data_type(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return "null";
    case json::kind::bool_:
      return "boolean";
    case json::kind::string:
      return "string";
    case json::kind::int64:
    case json::kind::uint64:
      return "integer";
    case json::kind::double_:
      return "number";
    case json::kind::array:
      return "array";
    case json::kind::object:
      return "object";
  }
  return "null";
}

bool is_integral(double d) {
  return std::isfinite(d) && std::floor(d) == d;
}

// Go's %v of a schema bound: an int64 when the bound is integral and the data an
// integer (MaximumNativeType), else a float64.
std::string bound(double b, const json::value& data) {
  if (!data.is_double() && is_integral(b) && std::fabs(b) < 9.2e18) {
    return std::to_string(static_cast<std::int64_t>(b));
  }
  return go_format_float(b);
}

std::int64_t rune_count(std::string_view s) {
  std::int64_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

void run(const Schema& s, const json::value& v, const std::string& name, Ctx& ctx);

// Validates without recording, for anyOf/oneOf/not.
FieldErrors try_run(const Schema& s, const json::value& v, const std::string& name,
                    std::string_view prefix) {
  Ctx sub{prefix, {}};
  run(s, v, name, sub);
  return std::move(sub.errs);
}

void add(Ctx& ctx, FieldErrors errs) {
  ctx.errs.insert(ctx.errs.end(), std::make_move_iterator(errs.begin()),
                  std::make_move_iterator(errs.end()));
}

void check_type(const Schema& s, const json::value& v, const std::string& name, Ctx& ctx) {
  std::vector<std::string_view> types;
  if (s.int_or_string) {
    types = {"integer", "string"};
  } else if (!s.type.empty()) {
    types = {s.type};
  }
  if (types.empty()) return;
  auto has = [&](std::string_view t) {
    return std::find(types.begin(), types.end(), t) != types.end();
  };
  const std::string_view dt = data_type(v);
  if (v.is_null()) {
    if (s.nullable) return;
  } else if (has(dt) || (dt == "integer" && has("number")) ||
             (dt == "number" && has("integer") && is_integral(v.get_double()))) {
    return;
  }
  std::string joined;
  for (std::string_view t : types) {
    if (!joined.empty()) joined += ",";
    joined += t;
  }
  ctx.errs.push_back(api::type_invalid(
      field_of(ctx, name), json::value(dt),
      fmt::format("{} in body must be of type {}: {}", name, joined, api::go_quote(dt))));
}

void check_enum(const Schema& s, const json::value& v, const std::string& name, Ctx& ctx) {
  if (!s.enum_values || s.enum_values->empty()) return;
  for (const json::value& e : *s.enum_values) {
    if (json_equal(e, v)) return;
  }
  std::vector<std::string> values;
  for (const json::value& e : *s.enum_values) {
    values.push_back(e.is_string() ? std::string(e.get_string()) : json::serialize(e));
  }
  ctx.errs.push_back(api::not_supported(field_of(ctx, name), v, values));
}

void check_junctors(const Schema& s, const json::value& v, const std::string& name, Ctx& ctx) {
  const std::string quoted = fmt::format("\"{}\"", name);
  if (!s.all_of.empty()) {
    std::size_t validated = 0;
    for (const SchemaPtr& a : s.all_of) {
      FieldErrors e = try_run(*a, v, name, ctx.prefix);
      if (e.empty()) ++validated;
      add(ctx, std::move(e));
    }
    if (validated != s.all_of.size()) {
      ctx.errs.push_back(
          api::invalid(field_of(ctx, ""), "",
                       fmt::format("{} must validate all the schemas (allOf){}", quoted,
                                   validated == 0 ? ". None validated" : "")));
    }
  }
  if (!s.any_of.empty()) {
    std::optional<FieldErrors> best;
    bool ok = false;
    for (const SchemaPtr& a : s.any_of) {
      FieldErrors e = try_run(*a, v, name, ctx.prefix);
      if (e.empty()) {
        ok = true;
        break;
      }
      if (!best || e.size() < best->size()) best = std::move(e);
    }
    if (!ok) {
      ctx.errs.push_back(
          api::invalid(field_of(ctx, ""), "",
                       fmt::format("{} must validate at least one schema (anyOf)", quoted)));
      if (best) add(ctx, std::move(*best));
    }
  }
  if (!s.one_of.empty()) {
    std::optional<FieldErrors> best;
    std::size_t validated = 0;
    for (const SchemaPtr& a : s.one_of) {
      FieldErrors e = try_run(*a, v, name, ctx.prefix);
      if (e.empty()) {
        ++validated;
      } else if (!best || e.size() < best->size()) {
        best = std::move(e);
      }
    }
    if (validated != 1) {
      ctx.errs.push_back(api::invalid(
          field_of(ctx, ""), "",
          fmt::format("{} must validate one and only one schema (oneOf). {}", quoted,
                      validated == 0 ? std::string("Found none valid")
                                     : fmt::format("Found {} valid alternatives", validated))));
      if (validated == 0 && best) add(ctx, std::move(*best));
    }
  }
  if (s.not_ && try_run(*s.not_, v, name, ctx.prefix).empty()) {
    ctx.errs.push_back(api::invalid(field_of(ctx, ""), "",
                                    fmt::format("{} must not validate the schema (not)", quoted)));
  }
}

// Compiled patterns, per thread (schemas are shared between request threads).
// nullptr for a pattern that does not compile.
const boost::regex* compiled(const std::string& pattern) {
  thread_local std::unordered_map<std::string, std::unique_ptr<boost::regex>> cache;
  if (auto it = cache.find(pattern); it != cache.end()) return it->second.get();
  if (cache.size() >= 512) cache.clear();
  std::unique_ptr<boost::regex> re;
  try {
    re = std::make_unique<boost::regex>(pattern, boost::regex::perl);
  } catch (const std::exception&) {
    re = nullptr;
  }
  return cache.emplace(pattern, std::move(re)).first->second.get();
}

void check_string(const Schema& s, const json::string& str, const json::value& v,
                  const std::string& name, Ctx& ctx) {
  const std::string_view sv(str.data(), str.size());
  const std::int64_t n = rune_count(sv);
  // kube-openapi stops at the first failing string check.
  if (s.max_length && n > *s.max_length) {
    ctx.errs.push_back(api::too_long(field_of(ctx, name), static_cast<std::size_t>(*s.max_length)));
    return;
  }
  if (s.min_length && n < *s.min_length) {
    ctx.errs.push_back(api::invalid(
        field_of(ctx, name), v,
        fmt::format("{} in body should be at least {} chars long", name, *s.min_length)));
    return;
  }
  if (!s.pattern.empty()) {
    bool matched = false;
    try {
      const boost::regex* re = compiled(s.pattern);
      matched = re != nullptr && boost::regex_search(sv.begin(), sv.end(), *re);
    } catch (const std::exception&) {
      matched = false;  // a pattern too costly to run
    }
    if (!matched) {
      ctx.errs.push_back(api::invalid(
          field_of(ctx, name), v, fmt::format("{} in body should match '{}'", name, s.pattern)));
    }
  }
}

void check_number(const Schema& s, const json::value& v, const std::string& name, Ctx& ctx) {
  const double d = v.to_number<double>();
  if (s.multiple_of && *s.multiple_of > 0) {
    const double q = d / *s.multiple_of;
    if (!is_integral(q)) {
      ctx.errs.push_back(api::invalid(
          field_of(ctx, name), v,
          fmt::format("{} in body should be a multiple of {}", name, bound(*s.multiple_of, v))));
    }
  }
  if (s.maximum && (s.exclusive_maximum ? d >= *s.maximum : d > *s.maximum)) {
    ctx.errs.push_back(
        api::invalid(field_of(ctx, name), v,
                     fmt::format("{} in body should be less than {}{}", name,
                                 s.exclusive_maximum ? "" : "or equal to ", bound(*s.maximum, v))));
  }
  if (s.minimum && (s.exclusive_minimum ? d <= *s.minimum : d < *s.minimum)) {
    ctx.errs.push_back(
        api::invalid(field_of(ctx, name), v,
                     fmt::format("{} in body should be greater than {}{}", name,
                                 s.exclusive_minimum ? "" : "or equal to ", bound(*s.minimum, v))));
  }
}

void check_array(const Schema& s, const json::array& arr, const std::string& name, Ctx& ctx) {
  if (s.items) {
    for (std::size_t i = 0; i < arr.size(); ++i) {
      run(*s.items, arr[i], fmt::format("{}[{}]", name, i), ctx);
    }
  }
  const auto size = static_cast<std::int64_t>(arr.size());
  if (s.min_items && size < *s.min_items) {
    ctx.errs.push_back(
        api::invalid(field_of(ctx, name), size,
                     fmt::format("{} in body should have at least {} items", name, *s.min_items)));
  }
  if (s.max_items && size > *s.max_items) {
    ctx.errs.push_back(api::too_many(field_of(ctx, name), size, *s.max_items));
  }
  if (s.unique_items) {
    for (std::size_t i = 0; i < arr.size(); ++i) {
      for (std::size_t j = i + 1; j < arr.size(); ++j) {
        if (json_equal(arr[i], arr[j])) {
          ctx.errs.push_back(
              api::invalid(field_of(ctx, name), "",
                           fmt::format("{} in body shouldn't contain duplicates", name)));
          return;
        }
      }
    }
  }
}

void check_object(const Schema& s, const json::object& obj, const std::string& name, Ctx& ctx) {
  const auto n = static_cast<std::int64_t>(obj.size());
  if (s.min_properties && n < *s.min_properties) {
    ctx.errs.push_back(api::invalid(
        field_of(ctx, name), n,
        fmt::format("{} in body should have at least {} properties", name, *s.min_properties)));
    return;
  }
  if (s.max_properties && n > *s.max_properties) {
    ctx.errs.push_back(api::too_many(field_of(ctx, name), n, *s.max_properties));
    return;
  }
  if (s.additional_properties_allows == false) {
    for (const auto& kv : obj) {
      if (s.property(kv.key()) == nullptr) {
        ctx.errs.push_back(api::invalid(field_of(ctx, name), json::value(kv.key()),
                                        fmt::format("{}.{} in body is a forbidden property", name,
                                                    std::string_view(kv.key()))));
      }
    }
  } else if (s.additional_properties) {
    for (const auto& kv : obj) {
      if (s.property(kv.key()) == nullptr) {
        run(*s.additional_properties, kv.value(),
            fmt::format("{}.{}", name, std::string_view(kv.key())), ctx);
      }
    }
  }
  for (const auto& [k, p] : s.properties) {
    if (const json::value* v = obj.if_contains(k)) {
      run(*p, *v, name.empty() ? k : fmt::format("{}.{}", name, k), ctx);
    }
  }
  for (const std::string& k : s.required) {
    if (!obj.contains(k)) ctx.errs.push_back(api::required(field_of(ctx, name + "." + k)));
  }
}

// objectmeta's validateEmbeddedResource: apiVersion and kind of an embedded object.
void check_embedded(const json::object& obj, const std::string& name, Ctx& ctx) {
  const std::string base = field_of(ctx, name);
  const json::value* api_version = obj.if_contains("apiVersion");
  const json::value* kind = obj.if_contains("kind");
  if (api_version == nullptr) {
    ctx.errs.push_back(api::required(api::child(base, "apiVersion"), "must not be empty"));
  } else if (!api_version->is_string()) {
    ctx.errs.push_back(
        api::invalid(api::child(base, "apiVersion"), *api_version, "must be a string"));
  } else if (api_version->get_string().empty()) {
    ctx.errs.push_back(api::invalid(api::child(base, "apiVersion"), "", "must not be empty"));
  } else {
    const std::string_view av = api_version->get_string();
    if (std::count(av.begin(), av.end(), '/') > 1) {
      ctx.errs.push_back(api::invalid(api::child(base, "apiVersion"), *api_version,
                                      fmt::format("unexpected GroupVersion string: {}", av)));
    }
  }
  if (kind == nullptr) {
    ctx.errs.push_back(api::required(api::child(base, "kind"), "must not be empty"));
  } else if (!kind->is_string()) {
    ctx.errs.push_back(api::invalid(api::child(base, "kind"), *kind, "must be a string"));
  } else if (kind->get_string().empty()) {
    ctx.errs.push_back(api::invalid(api::child(base, "kind"), "", "must not be empty"));
  } else {
    std::string lower(kind->get_string());
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::vector<std::string> msgs = api::is_dns1035_label(lower);
    if (!msgs.empty()) {
      std::string joined;
      for (const std::string& m : msgs)
        joined += (joined.empty() ? "" : ",") + m;
      ctx.errs.push_back(
          api::invalid(api::child(base, "kind"), *kind,
                       "may have mixed case, but should otherwise match: " + joined));
    }
  }
}

void run(const Schema& s, const json::value& v, const std::string& name, Ctx& ctx) {
  if (v.is_null()) {
    check_type(s, v, name, ctx);
    check_enum(s, v, name, ctx);
    return;
  }
  check_type(s, v, name, ctx);
  check_junctors(s, v, name, ctx);
  if (v.is_string()) {
    check_string(s, v.get_string(), v, name, ctx);
    if (!s.format.empty() && !is_valid_format(s.format, v.get_string())) {
      ctx.errs.push_back(api::type_invalid(field_of(ctx, name), v,
                                           fmt::format("{} in body must be of type {}: {}", name,
                                                       s.format, api::go_quote(v.get_string()))));
    }
  } else if (v.is_number()) {
    check_number(s, v, name, ctx);
  } else if (v.is_array()) {
    check_array(s, v.get_array(), name, ctx);
  }
  check_enum(s, v, name, ctx);
  if (v.is_object()) {
    check_object(s, v.get_object(), name, ctx);
    if (s.embedded_resource && !name.empty()) check_embedded(v.get_object(), name, ctx);
  }
}

// ---- formats (strfmt's default registry, the ones CRDs use).

bool all_of_chars(std::string_view s, const char* set) {
  return s.find_first_not_of(set) == std::string_view::npos;
}
constexpr const char* kDigits = "0123456789";
constexpr const char* kHex = "0123456789abcdefABCDEF";

bool parse_uint(std::string_view s, int& out) {
  if (s.empty() || !all_of_chars(s, kDigits)) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool is_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  int y = 0, m = 0, d = 0;
  if (!parse_uint(s.substr(0, 4), y) || !parse_uint(s.substr(5, 2), m) ||
      !parse_uint(s.substr(8, 2), d)) {
    return false;
  }
  if (m < 1 || m > 12 || d < 1) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int max = kDays[m - 1];
  if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) max = 29;
  return d <= max;
}

bool is_date_time(std::string_view str) {
  std::string s(str);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::size_t t = s.find('t');
  if (t == std::string::npos || s.find('t', t + 1) != std::string::npos) return false;
  if (!is_date(std::string_view(s).substr(0, t))) return false;
  static const boost::regex kTime(
      R"(^([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$)");
  const std::string rest = s.substr(t + 1);
  return boost::regex_match(rest, kTime);
}

bool is_base64(std::string_view s) {
  if (s.size() % 4 != 0) return false;
  std::size_t pad = 0;
  while (pad < 2 && pad < s.size() && s[s.size() - 1 - pad] == '=')
    ++pad;
  return all_of_chars(s.substr(0, s.size() - pad),
                      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
}

bool is_ipv4(std::string_view s) {
  int parts = 0;
  while (true) {
    const std::size_t dot = s.find('.');
    const std::string_view part = s.substr(0, dot);
    int n = 0;
    if (part.size() > 3 || (part.size() > 1 && part[0] == '0') || !parse_uint(part, n) || n > 255) {
      return false;
    }
    ++parts;
    if (dot == std::string_view::npos) break;
    s.remove_prefix(dot + 1);
  }
  return parts == 4;
}

bool is_ipv6(std::string_view s) {
  if (s.find(':') == std::string_view::npos) return false;
  int groups = 0;
  bool compressed = false;
  if (s.substr(0, 2) == "::") {
    compressed = true;
    s.remove_prefix(2);
    if (s.empty()) return true;
  } else if (!s.empty() && s[0] == ':') {
    return false;
  }
  while (!s.empty()) {
    const std::size_t colon = s.find(':');
    const std::string_view part = s.substr(0, colon);
    if (colon == std::string_view::npos && part.find('.') != std::string_view::npos) {
      if (!is_ipv4(part)) return false;
      groups += 2;
      break;
    }
    if (part.empty() || part.size() > 4 || !all_of_chars(part, kHex)) return false;
    ++groups;
    if (colon == std::string_view::npos) break;
    s.remove_prefix(colon + 1);
    if (!s.empty() && s[0] == ':') {
      if (compressed) return false;
      compressed = true;
      s.remove_prefix(1);
    } else if (s.empty()) {
      return false;
    }
  }
  return compressed ? groups < 8 : groups == 8;
}

bool is_cidr(std::string_view s) {
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  int bits = 0;
  const std::string_view prefix = s.substr(slash + 1);
  if (prefix.size() > 3 || (prefix.size() > 1 && prefix[0] == '0') || !parse_uint(prefix, bits)) {
    return false;
  }
  const std::string_view ip = s.substr(0, slash);
  if (is_ipv4(ip)) return bits <= 32;
  return is_ipv6(ip) && bits <= 128;
}

bool matches_pattern(std::string_view s, const char* pattern) {
  try {
    const boost::regex re(pattern, boost::regex::perl | boost::regex::icase);
    return boost::regex_match(s.begin(), s.end(), re);
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

bool is_valid_format(std::string_view format, std::string_view value) {
  if (format == "date") return is_date(value);
  if (format == "date-time" || format == "datetime") return is_date_time(value);
  if (format == "byte") return is_base64(value);
  if (format == "ipv4") return is_ipv4(value);
  if (format == "ipv6") return is_ipv6(value);
  if (format == "cidr") return is_cidr(value);
  if (format == "uuid") {
    return matches_pattern(value, "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
  }
  if (format == "uuid3") {
    return matches_pattern(value,
                           "^[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$");
  }
  if (format == "uuid4") {
    return matches_pattern(value,
                           "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  }
  if (format == "uuid5") {
    return matches_pattern(value,
                           "^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  }
  if (format == "mac") {
    return matches_pattern(value, "^[0-9a-f]{2}([:-])[0-9a-f]{2}(\\1[0-9a-f]{2}){4}$") ||
           matches_pattern(value, "^[0-9a-f]{2}([:-])[0-9a-f]{2}(\\1[0-9a-f]{2}){6}$") ||
           matches_pattern(value, "^[0-9a-f]{4}\\.[0-9a-f]{4}\\.[0-9a-f]{4}$");
  }
  if (format == "hexcolor") return matches_pattern(value, "^#?([0-9a-f]{3}|[0-9a-f]{6})$");
  if (format == "bsonobjectid") return matches_pattern(value, "^[0-9a-f]{24}$");
  if (format == "hostname") {
    return value.size() <= 255 &&
           matches_pattern(
               value,
               "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\\.?$");
  }
  return true;
}

std::string go_format_float(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  if (ec != std::errc()) return fmt::format("{}", v);
  const std::string sci(buf, end);
  const std::size_t e = sci.find('e');
  const int exp = std::atoi(sci.c_str() + e + 1);
  // %v is strconv's 'g' with the shortest precision: exponent form when
  // exp < -4 || exp >= 6 (so 1e6 prints as "1e+06").
  if (exp < -4 || exp >= 6) {
    std::string mant = sci.substr(0, e);
    std::string ex = sci.substr(e + 1);
    const char sign = ex[0] == '-' ? '-' : '+';
    if (ex[0] == '-' || ex[0] == '+') ex.erase(0, 1);
    while (ex.size() > 2 && ex[0] == '0')
      ex.erase(0, 1);
    if (ex.size() < 2) ex.insert(0, "0");
    return mant + "e" + sign + ex;
  }
  auto [fend, fec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  if (fec != std::errc()) return fmt::format("{}", v);
  return std::string(buf, fend);
}

api::FieldErrors validate_value(const Schema& schema, const json::value& value,
                                std::string_view name, std::string_view field_prefix) {
  Ctx ctx{field_prefix, {}};
  run(schema, value, std::string(name), ctx);
  return std::move(ctx.errs);
}

api::FieldErrors validate_against_schema(const Schema& schema, const json::value& object) {
  return validate_value(schema, object, "", "");
}

}  // namespace kcm::local::crd
