// The Prometheus text exposition format (version 0.0.4) as Go's expfmt writes
// it, so that kcm's /metrics reads like a Go component's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "metrics/snapshot.h"

namespace kcm::metrics {

inline constexpr std::string_view kTextContentType = "text/plain; version=0.0.4; charset=utf-8";

// A sample value or `le` bound as expfmt writes it: "0", "1", "-1", "NaN",
// "+Inf", "-Inf", else strconv.FormatFloat(v, 'g', -1, 64): the shortest text
// that reads back as v, in exponent form when the decimal exponent is below -4
// or at least 6 ("1e-05", "9.999999999999999e-06", "0.001", "123456",
// "1.234567e+06").
std::string format_value(double v);

// HELP text: backslash and newline escaped.
std::string escape_help(std::string_view help);

// A label value: backslash, double quote and newline escaped.
std::string escape_label_value(std::string_view value);

// Families in the order given (the registry sorts them); families without
// metrics are skipped, as client_golang's Gather drops them.
std::string render_text(const std::vector<FamilySnapshot>& families);

}  // namespace kcm::metrics
