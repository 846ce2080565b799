// Histogram bucket layouts, computed the way client_golang computes them so
// that bucket bounds (and their printed `le` values) match Go's bit for bit.
#pragma once

#include <vector>

#include "api/result.h"

namespace kcm::metrics {

// client_golang's DefBuckets: .005 .01 .025 .05 .1 .25 .5 1 2.5 5 10.
const std::vector<double>& default_buckets();

// count bounds: start, start*factor, start*factor^2, ... (each the previous
// one multiplied, as Go does). Errors for count < 1, start <= 0 or factor <= 1,
// with client_golang's panic messages.
Result<std::vector<double>> exponential_buckets(double start, double factor, int count);

// count bounds: start, start+width, ... Errors for count < 1 (a width <= 0
// is caught when a histogram is registered with the result).
Result<std::vector<double>> linear_buckets(double start, double width, int count);

}  // namespace kcm::metrics
