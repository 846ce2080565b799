// Fuzzes the JSON patch engine. Input: a target document, a newline, then
// the patch body. Checks that nothing crashes, that the target is untouched,
// that errors have the right kind, and that results can be read back.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/patch/json_patch.h"

namespace {

namespace json = kcm::api::json;
using kcm::api::JsonPatch;
using kcm::api::JsonPatchErrorKind;

void check(bool ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "invariant failed: %s\n", what);
    abort();
  }
}

bool reparses(const json::value& v) {
  return kcm::api::parse_json(kcm::api::to_json_string(v), nullptr).has_value();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  if (newline == std::string_view::npos) return 0;
  std::optional<json::value> target = kcm::api::parse_json(input.substr(0, newline), nullptr);
  if (!target) return 0;
  // Boost.JSON reads 1e999 as infinity and writes it back as `Infinity`:
  // such input cannot survive storage anyway (an api/json concern), skip it.
  if (!reparses(*target)) return 0;

  auto patch = JsonPatch::parse(input.substr(newline + 1));
  if (!patch) {
    check(patch.error().kind == JsonPatchErrorKind::kBadRequest, "decode error is not 400");
    check(!patch.error().message.empty(), "empty decode error");
    return 0;
  }
  if (patch->size() > kcm::api::kMaxJsonPatchOperations) return 0;
  if (!reparses(*kcm::api::parse_json(input.substr(newline + 1), nullptr))) return 0;

  const std::string before = kcm::api::to_json_string(*target);
  kcm::api::JsonPatchOptions options;
  options.max_copy_bytes = 1 << 20;  // keep copy amplification cheap for the fuzzer
  auto result = patch->apply(*target, options);
  check(kcm::api::to_json_string(*target) == before, "apply changed its target");
  if (!result) {
    check(result.error().kind == JsonPatchErrorKind::kCannotApply, "apply error is not 422");
    check(!result.error().message.empty(), "empty apply error");
    return 0;
  }
  check(result->is_object() || result->is_array(), "result is not a container");
  check(reparses(*result), "result does not parse back");

  // The result tests equal to itself, as a whole. (Not to its re-parsed text:
  // Boost.JSON 1.81 reads integers beyond 64 bits imprecisely.)
  json::object op;
  op.emplace("op", "test");
  op.emplace("path", "");
  op.emplace("value", *result);
  json::array ops;
  ops.push_back(std::move(op));
  auto self_test = JsonPatch::from_json(ops);
  check(self_test.ok(), "a test patch does not decode");
  check(self_test->apply(*result).ok(), "result does not test equal to itself");
  return 0;
}
