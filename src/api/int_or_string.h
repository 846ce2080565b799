// intstr.IntOrString: a JSON number (int32) or a string, as used by
// maxSurge/maxUnavailable ("25%" or 2) and container ports ("http" or 8080),
// with upstream's percent scaling and the apps/v1 validation helpers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"
#include "api/result.h"

namespace kcm::api {

class IntOrString {
 public:
  enum class Type { kInt, kString };

  IntOrString() = default;  // the integer 0
  static IntOrString from_int(std::int32_t v) { return IntOrString(v); }
  static IntOrString from_string(std::string v) { return IntOrString(std::move(v)); }
  // intstr.Parse: an integer when strconv.Atoi accepts the text (truncated to
  // int32 like upstream's FromInt), otherwise the string.
  static IntOrString parse(std::string_view s);

  Type type() const { return type_; }
  bool is_int() const { return type_ == Type::kInt; }
  bool is_string() const { return type_ == Type::kString; }
  std::int32_t int_val() const { return int_val_; }
  const std::string& str_val() const { return str_val_; }

  // IntValue(): the int, or strconv.Atoi of the string (0 when it does not
  // parse, saturated when it overflows, as upstream discards Atoi's error).
  std::int64_t int_value() const;
  // String(): the string, or the decimal text of the int.
  std::string to_string() const;

  // JSON: a string is a string, anything else must decode as a Go int32.
  // null decodes as the integer 0 (upstream's behaviour for a non-pointer field;
  // optional fields should test for null first).
  static Result<IntOrString> from_json(const json::value& v);
  json::value to_json() const;

  friend bool operator==(const IntOrString&, const IntOrString&) = default;

 private:
  explicit IntOrString(std::int32_t v) : int_val_(v) {}
  explicit IntOrString(std::string v) : type_(Type::kString), str_val_(std::move(v)) {}

  Type type_ = Type::kInt;
  std::int32_t int_val_ = 0;
  std::string str_val_;
};

// intstr.GetScaledValueFromIntOrPercent: an int as is; "N%" of `total`,
// rounded up or down; any other string is an error such as
// `invalid value for IntOrString: invalid type: string is not a percentage`.
// A null pointer is the error "nil value for IntOrString".
Result<std::int64_t> get_scaled_value_from_int_or_percent(const IntOrString* v, std::int64_t total,
                                                          bool round_up);
inline Result<std::int64_t> get_scaled_value_from_int_or_percent(const IntOrString& v,
                                                                 std::int64_t total,
                                                                 bool round_up) {
  return get_scaled_value_from_int_or_percent(&v, total, round_up);
}

// apps/validation.ValidatePositiveIntOrPercent: a non-negative int, or a
// string matching [0-9]+%.
FieldErrors validate_positive_int_or_percent(const IntOrString& v, std::string_view field);
// apps/validation.IsNotMoreThan100Percent: a valid percent string above 100%
// is invalid; everything else passes.
FieldErrors is_not_more_than_100_percent(const IntOrString& v, std::string_view field);
// apps/validation.getIntOrPercentValue: the number of a valid percent string,
// otherwise IntValue(). Used for "may not be 0 when `maxSurge` is 0".
std::int64_t int_or_percent_value(const IntOrString& v);

// validation.IsValidPercent: empty when `s` matches ^[0-9]+%$, else the message.
std::vector<std::string> is_valid_percent(std::string_view s);

// Go's strconv.Atoi, with its error text ("strconv.Atoi: parsing \"x\": invalid
// syntax" / "...: value out of range"). On range errors `value` is saturated.
struct GoAtoiResult {
  std::int64_t value = 0;
  std::string error;  // empty on success
};
GoAtoiResult go_atoi(std::string_view s);

}  // namespace kcm::api
