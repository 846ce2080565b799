// The derived apps/v1 cases of ../shared/spec/upstream-cases (copied into
// tests/data), run through the Deployment and ReplicaSet strategies.
#include <gtest/gtest.h>

#include "local/registry/field_access.h"
#include "local/registry/pod_defaults.h"
#include "local/registry/strategies.h"
#include "registry_test_util.h"

namespace kcm::local::registry {
namespace {

using testing::load_data;
using testing::messages;

std::shared_ptr<const Strategy> strategy_for(std::string_view kind) {
  return kind == "Deployment" ? deployment_strategy() : replica_set_strategy();
}

// The cases abbreviate the template to {labels, restartPolicy,
// activeDeadlineSeconds}; the rest is a defaulted, otherwise valid template.
json::object expand_spec(const json::object& compact) {
  json::object spec = compact;
  if (const json::object* t = object_member(compact, "template")) {
    json::object pod_spec{
        {"containers", json::array{json::object{{"name", "app"}, {"image", "nginx:1.25"}}}}};
    for (std::string_view key : {"restartPolicy", "activeDeadlineSeconds"}) {
      if (const json::value* v = t->if_contains(key)) pod_spec[key] = *v;
    }
    json::object tmpl{{"metadata", json::object{}}, {"spec", std::move(pod_spec)}};
    if (const json::value* labels = t->if_contains("labels")) {
      tmpl["metadata"].get_object()["labels"] = *labels;
    }
    apply_pod_template_defaults(tmpl);
    spec["template"] = std::move(tmpl);
  }
  return spec;
}

json::object make_object(std::string_view kind, const json::object& spec,
                         const json::object* status) {
  json::object o{
      {"apiVersion", "apps/v1"},
      {"kind", kind},
      {"metadata",
       json::object{{"name", "web"}, {"namespace", "default"}, {"resourceVersion", "1"}}},
      {"spec", expand_spec(spec)}};
  if (status != nullptr) o["status"] = *status;
  return o;
}

TEST(AppsUpstreamCases, Defaults) {
  const json::value data = load_data("apps_v1_defaults.json");
  const json::array& cases = data.at("cases").as_array();
  ASSERT_EQ(cases.size(), 4u);
  for (const auto& cv : cases) {
    const json::object& c = cv.as_object();
    SCOPED_TRACE(json::serialize(c.at("name")));
    const json::object& input = c.at("input").as_object();
    json::object o{{"kind", input.at("kind")}, {"spec", input.at("spec")}};
    auto strategy = strategy_for(input.at("kind").as_string());
    strategy->apply_defaults(o);
    const json::object& spec = o.at("spec").as_object();
    for (const auto& kv : c.at("expected").at("spec").as_object()) {
      ASSERT_TRUE(spec.contains(kv.key())) << kv.key();
      EXPECT_EQ(spec.at(kv.key()), kv.value()) << kv.key() << ": " << json::serialize(spec);
    }
    // The selector is never defaulted.
    EXPECT_FALSE(spec.contains("selector"));
    // Defaulting is idempotent.
    json::object again = o;
    strategy->apply_defaults(again);
    EXPECT_EQ(again, o);
  }
}

TEST(AppsUpstreamCases, Validation) {
  const json::value data = load_data("apps_v1_validation.json");
  const json::array& cases = data.at("cases").as_array();
  ASSERT_EQ(cases.size(), 29u);
  for (const auto& cv : cases) {
    const json::object& c = cv.as_object();
    SCOPED_TRACE(json::serialize(c.at("name")));
    const json::object& input = c.at("input").as_object();
    const std::string kind(input.at("kind").as_string());
    auto strategy = strategy_for(kind);
    const json::object* status = object_member(input, "status");
    json::object o = make_object(kind, input.at("spec").as_object(), status);

    api::FieldErrors errs;
    if (const json::object* old_spec = object_member(input, "oldSpec")) {
      errs = strategy->validate_update(o, make_object(kind, *old_spec, nullptr));
    } else if (status != nullptr) {
      const json::object* old_status = object_member(input, "oldStatus");
      static const json::object kEmpty;
      json::object old = make_object(kind, input.at("spec").as_object(),
                                     old_status != nullptr ? old_status : &kEmpty);
      errs = strategy->validate_status_update(o, old);
    } else {
      errs = strategy->validate(o);
    }

    const json::object& expected = c.at("expected").as_object();
    if (expected.at("valid").as_bool()) {
      EXPECT_TRUE(errs.empty()) << messages(errs);
      continue;
    }
    const std::string field(expected.at("field").as_string());
    const std::string detail(expected.contains("detail") ? expected.at("detail").as_string() : "");
    bool found = false;
    for (const auto& e : errs) {
      if (e.field == field && e.body().find(detail) != std::string::npos) found = true;
    }
    EXPECT_TRUE(found) << "want " << field << " ~ " << detail << "\ngot:\n" << messages(errs);
  }
}

}  // namespace
}  // namespace kcm::local::registry
