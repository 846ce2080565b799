// core/v1 defaulting of pods and pod templates (upstream's
// SetObjectDefaults_Pod / SetObjectDefaults_PodTemplate). Only what upstream
// adds, where upstream adds it: PodTemplateSpecs (in Deployments and
// ReplicaSets) get the PodSpec defaults; requests-from-limits,
// enableServiceLinks and host-network ports are for Pods only. Every
// default fills an unset member, so defaulting twice changes nothing.
#pragma once

#include "api/json.h"

namespace kcm::local::registry {

namespace json = boost::json;

// SetDefaults_PodSpec and the defaults of the volumes and containers it holds.
void apply_pod_spec_defaults(json::object& spec);
// A PodTemplateSpec: its spec gets the PodSpec defaults (created when absent,
// as the template is a struct upstream) and metadata is always written.
void apply_pod_template_defaults(json::object& tmpl);
// A whole Pod: SetDefaults_Pod, then the PodSpec defaults.
void apply_pod_defaults(json::object& pod);

}  // namespace kcm::local::registry
