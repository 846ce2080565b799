#include "controllers/deployment/template_equality.h"

#include "api/schema/registry.h"
#include "api/schema/semantic_equal.h"

namespace kcm::controllers::deployment {

namespace {

const api::schema::Type& pod_template_spec() {
  static const api::schema::Type& type = api::schema::builtin_type("core/v1", "PodTemplateSpec");
  return type;
}

// The pod-template-hash label of a PodTemplateSpec. Left out of the
// comparison rather than erased from copies: templates are compared on every
// Deployment sync, and copying them cost more than comparing.
constexpr std::string_view kHashLabelPath[] = {"metadata", "labels", kPodTemplateHashLabel};

}  // namespace

bool equal_pod_templates(const json::value& a, const json::value& b) {
  return api::schema::semantic_equal(a, b, pod_template_spec());
}

bool equal_ignore_hash(const json::value& template_a, const json::value& template_b) {
  return api::schema::semantic_equal(template_a, template_b, pod_template_spec(), kHashLabelPath);
}

}  // namespace kcm::controllers::deployment
