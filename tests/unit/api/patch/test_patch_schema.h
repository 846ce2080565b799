// Patch schemas for tests, with the real patch metadata of the types kubectl
// patches (k8s.io/api core/v1 and apps/v1 struct tags), plus a small
// recursive type to exercise every strategy in isolation. Only fields that
// carry metadata or nest another type are listed: an unlisted field behaves
// exactly like an untagged scalar.
#pragma once

#include "api/patch/patch_schema.h"

namespace kcm::api {

// Pod: metadata (ObjectMeta), spec (PodSpec), status (PodStatus).
const PatchSchema& pod_patch_schema();
// Deployment: metadata, spec (DeploymentSpec with its PodTemplateSpec), status.
const PatchSchema& deployment_patch_schema();

// A test type in the spirit of upstream's MergeItem:
//   mergingList            []Item   merge by "name"
//   nonMergingList         []Item   (atomic)
//   mergingIntList         []int    merge (a set)
//   nonMergingIntList      []int    (atomic)
//   simpleMap              map[string]string
//   replacingItem          object   patchStrategy "replace"
//   retainKeysMap          object   patchStrategy "retainKeys" (fields name,
//                                   value, other, simpleMap, mergingList,
//                                   mergingIntList, nonMergingList)
//   retainKeysMergingList  []Item   merge by "name", retainKeys
const PatchSchema& merge_item_patch_schema();

}  // namespace kcm::api
