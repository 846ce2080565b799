#include "controllers/deployment/rollback.h"

#include "controllers/deployment/annotations.h"
#include "controllers/deployment/events.h"
#include "controllers/deployment/replica_sets.h"
#include "controllers/deployment/template_equality.h"

namespace kcm::controllers::deployment {

std::optional<std::int64_t> rollback_to(const DeploymentView& d) {
  const auto it = d.annotations.find(kDeprecatedRollbackTo);
  if (it == d.annotations.end() || it->second.empty()) return std::nullopt;
  const api::GoAtoiResult r = api::go_atoi(it->second);
  if (!r.error.empty()) return std::nullopt;  // invalid: ignored
  return r.value;
}

void clear_rollback_to(json::object& deployment) {
  json::value* meta = deployment.if_contains("metadata");
  if (meta == nullptr || !meta->is_object()) return;
  if (json::value* a = meta->as_object().if_contains("annotations"); a && a->is_object()) {
    a->as_object().erase(kDeprecatedRollbackTo);
  }
}

RollbackPlan plan_rollback(const json::object& deployment, const DeploymentView& d,
                           std::int64_t revision_number, const ReplicaSetList& all_rss) {
  RollbackPlan plan;
  plan.deployment = deployment;
  const auto give_up = [&](std::string_view message) {
    plan.event_type = kEventWarning;
    plan.event_reason = kRollbackRevisionNotFound;
    plan.event_message = message;
    clear_rollback_to(plan.deployment);
    return plan;
  };
  if (revision_number == 0) {
    revision_number = last_revision(all_rss);
    if (revision_number == 0) return give_up(kRollbackLastRevisionNotFoundMessage);
  }
  plan.revision = revision_number;
  for (const ReplicaSetInfo* rs : all_rss) {
    if (rs == nullptr) continue;
    const auto v = revision(rs->annotations);
    if (!v.ok() || *v != revision_number) continue;
    static const json::value kNoTemplate;
    const json::value& rs_template = rs->object != nullptr ? template_of(*rs->object) : kNoTemplate;
    if (!equal_ignore_hash(template_of(deployment), rs_template)) {
      set_from_replica_set_template(plan.deployment, rs_template);
      set_deployment_annotations_to(plan.deployment, rs->annotations);
      plan.rolled_back = true;
      plan.event_type = kEventNormal;
      plan.event_reason = kRollbackDone;
      plan.event_message = rolled_back_message(d.name, revision_number);
    } else {
      plan.event_type = kEventWarning;
      plan.event_reason = kRollbackTemplateUnchanged;
      plan.event_message = rollback_template_unchanged_message(d.name);
    }
    clear_rollback_to(plan.deployment);
    return plan;
  }
  return give_up(kRollbackRevisionNotFoundMessage);
}

}  // namespace kcm::controllers::deployment
