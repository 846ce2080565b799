// encoding/json's Marshal applied to a JSON value, for answers that must read
// byte for byte as a Go component writes them: compact, object members in
// their order, strings escaped as Go escapes them (<, >, & and U+2028/U+2029
// as \u escapes, invalid UTF-8 as U+FFFD), numbers as Go formats float64
// (shortest form, exponent only below 1e-6 or from 1e21 on).
#pragma once

#include <string>

#include "api/json.h"
#include "api/result.h"

namespace kcm::api {

// An error only for NaN and infinities, as Go's: "json: unsupported value: NaN".
Result<std::string> go_json_marshal(const json::value& v);

// A float32 field's value as a double that Marshal prints as Go prints the
// float32 (0.1f as "0.1", not "0.10000000149011612").
double float32_for_json(float f);

}  // namespace kcm::api
