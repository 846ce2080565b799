#include "local/registry/container_validation.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>

#include "api/name_validation.h"
#include "local/registry/downward_api_validation.h"
#include "local/registry/field_access.h"
#include "local/registry/resource_validation.h"
#include "local/registry/security_context_validation.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

using Errs = api::FieldErrors;

void validate_handler(const json::object& h, bool lifecycle, const ContainerContext& ctx,
                      std::string_view field, Errs& errs) {
  int count = 0;
  auto one = [&](std::string_view key) -> const json::object* {
    const json::object* o = object_member(h, key);
    if (o == nullptr) return nullptr;
    if (count > 0) {
      errs.push_back(
          api::forbidden(path_of(field, key), "may not specify more than 1 handler type"));
      return nullptr;
    }
    ++count;
    return o;
  };
  if (const json::object* exec = one("exec")) {
    const json::array* cmd = array_member(*exec, "command");
    if (cmd == nullptr || cmd->empty()) {
      errs.push_back(api::required(path_of(path_of(field, "exec"), "command")));
    }
  }
  if (const json::object* http = one("httpGet")) {
    const std::string base = path_of(field, "httpGet");
    if (string_member(*http, "path").empty()) errs.push_back(api::required(path_of(base, "path")));
    validate_port_num_or_name(*http, "port", path_of(base, "port"), errs);
    const std::string_view scheme = string_member(*http, "scheme");
    if (scheme != "HTTP" && scheme != "HTTPS") {
      errs.push_back(
          api::not_supported(path_of(base, "scheme"), json::value(scheme), {"HTTP", "HTTPS"}));
    }
    if (const json::array* headers = array_member(*http, "httpHeaders")) {
      for (const auto& hv : *headers) {
        const std::string_view name = string_member(object_or_empty(hv), "name");
        append_invalid(path_of(base, "httpHeaders"), name, is_http_header_name(name), errs);
      }
    }
  }
  if (const json::object* tcp = one("tcpSocket")) {
    validate_port_num_or_name(*tcp, "port", path_of(path_of(field, "tcpSocket"), "port"), errs);
  }
  if (!lifecycle) {
    if (const json::object* grpc = one("grpc")) {
      const std::int64_t port = int_member(*grpc, "port").value_or(0);
      for (const auto& msg : is_valid_port_num(port)) {
        errs.push_back(
            api::invalid(path_of(path_of(field, "grpc"), "port"), json::value(port), msg));
      }
    }
  } else if (const json::object* sleep = one("sleep")) {
    const std::int64_t seconds = int_member(*sleep, "seconds").value_or(0);
    if (ctx.grace_period && (seconds < 0 || seconds > *ctx.grace_period)) {
      errs.push_back(api::invalid(
          path_of(field, "sleep"), json::value(seconds),
          fmt::format("must be non-negative and less than terminationGracePeriodSeconds ({})",
                      *ctx.grace_period)));
    }
  }
  if (count == 0) errs.push_back(api::required(std::string(field), "must specify a handler type"));
}

enum class ProbeKind { kLiveness, kReadiness, kStartup };

void validate_probe(const json::object& c, std::string_view key, ProbeKind kind,
                    const ContainerContext& ctx, std::string_view container_path, Errs& errs) {
  const json::object* probe = object_member(c, key);
  if (probe == nullptr) return;
  const std::string field = path_of(container_path, key);
  validate_handler(*probe, false, ctx, field, errs);
  for (std::string_view n : {"initialDelaySeconds", "timeoutSeconds", "periodSeconds",
                             "successThreshold", "failureThreshold"}) {
    validate_nonnegative(int_member(*probe, n).value_or(0), path_of(field, n), errs);
  }
  const auto tgps = int_member(*probe, "terminationGracePeriodSeconds");
  if (tgps && *tgps <= 0) {
    errs.push_back(api::invalid(path_of(field, "terminationGracePeriodSeconds"), json::value(*tgps),
                                "must be greater than 0"));
  }
  if (kind != ProbeKind::kReadiness) {
    const std::int64_t success = int_member(*probe, "successThreshold").value_or(0);
    if (success != 1) {
      errs.push_back(
          api::invalid(path_of(field, "successThreshold"), json::value(success), "must be 1"));
    }
  } else if (tgps) {
    errs.push_back(api::invalid(path_of(field, "terminationGracePeriodSeconds"), json::value(*tgps),
                                "must not be set for readinessProbes"));
  }
}

void validate_lifecycle(const json::object& c, const ContainerContext& ctx,
                        std::string_view container_path, Errs& errs) {
  const json::object* lifecycle = object_member(c, "lifecycle");
  if (lifecycle == nullptr) return;
  const std::string field = path_of(container_path, "lifecycle");
  for (std::string_view hook : {"postStart", "preStop"}) {
    if (const json::object* h = object_member(*lifecycle, hook)) {
      validate_handler(*h, true, ctx, path_of(field, hook), errs);
    }
  }
}

void validate_ports(const json::object& c, std::string_view field, Errs& errs) {
  const json::array* ports = array_member(c, "ports");
  if (ports == nullptr) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < ports->size(); ++i) {
    const json::object& port = object_or_empty((*ports)[i]);
    const std::string idx = api::index(field, i);
    const std::string name(string_member(port, "name"));
    if (!name.empty()) {
      const auto msgs = is_valid_port_name(name);
      if (!msgs.empty()) {
        append_invalid(path_of(idx, "name"), name, msgs, errs);
      } else if (!names.insert(name).second) {
        errs.push_back(api::duplicate(path_of(idx, "name"), json::value(name)));
      }
    }
    const std::int64_t container_port = int_member(port, "containerPort").value_or(0);
    if (container_port == 0) {
      errs.push_back(api::required(path_of(idx, "containerPort")));
    } else {
      for (const auto& msg : is_valid_port_num(container_port)) {
        errs.push_back(
            api::invalid(path_of(idx, "containerPort"), json::value(container_port), msg));
      }
    }
    const std::int64_t host_port = int_member(port, "hostPort").value_or(0);
    if (host_port != 0) {
      for (const auto& msg : is_valid_port_num(host_port)) {
        errs.push_back(api::invalid(path_of(idx, "hostPort"), json::value(host_port), msg));
      }
    }
    const std::string_view protocol = string_member(port, "protocol");
    validate_port_protocol(protocol, path_of(idx, "protocol"), errs);
  }
}

void validate_key_selector(const json::object& s, std::string_view field, Errs& errs) {
  const std::string_view name = string_member(s, "name");
  append_invalid(path_of(field, "name"), name, api::name_is_dns_subdomain(name, false), errs);
  const std::string_view key = string_member(s, "key");
  if (key.empty()) {
    errs.push_back(api::required(path_of(field, "key")));
  } else {
    append_invalid(path_of(field, "key"), key, is_config_map_key(key), errs);
  }
}

void validate_env(const json::object& c, std::string_view field, Errs& errs) {
  const json::array* env = array_member(c, "env");
  if (env == nullptr) return;
  for (std::size_t i = 0; i < env->size(); ++i) {
    const json::object& var = object_or_empty((*env)[i]);
    const std::string idx = api::index(field, i);
    const std::string_view name = string_member(var, "name");
    if (name.empty()) {
      errs.push_back(api::required(path_of(idx, "name")));
    } else {
      append_invalid(path_of(idx, "name"), name, is_relaxed_env_var_name(name), errs);
    }
    const json::object* from = object_member(var, "valueFrom");
    if (from == nullptr) continue;
    const std::string fpath = path_of(idx, "valueFrom");
    int sources = 0;
    if (const json::object* r = object_member(*from, "fieldRef")) {
      ++sources;
      validate_object_field_selector(*r, DownwardApiUse::kEnv, path_of(fpath, "fieldRef"), errs);
    }
    if (const json::object* r = object_member(*from, "resourceFieldRef")) {
      ++sources;
      validate_resource_field_selector(*r, DownwardApiUse::kEnv, path_of(fpath, "resourceFieldRef"),
                                       errs);
    }
    if (const json::object* r = object_member(*from, "configMapKeyRef")) {
      ++sources;
      validate_key_selector(*r, path_of(fpath, "configMapKeyRef"), errs);
    }
    if (const json::object* r = object_member(*from, "secretKeyRef")) {
      ++sources;
      validate_key_selector(*r, path_of(fpath, "secretKeyRef"), errs);
    }
    if (sources == 0) {
      errs.push_back(api::invalid(fpath, json::value(""),
                                  "must specify one of: `fieldRef`, `resourceFieldRef`, "
                                  "`configMapKeyRef` or `secretKeyRef`"));
    } else if (!string_member(var, "value").empty()) {
      errs.push_back(
          api::invalid(fpath, json::value(""), "may not be specified when `value` is not empty"));
    } else if (sources > 1) {
      errs.push_back(api::invalid(fpath, json::value(""),
                                  "may not have more than one field specified at a time"));
    }
  }
}

void validate_env_from(const json::object& c, std::string_view field, Errs& errs) {
  const json::array* env_from = array_member(c, "envFrom");
  if (env_from == nullptr) return;
  for (std::size_t i = 0; i < env_from->size(); ++i) {
    const json::object& ev = object_or_empty((*env_from)[i]);
    const std::string idx = api::index(field, i);
    const std::string_view prefix = string_member(ev, "prefix");
    if (!prefix.empty()) {
      append_invalid(path_of(idx, "prefix"), prefix, is_relaxed_env_var_name(prefix), errs);
    }
    int sources = 0;
    for (std::string_view key : {"configMapRef", "secretRef"}) {
      const json::object* ref = object_member(ev, key);
      if (ref == nullptr) continue;
      ++sources;
      const std::string name_path = path_of(path_of(idx, key), "name");
      const std::string_view name = string_member(*ref, "name");
      if (name.empty()) {
        errs.push_back(api::required(name_path));
      } else {
        append_invalid(name_path, name, api::name_is_dns_subdomain(name, true), errs);
      }
    }
    if (sources == 0) {
      errs.push_back(api::invalid(std::string(field), json::value(""),
                                  "must specify one of: `configMapRef` or `secretRef`"));
    } else if (sources > 1) {
      errs.push_back(api::invalid(std::string(field), json::value(""),
                                  "may not have more than one field specified at a time"));
    }
  }
}

// name -> path of the container's volumeMounts / volumeDevices.
std::map<std::string, std::string> path_map(const json::object& c, std::string_view key,
                                            std::string_view path_key) {
  std::map<std::string, std::string> out;
  if (const json::array* list = array_member(c, key)) {
    for (const auto& v : *list) {
      const json::object& o = object_or_empty(v);
      out[std::string(string_member(o, "name"))] = std::string(string_member(o, path_key));
    }
  }
  return out;
}

bool path_in(const std::map<std::string, std::string>& m, std::string_view path) {
  for (const auto& kv : m) {
    if (kv.second == path) return true;
  }
  return false;
}

void validate_volume_mounts(const json::object& c, const ContainerContext& ctx,
                            std::string_view field, Errs& errs) {
  const json::array* mounts = array_member(c, "volumeMounts");
  if (mounts == nullptr) return;
  const auto devices = path_map(c, "volumeDevices", "devicePath");
  std::set<std::string> mount_points;
  const json::object* sc = object_member(c, "securityContext");
  const bool privileged = sc != nullptr && opt_bool_member(*sc, "privileged") == true;
  for (std::size_t i = 0; i < mounts->size(); ++i) {
    const json::object& m = object_or_empty((*mounts)[i]);
    const std::string idx = api::index(field, i);
    const std::string name(string_member(m, "name"));
    const std::string mount_path(string_member(m, "mountPath"));
    if (name.empty()) errs.push_back(api::required(path_of(idx, "name")));
    const auto vol = ctx.volumes->find(name);
    if (vol == ctx.volumes->end()) {
      errs.push_back({api::FieldErrorType::kNotFound, path_of(idx, "name"), json::value(name), {}});
    }
    if (mount_path.empty()) errs.push_back(api::required(path_of(idx, "mountPath")));
    if (!mount_points.insert(mount_path).second) {
      errs.push_back(
          api::invalid(path_of(idx, "mountPath"), json::value(mount_path), "must be unique"));
    }
    if (devices.contains(name)) {
      errs.push_back(api::invalid(path_of(idx, "name"), json::value(name),
                                  "must not already exist in volumeDevices"));
    }
    if (path_in(devices, mount_path)) {
      errs.push_back(api::invalid(path_of(idx, "mountPath"), json::value(mount_path),
                                  "must not already exist as a path in volumeDevices"));
    }
    const std::string_view sub_path = string_member(m, "subPath");
    const std::string_view sub_path_expr = string_member(m, "subPathExpr");
    if (vol != ctx.volumes->end() && vol->second.image) {
      if (!sub_path.empty()) {
        errs.push_back(api::invalid(path_of(idx, "subPath"), json::value(sub_path),
                                    "not allowed in image volume sources"));
      }
      if (!sub_path_expr.empty()) {
        errs.push_back(api::invalid(path_of(idx, "subPathExpr"), json::value(sub_path_expr),
                                    "not allowed in image volume sources"));
      }
    }
    // Upstream reports these on the list's path.
    if (!sub_path.empty())
      validate_local_descending_path(sub_path, path_of(field, "subPath"), errs);
    if (!sub_path_expr.empty()) {
      if (!sub_path.empty()) {
        errs.push_back(api::invalid(path_of(idx, "subPathExpr"), json::value(sub_path_expr),
                                    "subPathExpr and subPath are mutually exclusive"));
      }
      validate_local_descending_path(sub_path_expr, path_of(field, "subPathExpr"), errs);
    }
    const json::value* propagation = member(m, "mountPropagation");
    const std::string_view prop = api::as_string_view(propagation);
    if (propagation != nullptr) {
      const std::string prop_path = path_of(field, "mountPropagation");
      if (prop != "Bidirectional" && prop != "HostToContainer" && prop != "None") {
        errs.push_back(api::not_supported(prop_path, *propagation,
                                          {"Bidirectional", "HostToContainer", "None"}));
      }
      if (prop == "Bidirectional" && !privileged) {
        errs.push_back(
            api::forbidden(prop_path,
                           "Bidirectional mount propagation is available only to privileged "
                           "containers"));
      }
    }
    if (const json::value* rro = member(m, "recursiveReadOnly")) {
      const std::string rro_path = path_of(field, "recursiveReadOnly");
      const std::string_view r = api::as_string_view(rro);
      if (r == "Enabled" || r == "IfPossible") {
        if (!bool_member(m, "readOnly")) {
          errs.push_back(api::forbidden(rro_path, "may only be specified when readOnly is true"));
        }
        if (propagation != nullptr && prop != "None") {
          errs.push_back(api::forbidden(
              rro_path, "may only be specified when mountPropagation is None or not specified"));
        }
      } else if (r != "Disabled") {
        errs.push_back(api::not_supported(rro_path, *rro, {"Disabled", "Enabled", "IfPossible"}));
      }
    }
  }
}

void validate_volume_devices(const json::object& c, const ContainerContext& ctx,
                             std::string_view field, Errs& errs) {
  const json::array* devices = array_member(c, "volumeDevices");
  if (devices == nullptr) return;
  const auto mounts = path_map(c, "volumeMounts", "mountPath");
  std::set<std::string> paths, names;
  for (std::size_t i = 0; i < devices->size(); ++i) {
    const json::object& d = object_or_empty((*devices)[i]);
    const std::string idx = api::index(field, i);
    const std::string name(string_member(d, "name"));
    const std::string path(string_member(d, "devicePath"));
    const auto vol = ctx.volumes->find(name);
    if (name.empty()) errs.push_back(api::required(path_of(idx, "name")));
    if (names.contains(name)) {
      errs.push_back(api::invalid(path_of(idx, "name"), json::value(name), "must be unique"));
    }
    if (vol != ctx.volumes->end() && !vol->second.claim) {
      errs.push_back(api::invalid(path_of(idx, "name"), json::value(name),
                                  "can only use volume source type of PersistentVolumeClaim or "
                                  "Ephemeral for block mode"));
    }
    if (vol == ctx.volumes->end()) {
      errs.push_back({api::FieldErrorType::kNotFound, path_of(idx, "name"), json::value(name), {}});
    }
    if (path.empty()) errs.push_back(api::required(path_of(idx, "devicePath")));
    if (paths.contains(path)) {
      errs.push_back(api::invalid(path_of(idx, "devicePath"), json::value(path), "must be unique"));
    }
    Errs backsteps;
    validate_path_no_backsteps(path, "", backsteps);
    if (!path.empty() && !backsteps.empty()) {
      errs.push_back(api::invalid(path_of(idx, "devicePath"), json::value(path),
                                  "can not contain backsteps ('..')"));
    } else {
      paths.insert(path);
    }
    if (mounts.contains(name)) {
      errs.push_back(api::invalid(path_of(idx, "name"), json::value(name),
                                  "must not already exist in volumeMounts"));
    }
    if (path_in(mounts, path)) {
      errs.push_back(api::invalid(path_of(idx, "devicePath"), json::value(path),
                                  "must not already exist as a path in volumeMounts"));
    }
    if (!name.empty()) names.insert(name);
  }
}

void validate_resize_policy(const json::object& c, const ContainerContext& ctx,
                            std::string_view field, Errs& errs) {
  const json::array* policies = array_member(c, "resizePolicy");
  if (policies == nullptr) return;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < policies->size(); ++i) {
    const json::object& p = object_or_empty((*policies)[i]);
    const std::string name(string_member(p, "resourceName"));
    const std::string policy(string_member(p, "restartPolicy"));
    if (!seen.insert(name).second) {
      errs.push_back(api::duplicate(api::index(field, i), json::value(name)));
    }
    if (name.empty()) {
      errs.push_back(api::required(std::string(field)));
    } else if (name != "cpu" && name != "memory") {
      errs.push_back(api::not_supported(std::string(field), json::value(name), {"cpu", "memory"}));
    }
    if (policy.empty()) {
      errs.push_back(api::required(std::string(field)));
    } else if (policy != "NotRequired" && policy != "RestartContainer") {
      errs.push_back(api::not_supported(std::string(field), json::value(policy),
                                        {"NotRequired", "RestartContainer"}));
    }
    if (ctx.restart_policy == "Never" && policy != "NotRequired") {
      errs.push_back(api::invalid(std::string(field), json::value(policy),
                                  "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  }
}

void validate_container_common(const json::object& c, const ContainerContext& ctx,
                               std::string_view path, Errs& errs) {
  const std::string_view name = string_member(c, "name");
  if (name.empty()) {
    errs.push_back(api::required(path_of(path, "name")));
  } else {
    validate_dns1123_label(name, path_of(path, "name"), errs);
  }
  if (string_member(c, "image").empty()) errs.push_back(api::required(path_of(path, "image")));
  const std::string_view tmp = string_member(c, "terminationMessagePolicy");
  if (tmp.empty()) {
    errs.push_back(api::required(path_of(path, "terminationMessagePolicy")));
  } else if (tmp != "File" && tmp != "FallbackToLogsOnError") {
    errs.push_back(api::not_supported(path_of(path, "terminationMessagePolicy"), json::value(tmp),
                                      {"File", "FallbackToLogsOnError"}));
  }
  validate_ports(c, path_of(path, "ports"), errs);
  validate_env(c, path_of(path, "env"), errs);
  validate_env_from(c, path_of(path, "envFrom"), errs);
  validate_volume_mounts(c, ctx, path_of(path, "volumeMounts"), errs);
  validate_volume_devices(c, ctx, path_of(path, "volumeDevices"), errs);
  const std::string_view pull = string_member(c, "imagePullPolicy");
  if (pull.empty()) {
    errs.push_back(api::required(path_of(path, "imagePullPolicy")));
  } else if (pull != "Always" && pull != "IfNotPresent" && pull != "Never") {
    errs.push_back(api::not_supported(path_of(path, "imagePullPolicy"), json::value(pull),
                                      {"Always", "IfNotPresent", "Never"}));
  }
  validate_resource_requirements(object_member(c, "resources"), path_of(path, "resources"),
                                 ctx.pod_claim_names, ResourceLevel::kContainer, errs);
  validate_resize_policy(c, ctx, path_of(path, "resizePolicy"), errs);
  validate_container_security_context(object_member(c, "securityContext"),
                                      path_of(path, "securityContext"), ctx.host_users, errs);
}

// AccumulateUniqueHostPorts over `containers` (all of them, or one).
void check_host_ports(const json::array& containers, std::size_t only, std::string_view field,
                      Errs& errs) {
  std::set<std::string> seen;
  for (std::size_t ci = 0; ci < containers.size(); ++ci) {
    if (only != SIZE_MAX && ci != only) continue;
    const json::object& c = object_or_empty(containers[ci]);
    const json::array* ports = array_member(c, "ports");
    if (ports == nullptr) continue;
    for (std::size_t pi = 0; pi < ports->size(); ++pi) {
      const json::object& p = object_or_empty((*ports)[pi]);
      const std::int64_t host_port = int_member(p, "hostPort").value_or(0);
      if (host_port == 0) continue;
      const std::string key = fmt::format("{}/{}/{}", string_member(p, "protocol"),
                                          string_member(p, "hostIP"), host_port);
      if (!seen.insert(key).second) {
        // Upstream indexes init containers from 0 in this message.
        const std::size_t shown = only != SIZE_MAX ? 0 : ci;
        errs.push_back(api::duplicate(
            path_of(api::index(path_of(api::index(field, shown), "ports"), pi), "hostPort"),
            json::value(key)));
      }
    }
  }
}

}  // namespace

void validate_container_image_for_pod(const json::object& c, std::string_view field,
                                      api::FieldErrors& errs) {
  const std::string_view image = string_member(c, "image");
  const std::size_t first = image.find_first_not_of(" \t\n\r\v\f");
  const std::size_t last = image.find_last_not_of(" \t\n\r\v\f");
  const std::size_t trimmed = first == std::string_view::npos ? 0 : last - first + 1;
  if (trimmed != image.size()) {
    errs.push_back(api::invalid(path_of(field, "image"), json::value(image),
                                "must not have leading or trailing whitespace"));
  }
}

api::FieldErrors validate_containers(const json::array* containers, const ContainerContext& ctx,
                                     std::string_view field) {
  Errs errs;
  if (containers == nullptr || containers->empty()) {
    errs.push_back(api::required(std::string(field)));
    return errs;
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < containers->size(); ++i) {
    const json::object& c = object_or_empty((*containers)[i]);
    const std::string path = api::index(field, i);
    validate_container_common(c, ctx, path, errs);
    const std::string name(string_member(c, "name"));
    if (!names.insert(name).second) {
      errs.push_back(api::duplicate(path_of(path, "name"), json::value(name)));
    }
    validate_lifecycle(c, ctx, path, errs);
    validate_probe(c, "livenessProbe", ProbeKind::kLiveness, ctx, path, errs);
    validate_probe(c, "readinessProbe", ProbeKind::kReadiness, ctx, path, errs);
    validate_probe(c, "startupProbe", ProbeKind::kStartup, ctx, path, errs);
    if (has(c, "restartPolicy")) {
      errs.push_back(
          api::forbidden(path_of(path, "restartPolicy"), "may not be set for non-init containers"));
    }
  }
  check_host_ports(*containers, SIZE_MAX, field, errs);
  return errs;
}

api::FieldErrors validate_init_containers(const json::array* init, const json::array* regular,
                                          const ContainerContext& ctx, std::string_view field) {
  Errs errs;
  if (init == nullptr) return errs;
  std::set<std::string> names;
  if (regular != nullptr) {
    for (const auto& v : *regular)
      names.insert(std::string(string_member(object_or_empty(v), "name")));
  }
  for (std::size_t i = 0; i < init->size(); ++i) {
    const json::object& c = object_or_empty((*init)[i]);
    const std::string path = api::index(field, i);
    validate_container_common(c, ctx, path, errs);
    bool restart_always = false;
    if (const json::value* rp = member(c, "restartPolicy")) {
      restart_always = rp->is_string() && rp->get_string() == "Always";
      if (!restart_always) {
        errs.push_back(api::not_supported(path_of(path, "restartPolicy"), *rp, {"Always"}));
      }
    }
    const std::string name(string_member(c, "name"));
    if (names.contains(name)) {
      errs.push_back(api::duplicate(path_of(path, "name"), json::value(name)));
    } else if (!name.empty()) {
      names.insert(name);
    }
    check_host_ports(*init, i, field, errs);
    if (restart_always) {
      validate_lifecycle(c, ctx, path, errs);
      validate_probe(c, "livenessProbe", ProbeKind::kLiveness, ctx, path, errs);
      validate_probe(c, "readinessProbe", ProbeKind::kReadiness, ctx, path, errs);
      validate_probe(c, "startupProbe", ProbeKind::kStartup, ctx, path, errs);
    } else {
      for (std::string_view key :
           {"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"}) {
        if (has(c, key)) {
          errs.push_back(api::forbidden(path_of(path, key),
                                        "may not be set for init containers without "
                                        "restartPolicy=Always"));
        }
      }
    }
  }
  return errs;
}

api::FieldErrors validate_ephemeral_containers(const json::array* ephemeral,
                                               const json::array* regular, const json::array* init,
                                               const ContainerContext& ctx,
                                               std::string_view field) {
  Errs errs;
  if (ephemeral == nullptr || ephemeral->empty()) return errs;
  std::set<std::string> others;
  for (const json::array* list : {regular, init}) {
    if (list == nullptr) continue;
    for (const auto& v : *list)
      others.insert(std::string(string_member(object_or_empty(v), "name")));
  }
  std::set<std::string> all = others;
  for (std::size_t i = 0; i < ephemeral->size(); ++i) {
    const json::object& c = object_or_empty((*ephemeral)[i]);
    const std::string path = api::index(field, i);
    validate_container_common(c, ctx, path, errs);
    validate_container_image_for_pod(c, path, errs);
    const std::string name(string_member(c, "name"));
    if (!all.insert(name).second)
      errs.push_back(api::duplicate(path_of(path, "name"), json::value(name)));
    const std::string target(string_member(c, "targetContainerName"));
    if (!target.empty() && !others.contains(target)) {
      errs.push_back({api::FieldErrorType::kNotFound,
                      path_of(path, "targetContainerName"),
                      json::value(target),
                      {}});
    }
    // Members an ephemeral container may not set (an empty value is unset).
    for (std::string_view key : {"ports", "resources", "livenessProbe", "readinessProbe",
                                 "startupProbe", "lifecycle", "resizePolicy", "restartPolicy"}) {
      const json::value* v = member(c, key);
      if (v == nullptr) continue;
      const bool empty = (v->is_object() && v->get_object().empty()) ||
                         (v->is_array() && v->get_array().empty()) ||
                         (v->is_string() && v->get_string().empty());
      if (!empty) {
        errs.push_back(
            api::forbidden(path_of(path, key), "cannot be set for an Ephemeral Container"));
      }
    }
    if (const json::array* mounts = array_member(c, "volumeMounts")) {
      for (std::size_t j = 0; j < mounts->size(); ++j) {
        const json::object& m = object_or_empty((*mounts)[j]);
        const std::string mp = api::index(path_of(path, "volumeMounts"), j);
        if (!string_member(m, "subPath").empty()) {
          errs.push_back(
              api::forbidden(path_of(mp, "subPath"), "cannot be set for an Ephemeral Container"));
        }
        if (!string_member(m, "subPathExpr").empty()) {
          errs.push_back(api::forbidden(path_of(mp, "subPathExpr"),
                                        "cannot be set for an Ephemeral Container"));
        }
      }
    }
  }
  return errs;
}

}  // namespace kcm::local::registry
