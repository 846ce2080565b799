// resource.Quantity: the fixed-point numbers of resource requests and limits
// ("100m", "1.5Gi", "2e3"). Values are exact decimals, never floating point:
// a mantissa (int64, or arbitrary precision when it does not fit) times a
// power of ten. Parsing, rounding and the canonical text follow upstream's
// apimachinery/pkg/api/resource exactly.
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"

namespace kcm::api {

class Quantity {
 public:
  // How the value is written back: 12e6, 12Mi (12 * 2^20) or 12M (12 * 10^6).
  enum class Format { kDecimalExponent, kBinarySI, kDecimalSI };

  // Zero in Go's empty format, which prints like DecimalExponent once non-zero.
  Quantity();
  ~Quantity();
  Quantity(const Quantity& other);
  Quantity& operator=(const Quantity& other);
  Quantity(Quantity&& other) noexcept;
  Quantity& operator=(Quantity&& other) noexcept;

  // resource.ParseQuantity. Errors are upstream's messages:
  // "quantities must match the regular expression '...'",
  // "unable to parse numeric part of quantity", "unable to parse quantity's suffix".
  static Result<Quantity> parse(std::string_view s);
  static Quantity from_int(std::int64_t value, Format format);    // NewQuantity
  static Quantity from_milli(std::int64_t value, Format format);  // NewMilliQuantity
  // value * 10^scale in DecimalSI (NewScaledQuantity).
  static Quantity from_scaled(std::int64_t value, std::int32_t scale);

  Format format() const { return format_; }
  bool is_zero() const;
  int sign() const;

  // ceil(q * 10^-scale) rounded away from zero, saturating at the int64 limits.
  std::int64_t scaled_value(std::int32_t scale) const;
  std::int64_t value() const { return scaled_value(0); }
  std::int64_t milli_value() const { return scaled_value(-3); }
  // The value when it is a whole number that fits an int64 (AsInt64).
  std::optional<std::int64_t> as_int64() const;

  // -1, 0 or 1 comparing values (formats do not matter).
  int cmp(const Quantity& y) const;
  // Upstream's Add/Sub: exact; a zero receiver takes the format of `y`.
  void add(const Quantity& y);
  void sub(const Quantity& y);
  void neg();

  // The canonical text (String()): e.g. "1.5" -> "1500m", "1024Ki" -> "1Mi",
  // "0.5Gi" -> "512Mi", "100M" -> "100M". Text that was already canonical when
  // parsed is returned verbatim, as upstream does.
  std::string to_string() const;

  // JSON: a string (surrounding spaces ignored), a number, or null (zero).
  static Result<Quantity> from_json(const json::value& v);
  json::value to_json() const { return json::string(to_string()); }

  friend bool operator==(const Quantity& a, const Quantity& b) { return a.cmp(b) == 0; }
  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) {
    return a.cmp(b) <=> 0;
  }
  friend Quantity operator+(Quantity a, const Quantity& b) {
    a.add(b);
    return a;
  }
  friend Quantity operator-(Quantity a, const Quantity& b) {
    a.sub(b);
    return a;
  }

 private:
  struct Big;  // a mantissa that does not fit int64
  friend struct QuantityAccess;

  // value = mantissa * 10^exponent; the mantissa lives in big_ when set.
  std::int64_t mantissa_ = 0;
  std::int64_t exponent_ = 0;
  std::unique_ptr<Big> big_;
  Format format_ = Format::kDecimalExponent;
  // Upstream's cached string: the parsed text when it was already canonical.
  std::string cached_;
};

}  // namespace kcm::api
