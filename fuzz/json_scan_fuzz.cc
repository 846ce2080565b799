// api::scan_strings (api/json_scan.h) against the document parse_json
// builds: for any text, both refuse it with the same message, or the scanned
// members are what the document holds at their paths.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/json_scan.h"

namespace {

// One-letter keys, so that random inputs hold them too.
constexpr std::string_view kTop[] = {"k"};
constexpr std::string_view kNested[] = {"m", "n"};
constexpr std::string_view kDeep[] = {"a", "b", "c"};

std::optional<std::string> member_of(const boost::json::value& doc,
                                     std::span<const std::string_view> path) {
  const boost::json::value* v = &doc;
  for (std::string_view key : path) {
    v = v->is_object() ? v->as_object().if_contains(key) : nullptr;
    if (v == nullptr) return std::nullopt;
  }
  if (!v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

// Scans `text` and parses it; traps where the two disagree.
void check(std::string_view text) {
  kcm::api::ScannedString members[] = {{kTop, {}}, {kNested, {}}, {kDeep, {}}};
  std::string scan_error;
  const bool scanned = kcm::api::scan_strings(text, members, &scan_error);
  std::string parse_error;
  const auto doc = kcm::api::parse_json(text, &parse_error);
  if (scanned != doc.has_value()) __builtin_trap();
  if (!scanned) {
    if (scan_error != parse_error) __builtin_trap();
    return;
  }
  for (const kcm::api::ScannedString& m : members) {
    if (m.value != member_of(*doc, m.path)) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check(input);
  // The input also in the members' places (and beside them, under duplicate
  // keys), which random documents seldom reach.
  for (std::string_view frame :
       {R"({"k":@})", R"({"m":{"n":@},"m":@})", R"({"a":{"b":{"c":"x"}},"a":{"b":@}})",
        R"({"a":{"b":{"c":@,"c":@}},"k":"x","m":{"n":"x","n":@}})"}) {
    std::string text;
    for (char c : frame) {
      if (c == '@') {
        text.append(input);
      } else {
        text.push_back(c);
      }
    }
    check(text);
  }
  return 0;
}
