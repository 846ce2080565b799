#include "api/int_or_string.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace kcm::api {

namespace {

constexpr std::string_view kPercentErrMsg =
    "a valid percent string must be a numeric string followed by an ending '%'";

std::string atoi_error(std::string_view s, bool range) {
  return "strconv.Atoi: parsing " + go_quote(s) +
         (range ? ": value out of range" : ": invalid syntax");
}

// Go's float64 -> int conversion as compiled for amd64: values outside the
// int64 range become math.MinInt64.
std::int64_t go_float_to_int(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
    return std::numeric_limits<std::int64_t>::min();
  }
  return static_cast<std::int64_t>(v);
}

// getPercentValue in apps/validation: the number of a valid percent string.
bool percent_value(const IntOrString& v, std::int64_t& out) {
  if (!v.is_string() || !is_valid_percent(v.str_val()).empty()) return false;
  const std::string& s = v.str_val();
  out = go_atoi(std::string_view(s).substr(0, s.size() - 1)).value;
  return true;
}

}  // namespace

GoAtoiResult go_atoi(std::string_view s) {
  GoAtoiResult r;
  if (!s.empty() && s.size() < 19) {
    // strconv's fast path for short strings.
    std::string_view digits = s;
    if (digits[0] == '-' || digits[0] == '+') {
      digits.remove_prefix(1);
      if (digits.empty()) {
        r.error = atoi_error(s, false);
        return r;
      }
    }
    std::int64_t n = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') {
        r.error = atoi_error(s, false);
        return r;
      }
      n = n * 10 + (c - '0');
    }
    r.value = s[0] == '-' ? -n : n;
    return r;
  }
  // strconv.ParseInt(s, 10, 64): syntax errors report 0, overflow saturates
  // and is reported as soon as it happens, even before a later bad byte.
  if (s.empty()) {
    r.error = atoi_error(s, false);
    return r;
  }
  std::string_view digits = s;
  bool neg = false;
  if (digits[0] == '+' || digits[0] == '-') {
    neg = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) {
    r.error = atoi_error(s, false);
    return r;
  }
  constexpr std::uint64_t kMaxU = std::numeric_limits<std::uint64_t>::max();
  constexpr std::uint64_t kCutoff = kMaxU / 10 + 1;
  std::uint64_t n = 0;
  bool range = false;
  for (const char c : digits) {
    if (c < '0' || c > '9') {
      r.error = atoi_error(s, false);
      return r;
    }
    if (n >= kCutoff) {
      range = true;
      break;
    }
    const std::uint64_t n1 = n * 10 + static_cast<std::uint64_t>(c - '0');
    if (n1 < n * 10) {
      range = true;
      break;
    }
    n = n1;
  }
  if (range) n = kMaxU;
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
  if (!neg && n >= kLimit) {
    r.value = std::numeric_limits<std::int64_t>::max();
    r.error = atoi_error(s, true);
    return r;
  }
  if (neg && n > kLimit) {
    r.value = std::numeric_limits<std::int64_t>::min();
    r.error = atoi_error(s, true);
    return r;
  }
  r.value = neg ? static_cast<std::int64_t>(~n + 1) : static_cast<std::int64_t>(n);
  return r;
}

IntOrString IntOrString::parse(std::string_view s) {
  const GoAtoiResult r = go_atoi(s);
  if (!r.error.empty()) return from_string(std::string(s));
  // FromInt(int) truncates to int32 (upstream only logs the overflow).
  return from_int(static_cast<std::int32_t>(static_cast<std::uint32_t>(r.value)));
}

std::int64_t IntOrString::int_value() const {
  if (type_ == Type::kString) return go_atoi(str_val_).value;
  return int_val_;
}

std::string IntOrString::to_string() const {
  if (type_ == Type::kString) return str_val_;
  return std::to_string(int_val_);
}

Result<IntOrString> IntOrString::from_json(const json::value& v) {
  // Upstream's UnmarshalJSON: a leading '"' means string, anything else is
  // decoded as an int32.
  switch (v.kind()) {
    case json::kind::string: {
      const json::string& s = v.get_string();
      return from_string(std::string(s.data(), s.size()));
    }
    case json::kind::null:
      return IntOrString();
    case json::kind::int64: {
      const std::int64_t i = v.get_int64();
      if (i < std::numeric_limits<std::int32_t>::min() ||
          i > std::numeric_limits<std::int32_t>::max()) {
        return fail(fmt::format("json: cannot unmarshal number {} into Go value of type int32", i));
      }
      return from_int(static_cast<std::int32_t>(i));
    }
    case json::kind::uint64:
      return fail(fmt::format("json: cannot unmarshal number {} into Go value of type int32",
                              v.get_uint64()));
    case json::kind::double_:
      return fail(fmt::format("json: cannot unmarshal number {} into Go value of type int32",
                              v.get_double()));
    case json::kind::bool_:
      return fail("json: cannot unmarshal bool into Go value of type int32");
    case json::kind::array:
      return fail("json: cannot unmarshal array into Go value of type int32");
    case json::kind::object:
      return fail("json: cannot unmarshal object into Go value of type int32");
  }
  return fail("json: cannot unmarshal value into Go value of type int32");
}

json::value IntOrString::to_json() const {
  if (type_ == Type::kString) return json::string(str_val_);
  return json::value(static_cast<std::int64_t>(int_val_));
}

Result<std::int64_t> get_scaled_value_from_int_or_percent(const IntOrString* v, std::int64_t total,
                                                          bool round_up) {
  if (v == nullptr) return fail("nil value for IntOrString");
  if (v->is_int()) return static_cast<std::int64_t>(v->int_val());

  const std::string& s = v->str_val();
  if (s.empty() || s.back() != '%') {
    return fail("invalid value for IntOrString: invalid type: string is not a percentage");
  }
  const GoAtoiResult r = go_atoi(std::string_view(s).substr(0, s.size() - 1));
  if (!r.error.empty()) {
    return fail("invalid value for IntOrString: invalid value " + go_quote(s) + ": " + r.error);
  }
  // Upstream scales in float64; doing the same keeps its rounding.
  const double scaled = static_cast<double>(r.value) * static_cast<double>(total) / 100;
  return go_float_to_int(round_up ? std::ceil(scaled) : std::floor(scaled));
}

std::vector<std::string> is_valid_percent(std::string_view s) {
  bool ok = s.size() >= 2 && s.back() == '%';
  for (std::size_t i = 0; ok && i + 1 < s.size(); ++i)
    ok = s[i] >= '0' && s[i] <= '9';
  if (ok) return {};
  // validation.RegexError with two examples (note upstream's double space).
  return {std::string(kPercentErrMsg) +
          " (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"};
}

FieldErrors validate_positive_int_or_percent(const IntOrString& v, std::string_view field) {
  FieldErrors errs;
  if (v.is_string()) {
    for (std::string& msg : is_valid_percent(v.str_val())) {
      errs.push_back(invalid(std::string(field), v.to_json(), std::move(msg)));
    }
    return errs;
  }
  if (v.int_value() < 0) {
    errs.push_back(invalid(std::string(field), json::value(v.int_value()),
                           "must be greater than or equal to 0"));
  }
  return errs;
}

FieldErrors is_not_more_than_100_percent(const IntOrString& v, std::string_view field) {
  std::int64_t value = 0;
  if (!percent_value(v, value) || value <= 100) return {};
  return {invalid(std::string(field), v.to_json(), "must not be greater than 100%")};
}

std::int64_t int_or_percent_value(const IntOrString& v) {
  std::int64_t value = 0;
  if (percent_value(v, value)) return value;
  return v.int_value();
}

}  // namespace kcm::api
