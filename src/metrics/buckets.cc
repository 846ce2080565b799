#include "metrics/buckets.h"

namespace kcm::metrics {

const std::vector<double>& default_buckets() {
  static const std::vector<double> buckets = {.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10};
  return buckets;
}

Result<std::vector<double>> exponential_buckets(double start, double factor, int count) {
  if (count < 1) return fail("ExponentialBuckets needs a positive count");
  if (!(start > 0)) return fail("ExponentialBuckets needs a positive start value");
  if (!(factor > 1)) return fail("ExponentialBuckets needs a factor greater than 1");
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    out.push_back(start);
    start *= factor;
  }
  return out;
}

Result<std::vector<double>> linear_buckets(double start, double width, int count) {
  if (count < 1) return fail("LinearBuckets needs a positive count");
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    out.push_back(start);
    start += width;
  }
  return out;
}

}  // namespace kcm::metrics
