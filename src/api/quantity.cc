#include "api/quantity.h"

#include <boost/multiprecision/cpp_int.hpp>
#include <charconv>
#include <limits>

#include "api/ascii.h"
#include "api/go_strings.h"

namespace kcm::api {

using BigInt = boost::multiprecision::cpp_int;

struct Quantity::Big {
  BigInt v;
};

namespace {

constexpr std::string_view kErrFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kErrNumeric = "unable to parse numeric part of quantity";
constexpr std::string_view kErrSuffix = "unable to parse quantity's suffix";

constexpr std::int64_t kNanoExponent = -9;
// Additions whose operands are further apart than this many decimal orders
// are not materialised exactly (see Quantity::add); nothing real comes close.
constexpr std::int64_t kMaxAlignDigits = 10000;

constexpr std::int64_t kPow10[] = {1,
                                   10,
                                   100,
                                   1000,
                                   10000,
                                   100000,
                                   1000000,
                                   10000000,
                                   100000000,
                                   1000000000,
                                   10000000000,
                                   100000000000,
                                   1000000000000,
                                   10000000000000,
                                   100000000000000,
                                   1000000000000000,
                                   10000000000000000,
                                   100000000000000000,
                                   1000000000000000000};

BigInt pow10(std::int64_t n) {
  return boost::multiprecision::pow(BigInt(10), static_cast<unsigned>(n));
}

// Decimal digits of |m|; 0 for 0.
std::int64_t digit_count(const BigInt& m) {
  if (m == 0) return 0;
  const std::string s = BigInt(abs(m)).str();
  return static_cast<std::int64_t>(s.size());
}

bool fits_int64(const BigInt& m) {
  return m >= std::numeric_limits<std::int64_t>::min() &&
         m <= std::numeric_limits<std::int64_t>::max();
}

// Builds the integer written by a run of decimal digits, 18 at a time.
BigInt digits_to_big(std::string_view digits) {
  BigInt m = 0;
  while (!digits.empty()) {
    const std::size_t n = std::min<std::size_t>(18, digits.size());
    std::int64_t chunk = 0;
    for (std::size_t i = 0; i < n; ++i)
      chunk = chunk * 10 + (digits[i] - '0');
    m = m * kPow10[n] + chunk;
    digits.remove_prefix(n);
  }
  return m;
}

// The pieces of parseQuantityString, upstream's hand-written scanner.
struct Parts {
  bool positive = true;
  std::string_view value;  // sign and number as written
  std::string_view num;    // integer digits without leading zeros ("0" if none)
  std::string_view denom;  // fraction digits
  std::string_view suffix;
};

bool split_quantity(std::string_view str, Parts& p) {
  std::size_t pos = 0;
  const std::size_t end = str.size();
  if (pos < end) {
    if (str[0] == '-') {
      p.positive = false;
      ++pos;
    } else if (str[0] == '+') {
      ++pos;
    }
  }
  // Leading zeros; a string of only zeros is zero.
  for (std::size_t i = pos;; ++i) {
    if (i >= end) {
      p.num = "0";
      p.value = p.num;
      return true;
    }
    if (str[i] != '0') break;
    ++pos;
  }
  for (std::size_t i = pos;; ++i) {
    if (i >= end) {
      p.num = str.substr(pos);
      p.value = str;
      return true;
    }
    if (!is_ascii_digit(str[i])) {
      p.num = str.substr(pos, i - pos);
      pos = i;
      break;
    }
  }
  if (p.num.empty()) p.num = "0";
  if (pos < end && str[pos] == '.') {
    ++pos;
    for (std::size_t i = pos;; ++i) {
      if (i >= end) {
        p.denom = str.substr(pos);
        p.value = str;
        return true;
      }
      if (!is_ascii_digit(str[i])) {
        p.denom = str.substr(pos, i - pos);
        pos = i;
        break;
      }
    }
  }
  p.value = str.substr(0, pos);

  const std::size_t suffix_start = pos;
  constexpr std::string_view kSuffixChars = "eEinumkKMGTP";
  for (std::size_t i = pos;; ++i) {
    if (i >= end) {
      p.suffix = str.substr(suffix_start);
      return true;
    }
    if (kSuffixChars.find(str[i]) == std::string_view::npos) {
      pos = i;
      break;
    }
  }
  if (pos < end && (str[pos] == '-' || str[pos] == '+')) ++pos;
  for (std::size_t i = pos;; ++i) {
    if (i >= end) {
      p.suffix = str.substr(suffix_start);
      return true;
    }
    if (!is_ascii_digit(str[i])) break;
  }
  // A character after the exponent digits: not a quantity.
  return false;
}

struct Suffix {
  int base = 10;
  std::int64_t exponent = 0;
  Quantity::Format format = Quantity::Format::kDecimalSI;
};

struct SuffixEntry {
  std::string_view text;
  int base;
  int exponent;
};

constexpr SuffixEntry kDecimalSuffixes[] = {
    {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"", 10, 0},   {"k", 10, 3},
    {"M", 10, 6},  {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18},
};
constexpr SuffixEntry kBinarySuffixes[] = {
    {"Ki", 2, 10}, {"Mi", 2, 20}, {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50}, {"Ei", 2, 60},
};

bool interpret_suffix(std::string_view s, Suffix& out) {
  for (const SuffixEntry& e : kDecimalSuffixes) {
    if (e.text == s) {
      out = {e.base, e.exponent, Quantity::Format::kDecimalSI};
      return true;
    }
  }
  for (const SuffixEntry& e : kBinarySuffixes) {
    if (e.text == s) {
      out = {e.base, e.exponent, Quantity::Format::kBinarySI};
      return true;
    }
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    // strconv.ParseInt(s[1:], 10, 64), then int32(...) as upstream does.
    std::string_view rest = s.substr(1);
    bool neg = false;
    if (rest[0] == '+' || rest[0] == '-') {
      neg = rest[0] == '-';
      rest.remove_prefix(1);
    }
    if (rest.empty()) return false;
    std::uint64_t n = 0;
    for (const char c : rest) {
      if (!is_ascii_digit(c)) return false;
      if (n > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) return false;
      n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (neg ? n > (std::uint64_t{1} << 63) : n > (std::uint64_t{1} << 63) - 1) return false;
    const std::uint64_t bits = neg ? ~n + 1 : n;
    out = {10, static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)),
           Quantity::Format::kDecimalExponent};
    return true;
  }
  return false;
}

// Rounds |m| * 10^e (m >= 0) away from zero to a multiple of 10^target when
// e < target, as inf.Dec.Round(..., inf.RoundUp) does.
void round_up_to_exponent(BigInt& m, std::int64_t& e, std::int64_t target) {
  if (m == 0 || e >= target) return;
  const std::int64_t shift = target - e;
  if (shift > digit_count(m)) {
    m = 1;
  } else {
    BigInt q;
    BigInt r;
    boost::multiprecision::divide_qr(m, pow10(shift), q, r);
    m = r == 0 ? q : q + 1;
  }
  e = target;
}

// Moves factors of ten into the exponent, then lowers the exponent to a
// multiple of three (upstream's AsCanonicalBytes).
void canonical_base10(BigInt& m, std::int64_t& e) {
  while (m % 10 == 0) {
    m /= 10;
    ++e;
  }
  while (e % 3 != 0) {
    m *= 10;
    --e;
  }
}

std::string_view decimal_suffix(std::int64_t e, bool& found) {
  for (const SuffixEntry& s : kDecimalSuffixes) {
    if (s.exponent == e) {
      found = true;
      return s.text;
    }
  }
  found = false;
  return {};
}

std::string exponent_suffix(std::int64_t e) {
  return e == 0 ? "" : "e" + std::to_string(e);
}

}  // namespace

// Internal access to the representation for the helpers above.
struct QuantityAccess {
  static BigInt mantissa(const Quantity& q) { return q.big_ ? q.big_->v : BigInt(q.mantissa_); }

  static void set(Quantity& q, BigInt m, std::int64_t exponent) {
    if (fits_int64(m)) {
      q.mantissa_ = m.convert_to<std::int64_t>();
      q.big_.reset();
    } else {
      q.mantissa_ = 0;
      q.big_ = std::make_unique<Quantity::Big>(Quantity::Big{std::move(m)});
    }
    q.exponent_ = exponent;
  }

  static std::int64_t exponent(const Quantity& q) { return q.exponent_; }
  static bool is_big(const Quantity& q) { return q.big_ != nullptr; }
  static std::int64_t small(const Quantity& q) { return q.mantissa_; }
  static void set_format(Quantity& q, Quantity::Format f) { q.format_ = f; }
  static void set_cached(Quantity& q, std::string_view s) { q.cached_ = std::string(s); }
};

Quantity::Quantity() = default;
Quantity::~Quantity() = default;
Quantity::Quantity(Quantity&&) noexcept = default;
Quantity& Quantity::operator=(Quantity&&) noexcept = default;

Quantity::Quantity(const Quantity& other)
    : mantissa_(other.mantissa_),
      exponent_(other.exponent_),
      big_(other.big_ ? std::make_unique<Big>(*other.big_) : nullptr),
      format_(other.format_),
      cached_(other.cached_) {}

Quantity& Quantity::operator=(const Quantity& other) {
  if (this != &other) {
    Quantity copy(other);
    *this = std::move(copy);
  }
  return *this;
}

Result<Quantity> Quantity::parse(std::string_view str) {
  if (str.empty()) return fail(std::string(kErrFormatWrong));
  Quantity q;
  if (str == "0") {
    q.format_ = Format::kDecimalSI;
    q.cached_ = "0";
    return q;
  }
  Parts p;
  if (!split_quantity(str, p)) return fail(std::string(kErrFormatWrong));
  Suffix sfx;
  if (!interpret_suffix(p.suffix, sfx)) return fail(std::string(kErrSuffix));
  q.format_ = sfx.format;

  // Fast path: few enough digits for an int64 (upstream's precision estimate
  // decides, and only this path reuses already-canonical input text).
  std::int64_t precision = 0;
  std::int64_t scale = 0;
  std::int64_t multiplier = 1;
  const auto num_len = static_cast<std::int64_t>(p.num.size());
  const auto denom_len = static_cast<std::int64_t>(p.denom.size());
  if (sfx.format == Format::kBinarySI) {
    if (sfx.exponent >= 0 && p.denom.empty()) {
      multiplier = std::int64_t{1} << sfx.exponent;
      precision = 15 - num_len - sfx.exponent * 3 / 10 - 1;
    } else {
      precision = -1;
    }
  } else {
    scale = sfx.exponent;
    precision = 18 - (num_len + denom_len);
  }
  if (precision >= 0) {
    scale -= denom_len;
    if (scale >= kNanoExponent) {
      std::int64_t value = 0;
      for (const char c : p.num)
        value = value * 10 + (c - '0');
      for (const char c : p.denom)
        value = value * 10 + (c - '0');
      std::int64_t result = 0;
      if (!__builtin_mul_overflow(value, multiplier, &result)) {
        if (!p.positive) result = -result;
        q.mantissa_ = result;
        q.exponent_ = scale;
        bool canonical = false;
        if (sfx.format == Format::kBinarySI) {
          canonical = sfx.exponent % 10 == 0 && (value & 0x07) != 0;
        } else {
          const std::string shifted = std::string(p.num) + std::string(p.denom);
          canonical = scale % 3 == 0 && !shifted.ends_with("000") && shifted[0] != '0';
        }
        if (canonical) q.cached_ = std::string(str);
        return q;
      }
    }
  }

  // Exact decimal path (upstream's inf.Dec).
  bool has_digit = false;
  for (const char c : p.value)
    has_digit = has_digit || is_ascii_digit(c);
  if (!has_digit) return fail(std::string(kErrNumeric));
  BigInt m = digits_to_big(std::string(p.num) + std::string(p.denom));
  std::int64_t e = -denom_len;
  if (sfx.base == 10) {
    e += sfx.exponent;
  } else {
    m <<= static_cast<unsigned>(sfx.exponent);
  }
  // Non-zero values round up (away from zero) to whole nano units, so asking
  // for a tiny amount still gets some.
  round_up_to_exponent(m, e, kNanoExponent);
  if (sfx.format == Format::kBinarySI) {
    // e <= 0 here: the binary suffixes carry no decimal exponent.
    const BigInt max_allowed = BigInt(std::numeric_limits<std::int64_t>::max()) * pow10(-e);
    if (m > max_allowed) {
      m = std::numeric_limits<std::int64_t>::max();
      e = 0;
    }
    if (m != 0 && m < pow10(-e)) q.format_ = Format::kDecimalSI;
  }
  if (!p.positive) m = -m;
  QuantityAccess::set(q, std::move(m), e);
  return q;
}

Quantity Quantity::from_int(std::int64_t value, Format format) {
  Quantity q;
  q.mantissa_ = value;
  q.format_ = format;
  return q;
}

Quantity Quantity::from_milli(std::int64_t value, Format format) {
  Quantity q = from_int(value, format);
  q.exponent_ = -3;
  return q;
}

Quantity Quantity::from_scaled(std::int64_t value, std::int32_t scale) {
  Quantity q = from_int(value, Format::kDecimalSI);
  q.exponent_ = scale;
  return q;
}

bool Quantity::is_zero() const {
  return big_ == nullptr && mantissa_ == 0;
}

int Quantity::sign() const {
  if (big_) return big_->v < 0 ? -1 : 1;
  return mantissa_ < 0 ? -1 : mantissa_ > 0 ? 1 : 0;
}

std::int64_t Quantity::scaled_value(std::int32_t scale) const {
  if (is_zero()) return 0;
  const std::int64_t delta = exponent_ - scale;
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  if (!big_ && delta >= 0 && delta <= 18) {
    std::int64_t out = 0;
    if (!__builtin_mul_overflow(mantissa_, kPow10[delta], &out)) return out;
    return mantissa_ < 0 ? kMin : kMax;
  }
  if (!big_ && delta < 0 && delta >= -18) {
    const std::int64_t div = kPow10[-delta];
    std::int64_t q = mantissa_ / div;
    if (mantissa_ % div != 0) q += mantissa_ < 0 ? -1 : 1;  // away from zero
    return q;
  }
  BigInt m = QuantityAccess::mantissa(*this);
  const bool neg = m < 0;
  if (neg) m = -m;
  if (delta >= 0) {
    if (delta >= 19) return neg ? kMin : kMax;
    m *= pow10(delta);
  } else {
    std::int64_t e = delta;
    round_up_to_exponent(m, e, 0);
  }
  if (neg) {
    m = -m;
    return m < kMin ? kMin : m.convert_to<std::int64_t>();
  }
  return m > kMax ? kMax : m.convert_to<std::int64_t>();
}

std::optional<std::int64_t> Quantity::as_int64() const {
  BigInt m = QuantityAccess::mantissa(*this);
  if (m == 0) return 0;
  if (exponent_ >= 0) {
    if (exponent_ > 19) return std::nullopt;
    m *= pow10(exponent_);
  } else {
    if (-exponent_ > digit_count(m)) return std::nullopt;
    BigInt q;
    BigInt r;
    boost::multiprecision::divide_qr(m, pow10(-exponent_), q, r);
    if (r != 0) return std::nullopt;
    m = std::move(q);
  }
  if (!fits_int64(m)) return std::nullopt;
  return m.convert_to<std::int64_t>();
}

int Quantity::cmp(const Quantity& y) const {
  const int sa = sign();
  const int sb = y.sign();
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  if (!big_ && !y.big_) {
    // Common case: align in int64 when the scaled mantissa still fits.
    std::int64_t a = mantissa_;
    std::int64_t b = y.mantissa_;
    const std::int64_t gap = exponent_ - y.exponent_;
    bool ok = gap >= -18 && gap <= 18;
    if (ok && gap > 0) ok = !__builtin_mul_overflow(a, kPow10[gap], &a);
    if (ok && gap < 0) ok = !__builtin_mul_overflow(b, kPow10[-gap], &b);
    if (ok) return a < b ? -1 : a > b ? 1 : 0;
  }
  // Same sign: compare magnitudes by their decimal order first, so that
  // far-apart exponents never need aligning.
  BigInt a = abs(QuantityAccess::mantissa(*this));
  BigInt b = abs(QuantityAccess::mantissa(y));
  const std::int64_t order_a = digit_count(a) + exponent_;
  const std::int64_t order_b = digit_count(b) + y.exponent_;
  int mag = 0;
  if (order_a != order_b) {
    mag = order_a < order_b ? -1 : 1;
  } else {
    const std::int64_t e = std::min(exponent_, y.exponent_);
    a *= pow10(exponent_ - e);
    b *= pow10(y.exponent_ - e);
    mag = a < b ? -1 : a > b ? 1 : 0;
  }
  return sa * mag;
}

void Quantity::add(const Quantity& y) {
  cached_.clear();
  if (is_zero()) format_ = y.format_;
  if (y.is_zero()) return;
  if (is_zero()) {
    mantissa_ = y.mantissa_;
    exponent_ = y.exponent_;
    big_ = y.big_ ? std::make_unique<Big>(*y.big_) : nullptr;
    return;
  }
  if (!big_ && !y.big_ && exponent_ == y.exponent_) {
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(mantissa_, y.mantissa_, &sum)) {
      mantissa_ = sum;
      return;
    }
  }
  BigInt a = QuantityAccess::mantissa(*this);
  BigInt b = QuantityAccess::mantissa(y);
  const std::int64_t gap =
      exponent_ > y.exponent_ ? exponent_ - y.exponent_ : y.exponent_ - exponent_;
  if (gap > kMaxAlignDigits) {
    // Aligning would need a number with more digits than any real quantity;
    // keep the operand of larger magnitude.
    const std::int64_t order_a = digit_count(a) + exponent_;
    const std::int64_t order_b = digit_count(b) + y.exponent_;
    if (order_b > order_a) QuantityAccess::set(*this, std::move(b), y.exponent_);
    return;
  }
  const std::int64_t e = std::min(exponent_, y.exponent_);
  BigInt sum = a * pow10(exponent_ - e) + b * pow10(y.exponent_ - e);
  QuantityAccess::set(*this, std::move(sum), e);
}

void Quantity::sub(const Quantity& y) {
  Quantity negated = y;
  negated.neg();
  add(negated);
}

void Quantity::neg() {
  cached_.clear();
  if (!big_ && mantissa_ != std::numeric_limits<std::int64_t>::min()) {
    mantissa_ = -mantissa_;
    return;
  }
  QuantityAccess::set(*this, -QuantityAccess::mantissa(*this), exponent_);
}

std::string Quantity::to_string() const {
  if (!cached_.empty()) return cached_;
  if (is_zero()) return "0";

  Format format = format_;
  if (format == Format::kBinarySI) {
    // Small or fractional binary values print as decimal SI rather than
    // rounding (upstream: "This avoids rounding and hopefully confusion").
    if (cmp(from_int(-1024, format)) > 0 && cmp(from_int(1024, format)) < 0) {
      format = Format::kDecimalSI;
    } else if (exponent_ > kMaxAlignDigits) {
      format = Format::kDecimalSI;
    } else {
      BigInt n = QuantityAccess::mantissa(*this);
      bool exact = true;
      if (exponent_ >= 0) {
        n *= pow10(exponent_);
      } else {
        BigInt q;
        BigInt r;
        boost::multiprecision::divide_qr(n, pow10(-exponent_), q, r);
        exact = r == 0;
        n = std::move(q);
      }
      if (!exact) {
        format = Format::kDecimalSI;
      } else {
        int times = 0;
        while (n % 1024 == 0 && times <= 6) {
          n /= 1024;
          ++times;
        }
        if (times <= 6) {
          static constexpr std::string_view kBin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
          return n.str() + std::string(kBin[times]);
        }
        // Beyond Ei there is no binary suffix: fall back to decimal SI.
        format = Format::kDecimalSI;
      }
    }
  }

  std::string number;
  std::int64_t e = exponent_;
  if (!big_) {
    std::int64_t m = mantissa_;
    while (m % 10 == 0) {
      m /= 10;
      ++e;
    }
    bool ok = true;
    while (ok && e % 3 != 0) {
      ok = !__builtin_mul_overflow(m, 10, &m);
      --e;
    }
    if (ok) {
      number = std::to_string(m);
    } else {
      e = exponent_;
    }
  }
  if (number.empty()) {
    BigInt m = QuantityAccess::mantissa(*this);
    canonical_base10(m, e);
    number = m.str();
  }
  if (format == Format::kDecimalSI) {
    bool found = false;
    const std::string_view sfx = decimal_suffix(e, found);
    // Outside n..E upstream now writes the exponent (kubernetes#140459)
    // instead of silently dropping it.
    return number + (found ? std::string(sfx) : exponent_suffix(e));
  }
  return number + exponent_suffix(e);
}

Result<Quantity> Quantity::from_json(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return Quantity();
    case json::kind::string: {
      const json::string& s = v.get_string();
      return parse(trim_space(std::string_view(s.data(), s.size())));
    }
    case json::kind::int64:
      return parse(std::to_string(v.get_int64()));
    case json::kind::uint64:
      return parse(std::to_string(v.get_uint64()));
    case json::kind::double_: {
      // The literal text is gone once parsed; the shortest text that reads
      // back as the same double stands in for it.
      char buf[64];
      const auto r = std::to_chars(buf, buf + sizeof(buf), v.get_double());
      return parse(std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
    }
    default:
      return fail(std::string(kErrFormatWrong));
  }
}

}  // namespace kcm::api
