// CRD structural schemas on arbitrary bytes: the input is a schema document and
// an object document separated by a NUL byte (without one, the schema document
// is also the object). Invariants: parsing, validation, pruning, defaulting and
// the CRD checks never crash; pruning and defaulting are idempotent.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/json.h"
#include "local/crd/crd_defaults.h"
#include "local/crd/crd_status.h"
#include "local/crd/crd_validation.h"
#include "local/crd/defaulting.h"
#include "local/crd/pruning.h"
#include "local/crd/schema_validation.h"
#include "local/crd/structural_schema.h"

namespace {

namespace json = kcm::api::json;
namespace crd = kcm::local::crd;

[[noreturn]] void fail_invariant(const char* what, std::string_view input) {
  std::fprintf(stderr, "invariant broken: %s (input %zu bytes)\n", what, input.size());
  std::abort();
}

void exercise_object(const crd::Schema& schema, json::value object, std::string_view input) {
  (void)crd::validate_against_schema(schema, object);

  json::value pruned = object;
  (void)crd::prune(pruned, &schema, true);
  json::value again = pruned;
  if (!crd::prune(again, &schema, true).empty() || again != pruned) {
    fail_invariant("pruning is not idempotent", input);
  }

  json::value defaulted = pruned;
  crd::prune_non_nullable_nulls(defaulted, schema);
  crd::apply_defaults(defaulted, schema);
  json::value twice = defaulted;
  crd::apply_defaults(twice, schema);
  if (twice != defaulted) fail_invariant("defaulting is not idempotent", input);
  (void)crd::validate_against_schema(schema, defaulted);

  json::value unrooted = object;
  (void)crd::prune(unrooted, &schema, false);
  json::value no_schema = object;
  (void)crd::prune(no_schema, nullptr, true);
}

void exercise_crd(const json::value& schema) {
  json::object obj{
      {"metadata", json::object{{"name", "widgets.example.com"}}},
      {"spec",
       json::object{{"group", "example.com"},
                    {"scope", "Namespaced"},
                    {"names", json::object{{"plural", "widgets"}, {"kind", "Widget"}}},
                    {"versions", json::array{json::object{
                                     {"name", "v1"},
                                     {"served", true},
                                     {"storage", true},
                                     {"schema", json::object{{"openAPIV3Schema", schema}}},
                                     {"subresources", json::object{{"status", json::object()}}},
                                 }}}}}};
  crd::crd_defaults(obj);
  crd::crd_prepare_for_create(obj);
  (void)crd::validate_crd(obj);
  json::object updated = obj;
  crd::crd_prepare_for_update(updated, obj);
  (void)crd::validate_crd_update(updated, obj);
  obj["status"] = crd::crd_status(obj, crd::TakenNames{{"widget"}, {"WidgetList"}}, "now");
  (void)crd::validate_crd_status_update(obj);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string_view schema_text = input.substr(0, nul);
  const std::string_view object_text =
      nul == std::string_view::npos ? schema_text : input.substr(nul + 1);

  boost::system::error_code ec;
  const json::value schema_json = json::parse(schema_text, ec);
  if (ec) return 0;
  for (const bool status : {false, true}) {
    crd::SchemaParseOptions options;
    options.status_subresource_enabled = status;
    auto parsed = crd::parse_structural_schema(schema_json, options);
    if (!parsed.ok()) {
      for (const auto& e : parsed.error())
        (void)e.message();
      continue;
    }
    if (*parsed == nullptr) fail_invariant("null schema", input);
    json::value object = json::parse(object_text, ec);
    if (ec) object = schema_json;
    exercise_object(**parsed, std::move(object), input);
  }
  exercise_crd(schema_json);
  return 0;
}
