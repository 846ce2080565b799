#include "test_patch_schema.h"

#include <map>
#include <string>
#include <utility>

namespace kcm::api {
namespace {

class StructNode : public PatchSchema {
 public:
  StructNode& add(std::string name, PatchField field) {
    fields_.insert_or_assign(std::move(name), std::move(field));
    return *this;
  }
  const PatchField* lookup(std::string_view name) const override {
    const auto it = fields_.find(name);
    return it != fields_.end() ? &it->second : nullptr;
  }

 private:
  std::map<std::string, PatchField, std::less<>> fields_;
};

PatchField object(const PatchSchema* schema) {
  PatchField f;
  f.schema = schema;
  return f;
}

PatchField retain_keys_object(const PatchSchema* schema) {
  PatchField f = object(schema);
  f.meta.retain_keys = true;
  return f;
}

PatchField replace_object() {
  PatchField f;
  f.meta.strategy = PatchStrategy::kReplace;
  return f;
}

PatchField merge_list(std::string key, const PatchSchema* elements, bool retain_keys = false) {
  PatchField f;
  f.meta.strategy = PatchStrategy::kMerge;
  f.meta.merge_key = std::move(key);
  f.meta.retain_keys = retain_keys;
  f.schema = elements;
  return f;
}

PatchField set_list(std::string go_kind) {
  PatchField f;
  f.meta.strategy = PatchStrategy::kMerge;
  f.go_kind = std::move(go_kind);
  return f;
}

PatchField atomic_list(const PatchSchema* elements = nullptr, std::string go_kind = "struct") {
  PatchField f;
  f.schema = elements;
  f.go_kind = std::move(go_kind);
  return f;
}

struct Schemas {
  StructNode object_meta, owner_reference;
  StructNode pod, pod_spec, pod_status, pod_template_spec;
  StructNode container, container_port, env_var, env_var_source, volume_mount, volume,
      config_map_volume_source, resource_requirements, toleration;
  StructNode deployment, deployment_spec, deployment_strategy, deployment_status, label_selector;
  StructNode merge_item, retain_keys_merge_item;

  Schemas() {
    // metav1.ObjectMeta: labels and annotations are plain maps.
    object_meta.add("finalizers", set_list("string"))
        .add("ownerReferences", merge_list("uid", &owner_reference))
        .add("managedFields", atomic_list());
    label_selector.add("matchExpressions", atomic_list());

    // core/v1.
    pod.add("metadata", object(&object_meta))
        .add("spec", object(&pod_spec))
        .add("status", object(&pod_status));
    pod_template_spec.add("metadata", object(&object_meta)).add("spec", object(&pod_spec));
    pod_spec.add("volumes", merge_list("name", &volume, /*retain_keys=*/true))
        .add("initContainers", merge_list("name", &container))
        .add("containers", merge_list("name", &container))
        .add("ephemeralContainers", merge_list("name", &container))
        .add("imagePullSecrets", merge_list("name", nullptr))
        .add("tolerations", atomic_list(&toleration))
        .add("hostAliases", merge_list("ip", nullptr))
        .add("topologySpreadConstraints", merge_list("topologyKey", &label_selector))
        .add("schedulingGates", merge_list("name", nullptr))
        .add("resourceClaims", merge_list("name", nullptr, /*retain_keys=*/true))
        .add("readinessGates", atomic_list());
    container.add("ports", merge_list("containerPort", &container_port))
        .add("env", merge_list("name", &env_var))
        .add("envFrom", atomic_list())
        .add("volumeMounts", merge_list("mountPath", &volume_mount))
        .add("volumeDevices", merge_list("devicePath", nullptr))
        .add("resources", object(&resource_requirements))
        .add("resizePolicy", atomic_list())
        .add("command", atomic_list(nullptr, "string"))
        .add("args", atomic_list(nullptr, "string"));
    env_var.add("valueFrom", object(&env_var_source));
    resource_requirements.add("claims", atomic_list());
    volume.add("configMap", object(&config_map_volume_source));
    config_map_volume_source.add("items", atomic_list());
    pod_status.add("conditions", merge_list("type", nullptr))
        .add("podIPs", merge_list("ip", nullptr))
        .add("hostIPs", merge_list("ip", nullptr))
        .add("containerStatuses", atomic_list())
        .add("initContainerStatuses", atomic_list());

    // apps/v1.
    deployment.add("metadata", object(&object_meta))
        .add("spec", object(&deployment_spec))
        .add("status", object(&deployment_status));
    deployment_spec.add("selector", object(&label_selector))
        .add("template", object(&pod_template_spec))
        .add("strategy", retain_keys_object(&deployment_strategy));
    deployment_status.add("conditions", merge_list("type", nullptr));

    // The recursive test type.
    merge_item.add("mergingList", merge_list("name", &merge_item))
        .add("nonMergingList", atomic_list(&merge_item))
        .add("mergingIntList", set_list("int"))
        .add("nonMergingIntList", atomic_list(nullptr, "int"))
        .add("replacingItem", replace_object())
        .add("retainKeysMap", retain_keys_object(&retain_keys_merge_item))
        .add("retainKeysMergingList", merge_list("name", &merge_item, /*retain_keys=*/true));
    retain_keys_merge_item.add("mergingIntList", set_list("int"))
        .add("mergingList", merge_list("name", &merge_item))
        .add("nonMergingList", atomic_list(&merge_item));
  }
};

const Schemas& schemas() {
  static const Schemas kSchemas;
  return kSchemas;
}

}  // namespace

const PatchSchema& pod_patch_schema() {
  return schemas().pod;
}
const PatchSchema& deployment_patch_schema() {
  return schemas().deployment;
}
const PatchSchema& merge_item_patch_schema() {
  return schemas().merge_item;
}

}  // namespace kcm::api
