// core/v1 Pod: created Pending with its QoS class, status owned by the
// kubelet, spec mostly immutable (upstream's pkg/registry/core/pod).
#include <map>
#include <vector>

#include "api/time.h"
#include "local/registry/field_access.h"
#include "local/registry/object_fields.h"
#include "local/registry/pod_admission.h"
#include "local/registry/pod_create_mutations.h"
#include "local/registry/pod_defaults.h"
#include "local/registry/pod_qos.h"
#include "local/registry/pod_update_validation.h"
#include "local/registry/pod_validation.h"
#include "local/registry/semantic_equal.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

// A status write that drops observedGeneration (of the status or of a
// condition) keeps the old value (preserveOldObservedGeneration).
void preserve_observed_generation(json::object& status, const json::object& old_status) {
  if (int_member(status, "observedGeneration").value_or(0) == 0) {
    if (const json::value* g = old_status.if_contains("observedGeneration")) {
      status["observedGeneration"] = *g;
    }
  }
  std::map<std::string, std::vector<std::int64_t>> old_generations;
  if (const json::array* old_conditions = array_member(old_status, "conditions")) {
    for (const auto& c : *old_conditions) {
      const json::object* o = c.if_object();
      if (o == nullptr) continue;
      old_generations[std::string(string_member(*o, "type"))].push_back(
          int_member(*o, "observedGeneration").value_or(0));
    }
  }
  json::array* conditions = mutable_array_member(status, "conditions");
  if (conditions == nullptr) return;
  for (auto& c : *conditions) {
    json::object* o = c.if_object();
    if (o == nullptr) continue;
    auto& queue = old_generations[std::string(string_member(*o, "type"))];
    std::int64_t old_generation = 0;
    if (!queue.empty()) {
      old_generation = queue.front();
      queue.erase(queue.begin());
    }
    if (int_member(*o, "observedGeneration").value_or(0) == 0 && old_generation != 0) {
      (*o)["observedGeneration"] = old_generation;
    }
  }
}

class PodStrategy final : public Strategy {
 public:
  void apply_defaults(json::object& obj) const override { apply_pod_defaults(obj); }

  void prepare_for_create(json::object& obj) const override {
    admit_pod(obj);
    static const json::object kEmpty;
    const json::object* spec = object_member(obj, "spec");
    const std::string qos = compute_pod_qos(spec != nullptr ? *spec : kEmpty);
    obj["status"] = json::object{{"phase", "Pending"}, {"qosClass", qos}};
    set_generation(obj, 1);
    apply_scheduling_gated_condition(obj, api::Time::now().to_string());
    merge_affinity_label_keys(obj);
  }
  void prepare_for_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "status");
    static const api::schema::Type& pod = builtin_type("core/v1", "Pod");
    if (!equal_member(obj, old, "spec", pod)) {
      set_generation(obj, generation(obj) + 1);
    }
  }
  void prepare_for_status_update(json::object& obj, const json::object& old) const override {
    copy_member(obj, old, "spec");
    // Old kubelets corrupt owner references through /status.
    json::object& meta = object_at(obj, "metadata");
    if (const json::object* old_meta = object_member(old, "metadata")) {
      copy_member(meta, *old_meta, "ownerReferences");
    } else {
      meta.erase("ownerReferences");
    }
    static const json::object kEmpty;
    const json::object* os = object_member(old, "status");
    const json::object& old_status = os != nullptr ? *os : kEmpty;
    json::object& status = object_at(obj, "status");
    // The QoS class is set at creation; a status without one keeps it.
    if (string_member(status, "qosClass").empty() && has(old_status, "qosClass")) {
      status["qosClass"] = *old_status.if_contains("qosClass");
    }
    preserve_observed_generation(status, old_status);
  }

  api::FieldErrors validate(const json::object& obj) const override {
    return validate_pod_create(obj);
  }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return validate_pod_update(obj, old);
  }
  api::FieldErrors validate_status_update(const json::object& obj,
                                          const json::object& old) const override {
    return validate_pod_status_update(obj, old);
  }

  std::optional<std::int64_t> graceful_delete_period(
      const json::object& pod, std::optional<std::int64_t> requested) const override {
    std::int64_t period = 30;  // the default terminationGracePeriodSeconds
    if (requested) {
      period = *requested;
    } else if (const json::object* spec = api::find_object(pod, "spec")) {
      period = api::find_int(*spec, "terminationGracePeriodSeconds").value_or(period);
    }
    // Unscheduled or finished pods have nothing to stop: delete at once.
    if (field_string(pod, "spec.nodeName").empty()) period = 0;
    const std::string phase = field_string(pod, "status.phase");
    if (phase == "Succeeded" || phase == "Failed") period = 0;
    if (period < 0) period = 1;
    return period;
  }

  void field_values(const json::object& obj, std::vector<std::string>& out) const override {
    out.push_back(field_string(obj, "spec.nodeName"));
    out.push_back(field_string(obj, "spec.restartPolicy"));
    out.push_back(field_string(obj, "spec.schedulerName"));
    out.push_back(field_string(obj, "spec.serviceAccountName"));
    const std::string host_network = field_string(obj, "spec.hostNetwork");
    out.push_back(host_network.empty() ? "false" : host_network);
    out.push_back(field_string(obj, "status.phase"));
    out.push_back(field_string(obj, "status.podIP"));
    out.push_back(field_string(obj, "status.nominatedNodeName"));
  }
};

}  // namespace

std::shared_ptr<const Strategy> pod_strategy() {
  return std::make_shared<PodStrategy>();
}

}  // namespace kcm::local::registry
