#include "local/registry/pod_admission.h"

#include <string_view>

namespace kcm::local::registry {
namespace {

constexpr std::int64_t kDefaultTolerationSeconds = 300;

// Whether `toleration` already covers the NoExecute taint `key` (upstream
// checks key, operator and effect, ignoring tolerationSeconds).
bool tolerates(const json::object& toleration, std::string_view key) {
  const std::string_view t_key = api::find_string(toleration, "key").value_or("");
  const std::string_view op = api::find_string(toleration, "operator").value_or("Equal");
  const std::string_view effect = api::find_string(toleration, "effect").value_or("");
  if (!effect.empty() && effect != "NoExecute") return false;
  if (t_key.empty()) return op == "Exists";
  return t_key == key;
}

}  // namespace

void admit_pod(json::object& pod) {
  json::object& spec = api::ensure_object(pod, "spec");
  // Priority: no PriorityClass exists, so the global default applies.
  if (!spec.contains("priorityClassName") || api::find_string(spec, "priorityClassName") == "") {
    if (!spec.contains("priority")) spec["priority"] = 0;
    if (!spec.contains("preemptionPolicy")) spec["preemptionPolicy"] = "PreemptLowerPriority";
  }
  // DefaultTolerationSeconds.
  json::value& tolerations_value = spec["tolerations"];
  if (!tolerations_value.is_array()) tolerations_value = json::array();
  json::array& tolerations = tolerations_value.get_array();
  for (const char* key : {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}) {
    bool covered = false;
    for (const auto& t : tolerations) {
      if (t.is_object() && tolerates(t.get_object(), key)) covered = true;
    }
    if (!covered) {
      tolerations.push_back(json::object{{"key", key},
                                         {"operator", "Exists"},
                                         {"effect", "NoExecute"},
                                         {"tolerationSeconds", kDefaultTolerationSeconds}});
    }
  }
}

}  // namespace kcm::local::registry
