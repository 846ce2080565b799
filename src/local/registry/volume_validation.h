// spec.volumes of pods and pod templates (upstream's ValidateVolumes and
// validateVolumeSource). The common sources are checked in full; the
// remaining in-tree sources count as a volume type and have their required
// members checked.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "api/field_error.h"
#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

struct VolumeInfo {
  bool claim = false;  // persistentVolumeClaim or ephemeral: usable as a block device
  bool image = false;  // an image volume: no subPath
};
// The valid volumes by name, for volumeMounts and volumeDevices.
using VolumeMap = std::map<std::string, VolumeInfo, std::less<>>;

// `pod_name` is the pod's name, or empty for templates (it names the PVCs of
// ephemeral volumes). `resource_is_pod` as upstream's validation option.
api::FieldErrors validate_volumes(const json::array* volumes, std::string_view pod_name,
                                  std::string_view field, bool resource_is_pod, VolumeMap& out);

}  // namespace kcm::local::registry
