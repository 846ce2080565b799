// kubectl-style JSONPath (api/json_path.h): any expression parses or fails
// with a message, and evaluating a parsed one on a document never crashes.
// Input: the expression, a NUL byte, then the JSON document.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "api/json.h"
#include "api/json_path.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\0');
  const std::string_view expression = input.substr(0, split);
  auto path = kcm::api::JsonPath::parse(expression);
  if (!path) {
    if (path.error().empty()) __builtin_trap();
    return 0;
  }
  if (split == std::string_view::npos) return 0;
  std::error_code ec;
  const boost::json::value doc = boost::json::parse(input.substr(split + 1), ec);
  if (ec) return 0;
  for (const boost::json::value* v : path->find(doc))
    (void)kcm::api::json_path_text(*v);
  return 0;
}
