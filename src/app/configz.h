// kube-controller-manager's /configz: its component configuration (the
// internal KubeControllerManagerConfiguration of release 1.33) under the name
// "kubecontrollermanager.config.k8s.io", as Go marshals it: field names as
// keys in declaration order, durations as Go writes them ("12h0m0s"). Fields
// kcm has flags for carry the flags' values; the others (controllers and
// settings kcm does not have) keep upstream's defaults, as upstream shows
// them when those flags are not given.
#pragma once

#include <string>
#include <string_view>

#include "api/json.h"
#include "api/result.h"
#include "app/http_answer.h"
#include "app/options.h"

namespace kcm::app {

namespace json = boost::json;

inline constexpr std::string_view kConfigzName = "kubecontrollermanager.config.k8s.io";

// The configuration object (the value under kConfigzName).
json::object component_config(const Options& options);

// /configz's body: {"kubecontrollermanager.config.k8s.io":{...}}, compact,
// no trailing newline. An error only where Go's json.Marshal fails too
// (a NaN or infinite --kube-api-qps): "error marshaling json: ...".
Result<std::string> configz_body(const Options& options);

// What /configz answers (configz.handle): the body as application/json with
// nosniff, or Go's http.Error 500 with the marshalling error. Any method.
HttpAnswer configz_answer(const Options& options);

}  // namespace kcm::app
