// A metric family's identity: its full name, HELP text and label names,
// checked the way client_golang checks a Desc.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "metrics/opts.h"

namespace kcm::metrics {

struct Desc {
  std::string name;
  std::string help;  // with its stability prefix
  std::vector<std::string> label_names;
};

// Builds and validates a Desc. Errors, with client_golang's messages:
//   "\"0bad\" is not a valid metric name"
//   "\"__x\" is not a valid label name for metric \"foo\""
//   "duplicate label names in constant and variable labels for metric \"foo\""
Result<Desc> make_desc(const Opts& opts, std::vector<std::string> label_names);

// Checks label values against a Desc: their count and UTF-8 validity.
//   "inconsistent label cardinality: expected 1 label values but got 2 in []string{\"a\", \"b\"}"
//   "label value \"\\xff\" is not valid UTF-8"
Result<void> check_label_values(const Desc& desc, const std::vector<std::string>& values);

}  // namespace kcm::metrics
