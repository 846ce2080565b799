// JSON as it was written: object members in order with duplicate keys kept
// and numbers as their literal text. Go's decoder reports duplicates and
// quotes number literals ("number 1.5"), which a parsed json::value cannot
// reproduce exactly.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"

namespace kcm::api::schema {

struct RawMember;

struct RawValue {
  enum class Kind : unsigned char { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  // kNumber: the literal ("1.50", "-3e2"); kString: the decoded text.
  std::string text;
  std::vector<RawValue> items;     // kArray
  std::vector<RawMember> members;  // kObject, in order, duplicates kept
};

struct RawMember {
  std::string key;
  RawValue value;
};

// Parses RFC 8259 JSON (one value, surrounding whitespace allowed). Nesting
// deeper than 10000 levels is refused rather than overflowing the stack.
Result<RawValue> parse_raw_json(std::string_view text);

// The same shape built from a parsed value (duplicates already collapsed;
// numbers printed in their shortest form).
RawValue to_raw(const json::value& v);

}  // namespace kcm::api::schema
