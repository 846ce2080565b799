// Fuzzes server-side apply. Input: JSON lines: a FieldsV1 set, a live
// Deployment, an applied configuration and, optionally, a CRD's
// openAPIV3Schema, which the live object and the configuration are then
// applied under too. Checks that nothing crashes, that a FieldsV1 set reads
// back from what it writes, that an apply's result carries managed fields
// that decode, with no conflicts when forced, and that those entries go
// through the scale subresource's translation.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/json.h"
#include "api/schema/canonical.h"
#include "api/schema/registry.h"
#include "local/crd/structural_schema.h"
#include "local/fieldmanager/field_manager.h"
#include "local/fieldmanager/scale_fields.h"

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

void exercise(const fm::FieldManager& m, const json::object& live, const json::object& config) {
  const fm::Path replicas{fm::PathElement::field("spec"), fm::PathElement::field("replicas")};
  const fm::ReplicasPaths paths{{"apps/v1", replicas}, {"x.dev/v1", replicas}};
  for (bool force : {false, true}) {
    auto applied = m.apply(live, config, "fuzz", force, "2026-12-04T00:00:00Z");
    if (!applied) {
      check(!force || applied.error().code != fm::ApplyFailure::kConflict,
            "a forced apply has no conflicts");
      continue;
    }
    auto entries = fm::decode_managed_fields(*applied);
    check(entries.ok(), "managed fields decode");
    // A Scale write that changes nothing moves the replicas between entries
    // at most: every field stays owned, and nothing is added.
    fm::FieldSet before;
    for (fm::ManagerEntry e : *entries) {
      fm::load_fields(e);
      if (paths.contains(e.api_version)) before = before.union_with(e.fields);
    }
    fm::FieldSet after;
    const auto scale = fm::scale_entries(*entries, paths);
    for (const fm::ManagerEntry& e : fm::parent_entries(*entries, scale, "apps/v1", paths)) {
      after = after.union_with(e.fields);
    }
    check(after == before, "a Scale write that changes nothing keeps every owned field");
    // An update on top must not crash (it may fail on what the apply kept).
    json::object updated = *applied;
    static_cast<void>(m.update(*applied, updated, "fuzz-update", "t"));
  }
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
  exercise(manager(), live->get_object(), config->get_object());
  auto openapi = kcm::api::parse_json(next_line(rest), &error);
  if (!openapi) return 0;
  auto schema = kcm::local::crd::parse_structural_schema(*openapi);
  if (!schema) return 0;
  const fm::FieldManager typed(fm::TypeRef::of(**schema), json::object(), "x.dev/v1", "",
                               fm::FieldSet{}, *schema);
  exercise(typed, live->get_object(), config->get_object());
  return 0;
}
