// kubectl's JSONPath dialect (client-go util/jsonpath), the subset API
// objects are addressed with in CRD printer columns and scale subresources:
// `.spec.replicas`, `.items[0].name`, `.list[*].name`, `['dotted.key']`,
// `[1:3]`, and filters `[?(@.type=="Ready")]` (==, !=, <, >, <=, >= against a
// string, number or boolean, or `[?(@.field)]` for presence). The expression
// may be wrapped in one `{...}`, as kubectl templates are.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json.h"
#include "api/result.h"

namespace kcm::api {

class JsonPath {
 public:
  // Errors name the position: `unrecognized character in action: U+0021 '!' at 4`.
  static Result<JsonPath> parse(std::string_view expression);

  // Every value the path selects, in document order; missing keys select
  // nothing (upstream AllowMissingKeys(true)).
  std::vector<const json::value*> find(const json::value& root) const;

  const std::string& expression() const { return expression_; }

  struct Filter;
  struct Step {
    enum class Kind { kField, kIndex, kSlice, kWildcard, kFilter } kind = Kind::kField;
    std::string field;
    long long index = 0;                  // kIndex; negative counts from the end
    std::optional<long long> start, end;  // kSlice
    std::vector<Step> filter_path;        // kFilter: the path after '@'
    std::string op;                       // kFilter: "" (presence) or a comparison
    json::value operand;                  // kFilter: the literal compared with
  };

 private:
  std::string expression_;
  std::vector<Step> steps_;
};

// How kubectl prints one selected value: strings as they are, everything
// else as JSON (numbers as Go prints them: 3, 1.5).
std::string json_path_text(const json::value& v);

}  // namespace kcm::api
