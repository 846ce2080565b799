// An HTTP Accept header split into clauses the way upstream's apiserver reads
// it (goautoneg.ParseAccept), quirks included, so that kcm-local picks the
// same media type as kube-apiserver for the same header (resources and
// /openapi/v2 alike).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kcm::api {

struct AcceptClause {
  std::string type;     // "application", or "*"
  std::string subtype;  // "json", or "*"
  float q = 1;          // Go parses q as a float32; unparsable reads as 0
  // The other parameters (as, g, v, stream...), keys and values trimmed of
  // spaces, case kept; a repeated key keeps its last value.
  std::map<std::string, std::string, std::less<>> params;

  std::string_view param(std::string_view key) const {
    auto it = params.find(key);
    return it == params.end() ? std::string_view() : std::string_view(it->second);
  }
};

// The clauses in preference order: higher q first, then concrete types and
// subtypes before wildcards, as goautoneg's (not strictly weak) ordering sorts
// them with Go's insertion sort. Clauses without exactly one "/" (other than a
// bare "*") are dropped. Matching stays case-sensitive, as upstream.
std::vector<AcceptClause> parse_accept(std::string_view header);

}  // namespace kcm::api
