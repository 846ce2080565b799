#include "local/openapi_v2/openapi_v2.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "api/schema/openapi_v2.h"
#include "local/openapi_v2/gnostic_encoder.h"

namespace kcm::local::openapi_v2 {
namespace {

namespace schema = api::schema;
using registry::ResourceInfo;

std::string capitalize(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

// The group's words, as upstream's operation ids and tags spell them:
// "" -> {"core"}, "coordination.k8s.io" -> {"coordination"},
// "rbac.authorization.k8s.io" -> {"rbac", "authorization"}.
std::vector<std::string> group_words(std::string_view group) {
  if (group.empty()) return {"core"};
  if (group.ends_with(".k8s.io")) group.remove_suffix(std::string_view(".k8s.io").size());
  std::vector<std::string> words;
  while (!group.empty()) {
    const auto dot = group.find('.');
    words.emplace_back(group.substr(0, dot));
    group = dot == std::string_view::npos ? std::string_view{} : group.substr(dot + 1);
  }
  return words;
}

// "AppsV1", "CoreV1", "CoordinationV1".
std::string group_version_id(const ResourceInfo& r) {
  std::string out;
  for (const auto& w : group_words(r.gvr.group))
    out += capitalize(w);
  return out + capitalize(r.gvr.version);
}

// "apps_v1", "core_v1", "rbacAuthorization_v1".
std::string tag(const ResourceInfo& r) {
  const auto words = group_words(r.gvr.group);
  std::string out = words.front();
  for (std::size_t i = 1; i < words.size(); ++i)
    out += capitalize(words[i]);
  return out + "_" + r.gvr.version;
}

std::string gv_prefix(const ResourceInfo& r) {
  return r.gvr.group.empty() ? "/api/" + r.gvr.version
                             : fmt::format("/apis/{}/{}", r.gvr.group, r.gvr.version);
}

json::object gvk_extension(const api::GroupVersionKind& g) {
  return {{"group", g.group}, {"kind", g.kind}, {"version", g.version}};
}

json::object query(std::string_view name, std::string_view type, std::string_view description) {
  return {{"description", description},
          {"in", "query"},
          {"name", name},
          {"type", type},
          {"uniqueItems", true}};
}

json::object path_parameter(std::string_view name, std::string_view description) {
  return {{"description", description}, {"in", "path"},     {"name", name},
          {"required", true},           {"type", "string"}, {"uniqueItems", true}};
}

// A kind the schema registry does not model yet has no definition: its
// bodies are then free-form objects (kubectl skips validating such kinds).
json::object body(std::string_view ref) {
  json::object schema =
      ref.empty() ? json::object{{"type", "object"}} : json::object{{"$ref", ref}};
  return {{"in", "body"}, {"name", "body"}, {"required", true}, {"schema", std::move(schema)}};
}

json::object pretty() {
  return query("pretty", "string", "If 'true', the output is indented.");
}
json::object dry_run() {
  return query("dryRun", "string",
               "When present, the request is checked but not persisted. The only valid value "
               "is All.");
}
json::object field_manager() {
  return query("fieldManager", "string",
               "The name of the actor making the change, used to track field ownership.");
}
json::object field_validation() {
  return query("fieldValidation", "string",
               "How the server treats unknown or duplicate fields in the body: Ignore, Warn or "
               "Strict.");
}

// The list and watch options of collection reads and deletecollection.
json::array list_options(bool watch) {
  json::array out;
  if (watch) {
    out.push_back(query("allowWatchBookmarks", "boolean",
                        "Asks for BOOKMARK events in a watch; the server may still omit them."));
  }
  out.push_back(query("continue", "string", "The continue token of the previous page."));
  out.push_back(query("fieldSelector", "string", "Selects objects by their fields."));
  out.push_back(query("labelSelector", "string", "Selects objects by their labels."));
  out.push_back(query("limit", "integer", "The most objects one page holds."));
  out.push_back(query("resourceVersion", "string", "The resource version to read at."));
  out.push_back(query("resourceVersionMatch", "string",
                      "How resourceVersion applies: Exact or NotOlderThan."));
  out.push_back(query("sendInitialEvents", "boolean",
                      "With watch, starts the stream with the current objects."));
  out.push_back(query("timeoutSeconds", "integer", "How long the call may last."));
  if (watch) {
    out.push_back(query("watch", "boolean", "Streams changes instead of returning a list."));
  }
  return out;
}

json::array delete_options() {
  return {query("gracePeriodSeconds", "integer",
                "Seconds before the object is deleted; 0 deletes at once."),
          query("orphanDependents", "boolean",
                "Deprecated: use propagationPolicy. Whether dependents are orphaned."),
          query("propagationPolicy", "string",
                "How dependents are garbage collected: Orphan, Background or Foreground.")};
}

// PodLogOptions, the query of pods/{name}/log.
json::array log_options() {
  return {query("container", "string", "The container whose log to read; optional with one."),
          query("follow", "boolean", "Keep streaming the log while the container runs."),
          query("insecureSkipTLSVerifyBackend", "boolean",
                "Do not verify the kubelet's serving certificate."),
          query("limitBytes", "integer", "The most bytes of log to return."),
          query("previous", "boolean", "The log of the container's previous run."),
          query("sinceSeconds", "integer", "Only the log of the last seconds."),
          query("tailLines", "integer", "Only the last lines."),
          query("timestamps", "boolean", "Prefix every line with its RFC 3339 time.")};
}

json::object response(std::string_view description, std::string_view ref) {
  json::object r{{"description", description}};
  if (!ref.empty()) r["schema"] = json::object{{"$ref", ref}};
  return r;
}

const json::array kProduces = {"application/json", "application/yaml",
                               "application/vnd.kubernetes.protobuf"};

// One operation; `codes` are the success codes answered with `ref`.
struct OperationSpec {
  std::string action;  // x-kubernetes-action
  std::string id;
  std::string description;
  api::GroupVersionKind gvk;
  json::array parameters;
  std::vector<std::pair<std::string, std::string>> codes;  // {"200", "OK"}, ...
  std::string ref;
  bool patch = false;
  bool watch_stream = false;
  // The answer is text (a pod's log): a string schema, text/plain first.
  bool text = false;
};

json::object operation(const ResourceInfo& r, OperationSpec spec) {
  json::object op;
  op["consumes"] =
      spec.patch
          ? json::array{"application/json-patch+json", "application/merge-patch+json",
                        "application/strategic-merge-patch+json", "application/apply-patch+yaml"}
          : json::array{"*/*"};
  op["description"] = spec.description;
  op["operationId"] = spec.id;
  // Reads take only the path's parameters; upstream then writes no list.
  if (!spec.parameters.empty()) op["parameters"] = std::move(spec.parameters);
  json::array produces = kProduces;
  if (spec.text) produces.insert(produces.begin(), "text/plain");
  if (spec.watch_stream) {
    produces.emplace_back("application/json;stream=watch");
    produces.emplace_back("application/vnd.kubernetes.protobuf;stream=watch");
  }
  op["produces"] = std::move(produces);
  json::object responses;
  for (const auto& [code, text] : spec.codes) {
    responses[code] = response(text, spec.ref);
    if (spec.text) responses[code].as_object()["schema"] = json::object{{"type", "string"}};
  }
  responses["401"] = response("Unauthorized", "");
  op["responses"] = std::move(responses);
  op["schemes"] = json::array{"https"};
  op["tags"] = json::array{tag(r)};
  op["x-kubernetes-action"] = spec.action;
  op["x-kubernetes-group-version-kind"] = gvk_extension(spec.gvk);
  return op;
}

json::array write_parameters(std::string_view body_ref, bool patch) {
  json::array out{body(body_ref), dry_run(), field_manager(), field_validation()};
  if (patch) {
    out.push_back(
        query("force", "boolean", "Apply requests only: take over fields other managers own."));
  }
  return out;
}

// The parameters every operation of a path shares: {name}, {namespace}, pretty.
json::array path_parameters(const ResourceInfo& r, bool named, bool namespaced) {
  json::array out;
  if (named) out.push_back(path_parameter("name", "Name of the " + r.kind + "."));
  if (namespaced) {
    out.push_back(path_parameter("namespace", "Namespace of the object."));
  }
  out.push_back(pretty());
  return out;
}

const std::vector<std::pair<std::string, std::string>> kOk = {{"200", "OK"}};
const std::vector<std::pair<std::string, std::string>> kOkCreated = {{"200", "OK"},
                                                                     {"201", "Created"}};
const std::vector<std::pair<std::string, std::string>> kOkCreatedAccepted = {
    {"200", "OK"}, {"201", "Created"}, {"202", "Accepted"}};
const std::vector<std::pair<std::string, std::string>> kOkAccepted = {{"200", "OK"},
                                                                      {"202", "Accepted"}};

void add_resource_paths(const ResourceInfo& r, json::object& paths) {
  const api::GroupVersionKind gvk = r.gvk();
  const std::string gv = group_version_id(r);
  const std::string scope = r.namespaced ? "Namespaced" : "";
  const std::string collection =
      gv_prefix(r) + (r.namespaced ? "/namespaces/{namespace}/" : "/") + r.gvr.resource;
  const std::string item = collection + "/{name}";
  const std::string object_ref = schema::openapi_v2_ref(gvk);
  const std::string list_ref = schema::openapi_v2_list_ref(gvk);
  const std::string status_ref = schema::openapi_v2_status_ref();

  json::object coll{{"parameters", path_parameters(r, false, r.namespaced)}};
  if (r.has_verb("list")) {
    coll["get"] = operation(r, {.action = "list",
                                .id = "list" + gv + scope + r.kind,
                                .description = "list or watch " + r.kind + " objects",
                                .gvk = gvk,
                                .parameters = list_options(true),
                                .codes = kOk,
                                .ref = list_ref,
                                .watch_stream = true});
  }
  if (r.has_verb("create")) {
    coll["post"] = operation(r, {.action = "post",
                                 .id = "create" + gv + scope + r.kind,
                                 .description = "create a " + r.kind,
                                 .gvk = gvk,
                                 .parameters = write_parameters(object_ref, false),
                                 .codes = kOkCreatedAccepted,
                                 .ref = object_ref});
  }
  if (r.has_verb("deletecollection")) {
    json::array params{body(schema::openapi_v2_delete_options_ref()), dry_run()};
    for (auto& p : delete_options())
      params.push_back(std::move(p));
    for (auto& p : list_options(false))
      params.push_back(std::move(p));
    // The body first, then by name, as upstream orders them.
    std::sort(params.begin() + 1, params.end(), [](const json::value& a, const json::value& b) {
      return a.at("name").get_string() < b.at("name").get_string();
    });
    coll["delete"] = operation(r, {.action = "deletecollection",
                                   .id = "delete" + gv + "Collection" + scope + r.kind,
                                   .description = "delete a collection of " + r.kind + " objects",
                                   .gvk = gvk,
                                   .parameters = std::move(params),
                                   .codes = kOk,
                                   .ref = status_ref});
  }
  paths[collection] = std::move(coll);

  json::object one{{"parameters", path_parameters(r, true, r.namespaced)}};
  if (r.has_verb("get")) {
    one["get"] = operation(r, {.action = "get",
                               .id = "read" + gv + scope + r.kind,
                               .description = "read the named " + r.kind,
                               .gvk = gvk,
                               .codes = kOk,
                               .ref = object_ref});
  }
  if (r.has_verb("update")) {
    one["put"] = operation(r, {.action = "put",
                               .id = "replace" + gv + scope + r.kind,
                               .description = "replace the named " + r.kind,
                               .gvk = gvk,
                               .parameters = write_parameters(object_ref, false),
                               .codes = kOkCreated,
                               .ref = object_ref});
  }
  if (r.has_verb("patch")) {
    one["patch"] =
        operation(r, {.action = "patch",
                      .id = "patch" + gv + scope + r.kind,
                      .description = "partially update the named " + r.kind,
                      .gvk = gvk,
                      .parameters = write_parameters(schema::openapi_v2_patch_ref(), true),
                      .codes = kOkCreated,
                      .ref = object_ref,
                      .patch = true});
  }
  if (r.has_verb("delete")) {
    json::array params{body(schema::openapi_v2_delete_options_ref()), dry_run()};
    for (auto& p : delete_options())
      params.push_back(std::move(p));
    one["delete"] = operation(r, {.action = "delete",
                                  .id = "delete" + gv + scope + r.kind,
                                  .description = "delete the named " + r.kind,
                                  .gvk = gvk,
                                  .parameters = std::move(params),
                                  .codes = kOkAccepted,
                                  .ref = r.delete_returns_object ? object_ref : status_ref});
  }
  if (one.size() > 1) paths[item] = std::move(one);  // more than its parameters

  // Every namespace at once: GET /apis/apps/v1/deployments.
  if (r.namespaced && r.has_verb("list")) {
    paths[gv_prefix(r) + "/" + r.gvr.resource] = json::object{
        {"get",
         operation(r, {.action = "list",
                       .id = "list" + gv + r.kind + "ForAllNamespaces",
                       .description = "list or watch " + r.kind + " objects in every namespace",
                       .gvk = gvk,
                       .parameters = list_options(true),
                       .codes = kOk,
                       .ref = list_ref,
                       .watch_stream = true})},
        {"parameters", json::array{pretty()}}};
  }

  for (const auto& s : r.subresources) {
    const std::string ref = schema::openapi_v2_ref(s.response_kind);
    const std::string suffix = capitalize(s.name);
    const auto has = [&](std::string_view verb) {
      return std::find(s.verbs.begin(), s.verbs.end(), verb) != s.verbs.end();
    };
    json::object sub{{"parameters", path_parameters(r, true, r.namespaced)}};
    if (has("get")) {
      // A pod's log is text with PodLogOptions, as upstream publishes it.
      const bool log = s.name == "log";
      sub["get"] = operation(r, {.action = "get",
                                 .id = "read" + gv + scope + r.kind + suffix,
                                 .description = "read " + s.name + " of the named " + r.kind,
                                 .gvk = s.response_kind,
                                 .parameters = log ? log_options() : json::array(),
                                 .codes = kOk,
                                 .ref = log ? "" : ref,
                                 .text = log});
    }
    if (has("update")) {
      sub["put"] = operation(r, {.action = "put",
                                 .id = "replace" + gv + scope + r.kind + suffix,
                                 .description = "replace " + s.name + " of the named " + r.kind,
                                 .gvk = s.response_kind,
                                 .parameters = write_parameters(ref, false),
                                 .codes = kOkCreated,
                                 .ref = ref});
    }
    if (has("patch")) {
      sub["patch"] =
          operation(r, {.action = "patch",
                        .id = "patch" + gv + scope + r.kind + suffix,
                        .description = "partially update " + s.name + " of the named " + r.kind,
                        .gvk = s.response_kind,
                        .parameters = write_parameters(schema::openapi_v2_patch_ref(), true),
                        .codes = kOkCreated,
                        .ref = ref,
                        .patch = true});
    }
    if (has("create")) {
      sub["post"] = operation(r, {.action = "post",
                                  .id = "create" + gv + scope + r.kind + suffix,
                                  .description = "create " + s.name + " of a " + r.kind,
                                  .gvk = s.response_kind,
                                  .parameters = write_parameters(ref, false),
                                  .codes = kOkCreatedAccepted,
                                  .ref = ref});
    }
    paths[item + "/" + s.name] = std::move(sub);
  }
}

}  // namespace

json::value openapi_v2_json(const registry::ResourceTable& table) {
  json::object paths;
  std::vector<api::GroupVersionKind> kinds;
  const auto add_kind = [&](const api::GroupVersionKind& g) {
    if (std::find(kinds.begin(), kinds.end(), g) == kinds.end()) kinds.push_back(g);
  };
  for (const auto& r : table.all()) {
    add_resource_paths(*r, paths);
    add_kind(r->gvk());
    for (const auto& s : r->subresources)
      add_kind(s.response_kind);
  }
  json::value doc = json::object{
      {"definitions", schema::openapi_v2_definitions(kinds)},
      {"info", json::object{{"title", "Kubernetes"}, {"version", "v1.32.4"}}},
      {"paths", std::move(paths)},
      {"swagger", "2.0"},
  };
  schema::sort_object_keys(doc);
  return doc;
}

std::string openapi_v2_protobuf(const registry::ResourceTable& table) {
  auto bytes = encode_gnostic_document(openapi_v2_json(table));
  if (!bytes) {
    std::fprintf(stderr, "kcm-local: cannot encode the OpenAPI v2 document: %s\n",
                 bytes.error().c_str());
    return {};
  }
  return std::move(bytes).value();
}

}  // namespace kcm::local::openapi_v2
