// The discovery documents (/api, /apis, /api/v1 and /apis/<g>/<v>) on
// arbitrary JSON. Invariants: no crash; a parsed resource list keeps one
// entry per input resource with a non-empty name only when the input had one;
// an error is a message, never empty.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "client/discovery.h"

namespace {

[[noreturn]] void fail_invariant(const char* what) {
  std::fprintf(stderr, "invariant broken: %s\n", what);
  std::abort();
}

template <typename R>
void check_error(const R& result) {
  if (!result.ok() && result.error().empty()) fail_invariant("empty error message");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  boost::system::error_code ec;
  const boost::json::value doc = boost::json::parse(text, ec);
  if (ec) return 0;

  check_error(kcm::client::parse_api_versions(doc));
  check_error(kcm::client::parse_api_group_list(doc));
  const auto resources = kcm::client::parse_api_resource_list(doc);
  check_error(resources);
  if (resources.ok()) {
    const boost::json::array* items = nullptr;
    if (const auto* o = doc.if_object())
      if (const auto* v = o->if_contains("resources")) items = v->if_array();
    const std::size_t expected = items ? items->size() : 0;
    if (resources->size() != expected) fail_invariant("resource count differs from the input");
    for (const auto& r : *resources)
      if (r.gvr().resource != r.name) fail_invariant("gvr names another resource");
  }
  return 0;
}
