#include "controllers/deployment/replica_sets.h"

#include <algorithm>

#include "controller/hash.h"
#include "controller/pod_template.h"
#include "controllers/deployment/annotations.h"
#include "controllers/deployment/json_members.h"
#include "controllers/deployment/progress.h"
#include "controllers/deployment/replica_math.h"
#include "controllers/deployment/template_equality.h"

namespace kcm::controllers::deployment {

namespace {

bool newer(const ReplicaSetInfo& a, const ReplicaSetInfo& b) {
  return replica_set_older(b, a);
}

}  // namespace

const json::value& template_of(const json::object& obj) {
  const json::object* spec = api::find_object(obj, "spec");
  const json::value* t = spec != nullptr ? api::find(*spec, "template") : nullptr;
  return t != nullptr ? *t : null_value();
}

bool replica_set_older(const ReplicaSetInfo& a, const ReplicaSetInfo& b) {
  if (a.creation_timestamp == b.creation_timestamp) return a.name < b.name;
  return a.creation_timestamp < b.creation_timestamp;
}

void sort_by_creation_timestamp(ReplicaSetList& replica_sets) {
  std::stable_sort(
      replica_sets.begin(), replica_sets.end(),
      [](const ReplicaSetInfo* a, const ReplicaSetInfo* b) { return replica_set_older(*a, *b); });
}

void sort_by_size_older(ReplicaSetList& replica_sets) {
  std::stable_sort(replica_sets.begin(), replica_sets.end(),
                   [](const ReplicaSetInfo* a, const ReplicaSetInfo* b) {
                     if (a->spec_replicas == b->spec_replicas) return replica_set_older(*a, *b);
                     return a->spec_replicas > b->spec_replicas;
                   });
}

void sort_by_size_newer(ReplicaSetList& replica_sets) {
  std::stable_sort(replica_sets.begin(), replica_sets.end(),
                   [](const ReplicaSetInfo* a, const ReplicaSetInfo* b) {
                     if (a->spec_replicas == b->spec_replicas) return newer(*a, *b);
                     return a->spec_replicas > b->spec_replicas;
                   });
}

void sort_by_revision(ReplicaSetList& replica_sets) {
  std::stable_sort(replica_sets.begin(), replica_sets.end(),
                   [](const ReplicaSetInfo* a, const ReplicaSetInfo* b) {
                     const auto ra = revision(a->annotations);
                     const auto rb = revision(b->annotations);
                     if (!ra.ok() || !rb.ok() || *ra == *rb) return replica_set_older(*a, *b);
                     return *ra < *rb;
                   });
}

const ReplicaSetInfo* find_new_replica_set(const json::value& deployment_template,
                                           ReplicaSetList& replica_sets) {
  sort_by_creation_timestamp(replica_sets);
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs == nullptr || rs->object == nullptr) continue;
    // The oldest match wins; any later duplicate counts as old.
    if (equal_ignore_hash(template_of(*rs->object), deployment_template)) return rs;
  }
  return nullptr;
}

OldReplicaSets find_old_replica_sets(const json::value& deployment_template,
                                     ReplicaSetList& replica_sets) {
  OldReplicaSets out;
  const ReplicaSetInfo* new_rs = find_new_replica_set(deployment_template, replica_sets);
  for (const ReplicaSetInfo* rs : replica_sets) {
    if (rs == nullptr) continue;
    if (new_rs != nullptr && rs->uid == new_rs->uid) continue;
    out.all.push_back(rs);
    if (rs->spec_replicas != 0) out.required.push_back(rs);
  }
  return out;
}

const ReplicaSetInfo* find_active_or_latest(const ReplicaSetInfo* new_rs, ReplicaSetList& old_rss) {
  if (new_rs == nullptr && old_rss.empty()) return nullptr;
  std::stable_sort(old_rss.begin(), old_rss.end(),
                   [](const ReplicaSetInfo* a, const ReplicaSetInfo* b) { return newer(*a, *b); });
  ReplicaSetList all = old_rss;
  all.push_back(new_rs);
  const ReplicaSetList active = filter_active_replica_sets(all);
  if (active.empty()) return new_rs != nullptr ? new_rs : old_rss.front();
  if (active.size() == 1) return active.front();
  return nullptr;
}

std::string new_revision(const ReplicaSetList& old_rss) {
  return std::to_string(max_revision(old_rss) + 1);
}

Result<json::object> new_replica_set(const json::object& deployment, const DeploymentView& d,
                                     const ReplicaSetList& old_rss,
                                     std::string_view revision_text) {
  const json::value& d_template = template_of(deployment);
  const std::string hash = controller::compute_hash(d_template, d.status.collision_count);

  json::value rs_template = d_template.is_object() ? d_template : json::value(json::object());
  json::object& tmeta = api::ensure_object(rs_template.as_object(), "metadata");
  api::ensure_object(tmeta, "labels")[kPodTemplateHashLabel] = hash;

  json::value selector(json::object{});
  if (const json::object* spec = api::find_object(deployment, "spec")) {
    if (const json::value* s = api::find(*spec, "selector"); s != nullptr && s->is_object()) {
      selector = *s;
    }
  }
  api::ensure_object(selector.as_object(), "matchLabels")[kPodTemplateHashLabel] = hash;

  json::object meta;
  meta["name"] = d.name + "-" + hash;
  meta["namespace"] = d.namespace_;
  meta["labels"] = tmeta.at("labels");
  meta["ownerReferences"] =
      json::array{controller::new_controller_ref("apps/v1", "Deployment", d.name, d.uid).to_json()};

  json::object spec;
  spec["replicas"] = 0;
  if (d.min_ready_seconds != 0) spec["minReadySeconds"] = d.min_ready_seconds;
  spec["selector"] = std::move(selector);
  spec["template"] = std::move(rs_template);

  json::object rs;
  rs["apiVersion"] = "apps/v1";
  rs["kind"] = "ReplicaSet";
  rs["metadata"] = std::move(meta);
  rs["spec"] = std::move(spec);

  ReplicaSetInfo info = ReplicaSetInfo::from_json(rs);
  info.spec_replicas = 0;
  ReplicaSetList all = old_rss;
  all.push_back(&info);
  auto replicas = new_rs_new_replicas(d, all, info);
  if (!replicas.ok()) return fail(replicas.error());
  rs["spec"].as_object()["replicas"] = *replicas;
  set_new_replica_set_annotations(d, rs, revision_text, false);
  return rs;
}

std::optional<RefreshedReplicaSet> refresh_new_replica_set(const DeploymentView& d,
                                                           const json::object& rs,
                                                           std::string_view revision_text) {
  // Only the annotations change here: they are worked on alone, and the
  // ReplicaSet (mostly its pod template) is copied only when it is written.
  json::object annotations_only;
  const json::value* before = nullptr;
  if (const json::object* meta = api::find_object(rs, "metadata")) {
    before = meta->if_contains("annotations");
    if (before != nullptr) annotations_only["metadata"] = json::object{{"annotations", *before}};
  }
  const bool annotations_changed =
      set_new_replica_set_annotations(d, annotations_only, revision_text, true);
  const json::object* current_spec = api::find_object(rs, "spec");
  const bool min_ready_changed =
      (current_spec != nullptr ? api::find_int(*current_spec, "minReadySeconds") : std::nullopt)
          .value_or(0) != std::int64_t{d.min_ready_seconds};
  json::value& after = api::ensure_object(annotations_only, "metadata")["annotations"];
  // Annotations copied in before a revision that is not a number made
  // SetNewReplicaSetAnnotations give up (reporting no change).
  const bool copied_only = !annotations_changed && !api::is_empty_value(after) &&
                           (before == nullptr || after != *before);
  if (!annotations_changed && !min_ready_changed && !copied_only) return std::nullopt;
  json::object copy = rs;
  // As upstream's copy, the write carries the annotations as set, even when
  // only minReadySeconds counted as a change.
  api::ensure_object(copy, "metadata")["annotations"] = std::move(after);
  if (!annotations_changed && !min_ready_changed)
    return RefreshedReplicaSet{std::move(copy), false};
  json::object& spec = api::ensure_object(copy, "spec");
  if (d.min_ready_seconds != 0) {
    spec["minReadySeconds"] = d.min_ready_seconds;
  } else {
    spec.erase("minReadySeconds");
  }
  return RefreshedReplicaSet{std::move(copy), true};
}

namespace {

void write_status(json::object& deployment, const DeploymentStatus& status) {
  status.write_to(api::ensure_object(deployment, "status"));
}

}  // namespace

bool sync_deployment_with_new_replica_set(json::object& deployment, const DeploymentView& d,
                                          const ReplicaSetInfo& new_rs, api::Time now) {
  const auto it = new_rs.annotations.find(kRevisionAnnotation);
  bool needs_update = set_deployment_revision(
      deployment, it != new_rs.annotations.end() ? std::string_view(it->second) : "");
  if (has_progress_deadline(d) && get_deployment_condition(d.status, kProgressing) == nullptr) {
    DeploymentStatus status = d.status;
    set_deployment_condition(status, found_new_replica_set_condition(new_rs.name, now));
    write_status(deployment, status);
    needs_update = true;
  }
  return needs_update;
}

bool sync_deployment_with_created_replica_set(json::object& deployment, const DeploymentView& d,
                                              std::string_view revision_text,
                                              std::string_view rs_name, bool created,
                                              api::Time now) {
  bool needs_update = set_deployment_revision(deployment, revision_text);
  if (created && has_progress_deadline(d)) {
    DeploymentStatus status = d.status;
    set_deployment_condition(status, new_replica_set_created_condition(rs_name, now));
    write_status(deployment, status);
    needs_update = true;
  }
  return needs_update;
}

void set_replica_set_create_error(json::object& deployment, const DeploymentView& d,
                                  std::string_view message, api::Time now) {
  if (!has_progress_deadline(d)) return;
  DeploymentStatus status = d.status;
  set_deployment_condition(status, replica_set_create_error_condition(message, now));
  write_status(deployment, status);
}

bool is_own_replica_set(const DeploymentView& d, const json::object& deployment,
                        const ReplicaSetInfo& existing) {
  if (!existing.controller_uid || *existing.controller_uid != d.uid) return false;
  return existing.object != nullptr &&
         equal_ignore_hash(template_of(*existing.object), template_of(deployment));
}

std::int32_t next_collision_count(std::optional<std::int32_t> collision_count) {
  return collision_count ? *collision_count + 1 : 1;
}

void set_from_replica_set_template(json::object& deployment, const json::value& rs_template) {
  json::value t = rs_template;
  if (json::object* o = t.if_object()) {
    json::value* meta = o->if_contains("metadata");
    json::value* labels =
        meta != nullptr && meta->is_object() ? meta->as_object().if_contains("labels") : nullptr;
    if (labels != nullptr && labels->is_object()) labels->as_object().erase(kPodTemplateHashLabel);
  }
  api::ensure_object(deployment, "spec")["template"] = std::move(t);
}

}  // namespace kcm::controllers::deployment
