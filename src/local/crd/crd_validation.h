// Validation of CustomResourceDefinition objects (apiextensions.k8s.io/v1) on
// create and update, as upstream's apis/apiextensions/validation. Field paths
// are upstream's, which name some fields by their internal spelling
// (`additionalPrinterColumns[0].JSONPath`, `conversion.webhookClientConfig`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"
#include "api/result.h"
#include "local/crd/structural_schema.h"

namespace kcm::local::crd {

namespace json = boost::json;

// The name rule of a CRD (upstream's nameValidationFn): a DNS subdomain that
// equals `<spec.names.plural>.<spec.group>`. `prefix` as for generateName.
std::vector<std::string> crd_name_problems(std::string_view name, const json::object& crd,
                                           bool prefix = false);

// Create: metadata.name/generateName (crd_name_problems, one Invalid error per
// message), the spec (group, scope, names, versions with their schemas,
// subresources and printer columns, conversion, preserveUnknownFields) and the
// status (acceptedNames, storedVersions). Run after crd_defaults and
// crd_prepare_for_create. The rest of metadata is the generic layer's job.
api::FieldErrors validate_crd(const json::object& crd);

// Update: the spec and status as on create, plus the immutable fields
// (spec.group and spec.names.plural always; spec.scope and spec.names.kind
// once `old` is Established). metadata.name is immutable in the generic layer.
api::FieldErrors validate_crd_update(const json::object& crd, const json::object& old);

// The status subresource's update: only status.acceptedNames is checked.
api::FieldErrors validate_crd_status_update(const json::object& crd);

// The parsed schema of version `version` of a (valid) CRD, with the status
// subresource's root restrictions when that version enables it. Errors: the
// schema's, under spec.versions[i].schema.openAPIV3Schema, or a NotFound /
// Required error when the version or its schema is missing.
Result<SchemaPtr, api::FieldErrors> crd_version_schema(const json::object& crd,
                                                       std::string_view version);

// The storage version's name (the version with `storage: true`), or "".
std::string crd_storage_version(const json::object& crd);

// The strategy's PrepareForCreate: status reset to {storedVersions: [storage]},
// metadata.generation = 1.
void crd_prepare_for_create(json::object& crd);

// The strategy's PrepareForUpdate: status kept from `old`, the storage version
// appended to status.storedVersions when missing, metadata.generation bumped
// when the spec changed.
void crd_prepare_for_update(json::object& crd, const json::object& old);

}  // namespace kcm::local::crd
