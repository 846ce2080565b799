// Fuzzes server-side apply. Input: three JSON lines: a FieldsV1 set, a live
// Deployment and an applied configuration. Checks that nothing crashes, that
// a FieldsV1 set reads back from what it writes, and that an apply's result
// carries managed fields that decode, with no conflicts when forced.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/schema/canonical.h"
#include "api/schema/registry.h"
#include "local/fieldmanager/field_manager.h"

namespace {

namespace json = kcm::api::json;
namespace fm = kcm::local::fieldmanager;

void check(bool ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "invariant failed: %s\n", what);
    abort();
  }
}

std::string_view next_line(std::string_view& rest) {
  const auto nl = rest.find('\n');
  std::string_view line = rest.substr(0, nl);
  rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
  return line;
}

const fm::FieldManager& manager() {
  static const fm::FieldManager m = [] {
    const auto& type = *kcm::api::schema::Registry::builtin().root({"apps", "v1", "Deployment"});
    json::value zero = json::object();
    kcm::api::schema::canonicalize(zero, type);
    fm::FieldSet status;
    status.insert({fm::PathElement::field("status")});
    return fm::FieldManager(fm::TypeRef::of(type), zero.get_object(), "apps/v1", "", status);
  }();
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (auto v = kcm::api::parse_json(next_line(rest), &error)) {
    if (auto set = fm::FieldSet::from_fields_v1(*v)) {
      auto again = fm::FieldSet::from_fields_v1(set->to_fields_v1());
      check(again.ok(), "a written set reads back");
      check(*again == *set, "a set survives writing and reading");
    }
  }
  auto live = kcm::api::parse_json(next_line(rest), &error);
  auto config = kcm::api::parse_json(next_line(rest), &error);
  if (!live || !config || !live->is_object() || !config->is_object()) return 0;
  for (bool force : {false, true}) {
    auto applied = manager().apply(live->get_object(), config->get_object(), "fuzz", force,
                                   "2026-12-04T00:00:00Z");
    if (!applied) {
      check(!force || applied.error().code != fm::ApplyFailure::kConflict,
            "a forced apply has no conflicts");
      continue;
    }
    check(fm::decode_managed_fields(*applied).ok(), "managed fields decode");
    // An update on top must not crash (it may fail on what the apply kept).
    json::object updated = *applied;
    static_cast<void>(manager().update(*applied, updated, "fuzz-update", "t"));
  }
  return 0;
}
