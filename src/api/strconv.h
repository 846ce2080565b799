// Go's strconv parsers for the values users type (flags, feature gates),
// with Go's error texts: `strconv.ParseInt: parsing "x": invalid syntax`.
#pragma once

#include <cstdint>
#include <string_view>

#include "api/result.h"

namespace kcm::api {

// strconv.ParseBool: 1, t, T, TRUE, true, True and their false counterparts.
Result<bool> parse_go_bool(std::string_view s);
// strconv.ParseInt(s, 0, bits): a sign, a base prefix (0x, 0o, 0b, or a
// leading 0 for octal), underscores between digits after a prefix.
Result<std::int64_t> parse_go_int(std::string_view s, int bits);
// strconv.ParseInt(s, base, bits) for base 0 (as above) or 10 (digits only,
// after an optional sign).
Result<std::int64_t> parse_go_int(std::string_view s, int base, int bits);
// strconv.ParseFloat(s, bits); bits 32 refuses what a float32 cannot hold.
Result<double> parse_go_float(std::string_view s, int bits);

}  // namespace kcm::api
