#include "client/kubeconfig.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <set>

#include "api/base64.h"
#include "api/json.h"
#include "api/yaml.h"

namespace kcm::client {
namespace {

namespace json = api::json;

constexpr std::string_view kExecExtensionKey = "client.authentication.k8s.io/exec";
constexpr std::string_view kEmptyConfigMessage =
    "no configuration has been provided, try setting KUBERNETES_MASTER environment variable";
constexpr std::string_view kEmptyClusterMessage = "cluster has no server defined";

std::string type_error(const std::string& path, std::string_view want, const json::value& got) {
  return fmt::format("{}: expected {}, got {}", path, want, api::json_type_name(got));
}

// Field readers over one JSON object. A null or absent member leaves the
// target untouched, as Go's decoder does.
class Fields {
 public:
  Fields(const json::object& o, std::string path) : o_(o), path_(std::move(path)) {}

  std::string at(std::string_view key) const {
    return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
  }
  const json::value* get(std::string_view key) const {
    const json::value* v = o_.if_contains(key);
    return v == nullptr || v->is_null() ? nullptr : v;
  }

  Result<void> string(std::string_view key, std::string& out) const {
    const json::value* v = get(key);
    if (v == nullptr) return {};
    if (!v->is_string()) return fail(type_error(at(key), "string", *v));
    out = std::string(v->get_string());
    return {};
  }
  Result<void> boolean(std::string_view key, bool& out) const {
    const json::value* v = get(key);
    if (v == nullptr) return {};
    if (!v->is_bool()) return fail(type_error(at(key), "boolean", *v));
    out = v->get_bool();
    return {};
  }
  // []byte fields: standard base64 in the file, decoded here.
  Result<void> bytes(std::string_view key, std::string& out) const {
    const json::value* v = get(key);
    if (v == nullptr) return {};
    if (!v->is_string()) return fail(type_error(at(key), "string", *v));
    auto decoded = api::base64_decode(v->get_string());
    if (!decoded) return fail(fmt::format("{}: {}", at(key), decoded.error()));
    out = std::move(*decoded);
    return {};
  }
  Result<const json::object*> object(std::string_view key) const {
    const json::value* v = get(key);
    if (v == nullptr) return static_cast<const json::object*>(nullptr);
    if (!v->is_object()) return fail(type_error(at(key), "object", *v));
    return &v->get_object();
  }
  Result<const json::array*> array(std::string_view key) const {
    const json::value* v = get(key);
    if (v == nullptr) return static_cast<const json::array*>(nullptr);
    if (!v->is_array()) return fail(type_error(at(key), "array", *v));
    return &v->get_array();
  }

 private:
  const json::object& o_;
  std::string path_;
};

#define KCM_TRY(expr)                                   \
  do {                                                  \
    if (auto _r = (expr); !_r) return fail(_r.error()); \
  } while (0)

Result<void> parse_cluster(const Fields& f, KubeconfigCluster& c) {
  KCM_TRY(f.string("server", c.server));
  KCM_TRY(f.string("tls-server-name", c.tls_server_name));
  KCM_TRY(f.boolean("insecure-skip-tls-verify", c.insecure_skip_tls_verify));
  KCM_TRY(f.string("certificate-authority", c.certificate_authority));
  KCM_TRY(f.bytes("certificate-authority-data", c.certificate_authority_data));
  KCM_TRY(f.string("proxy-url", c.proxy_url));
  KCM_TRY(f.boolean("disable-compression", c.disable_compression));
  auto extensions = f.array("extensions");
  if (!extensions) return fail(extensions.error());
  if (*extensions != nullptr) {
    for (std::size_t i = 0; i < (*extensions)->size(); ++i) {
      const json::value& e = (**extensions)[i];
      const std::string path = fmt::format("{}[{}]", f.at("extensions"), i);
      if (!e.is_object()) return fail(type_error(path, "object", e));
      const Fields ef(e.get_object(), path);
      std::string name;
      KCM_TRY(ef.string("name", name));
      if (name == kExecExtensionKey) {
        if (const json::value* ext = ef.get("extension"))
          c.exec_extension_json = api::to_json_string(*ext);
      }
    }
  }
  return {};
}

Result<void> parse_exec(const Fields& f, ExecConfig& e) {
  KCM_TRY(f.string("command", e.command));
  auto args = f.array("args");
  if (!args) return fail(args.error());
  if (*args != nullptr) {
    for (std::size_t i = 0; i < (*args)->size(); ++i) {
      const json::value& a = (**args)[i];
      if (a.is_null()) {
        e.args.emplace_back();
        continue;
      }
      if (!a.is_string())
        return fail(type_error(fmt::format("{}[{}]", f.at("args"), i), "string", a));
      e.args.emplace_back(a.get_string());
    }
  }
  auto env = f.array("env");
  if (!env) return fail(env.error());
  if (*env != nullptr) {
    for (std::size_t i = 0; i < (*env)->size(); ++i) {
      const json::value& v = (**env)[i];
      const std::string path = fmt::format("{}[{}]", f.at("env"), i);
      if (!v.is_object()) return fail(type_error(path, "object", v));
      const Fields vf(v.get_object(), path);
      std::pair<std::string, std::string> kv;
      KCM_TRY(vf.string("name", kv.first));
      KCM_TRY(vf.string("value", kv.second));
      e.env.push_back(std::move(kv));
    }
  }
  KCM_TRY(f.string("apiVersion", e.api_version));
  KCM_TRY(f.string("installHint", e.install_hint));
  KCM_TRY(f.boolean("provideClusterInfo", e.provide_cluster_info));
  KCM_TRY(f.string("interactiveMode", e.interactive_mode));
  // clientcmd/api/v1 defaulting: the older plugin versions were interactive when possible.
  if (e.interactive_mode.empty() && (e.api_version == "client.authentication.k8s.io/v1beta1" ||
                                     e.api_version == "client.authentication.k8s.io/v1alpha1")) {
    e.interactive_mode = "IfAvailable";
  }
  return {};
}

Result<void> parse_user(const Fields& f, KubeconfigAuthInfo& u) {
  KCM_TRY(f.string("client-certificate", u.client_certificate));
  KCM_TRY(f.bytes("client-certificate-data", u.client_certificate_data));
  KCM_TRY(f.string("client-key", u.client_key));
  KCM_TRY(f.bytes("client-key-data", u.client_key_data));
  KCM_TRY(f.string("token", u.token));
  KCM_TRY(f.string("tokenFile", u.token_file));
  KCM_TRY(f.string("username", u.username));
  KCM_TRY(f.string("password", u.password));
  auto provider = f.object("auth-provider");
  if (!provider) return fail(provider.error());
  if (*provider != nullptr) {
    KCM_TRY(Fields(**provider, f.at("auth-provider")).string("name", u.auth_provider));
  }
  auto exec = f.object("exec");
  if (!exec) return fail(exec.error());
  if (*exec != nullptr) {
    ExecConfig e;
    KCM_TRY(parse_exec(Fields(**exec, f.at("exec")), e));
    u.exec = std::move(e);
  }
  return {};
}

Result<void> parse_context(const Fields& f, KubeconfigContext& c) {
  KCM_TRY(f.string("cluster", c.cluster));
  KCM_TRY(f.string("user", c.user));
  KCM_TRY(f.string("namespace", c.namespace_name));
  return {};
}

// A list of {name, <item>: {...}} turned into a map; a repeated name is an
// error, as clientcmd's v1 conversion reports it.
template <class T, class ParseFn>
Result<void> parse_named_list(const Fields& root, std::string_view list_key,
                              std::string_view item_key, std::string_view go_types,
                              std::map<std::string, T>& out, ParseFn parse) {
  auto list = root.array(list_key);
  if (!list) return fail(list.error());
  if (*list == nullptr) return {};
  for (std::size_t i = 0; i < (*list)->size(); ++i) {
    const json::value& v = (**list)[i];
    const std::string path = fmt::format("{}[{}]", list_key, i);
    if (v.is_null()) continue;
    if (!v.is_object()) return fail(type_error(path, "object", v));
    const Fields nf(v.get_object(), path);
    std::string name;
    KCM_TRY(nf.string("name", name));
    T item{};
    auto body = nf.object(item_key);
    if (!body) return fail(body.error());
    if (*body != nullptr) KCM_TRY(parse(Fields(**body, nf.at(item_key)), item));
    if (out.count(name) != 0) {
      return fail(
          fmt::format("error converting {}: duplicate name \"{}\" in list", go_types, name));
    }
    out.emplace(std::move(name), std::move(item));
  }
  return {};
}

void set_origin(Kubeconfig& c, const std::string& origin) {
  for (auto& [_, v] : c.clusters)
    v.location_of_origin = origin;
  for (auto& [_, v] : c.users)
    v.location_of_origin = origin;
  for (auto& [_, v] : c.contexts)
    v.location_of_origin = origin;
}

bool is_absolute(std::string_view p) {
  return !p.empty() && p.front() == '/';
}

// filepath.Clean, for the joined paths ResolveLocalPaths produces.
std::string clean_path(std::string_view p) {
  const bool rooted = is_absolute(p);
  std::vector<std::string_view> parts;
  std::size_t i = 0;
  while (i <= p.size()) {
    std::size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    const std::string_view part = p.substr(i, j - i);
    if (part.empty() || part == ".") {
    } else if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!rooted) {
        parts.push_back(part);
      }
    } else {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string out = rooted ? "/" : "";
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k > 0) out += '/';
    out += parts[k];
  }
  return out.empty() ? "." : out;
}

// filepath.Abs(filepath.Dir(file)).
std::string absolute_dir(const std::string& file) {
  std::string dir;
  const auto slash = file.rfind('/');
  if (slash == std::string::npos) {
    dir = ".";
  } else {
    dir = file.substr(0, slash == 0 ? 1 : slash);
  }
  if (!is_absolute(dir)) {
    std::string cwd(4096, '\0');
    if (::getcwd(cwd.data(), cwd.size()) != nullptr) {
      cwd.resize(std::char_traits<char>::length(cwd.c_str()));
      dir = cwd + "/" + dir;
    }
  }
  return clean_path(dir);
}

void resolve(std::string& ref, const std::string& base) {
  if (!ref.empty() && !is_absolute(ref)) ref = clean_path(base + "/" + ref);
}

void resolve_local_paths(Kubeconfig& c) {
  for (auto& [_, cluster] : c.clusters) {
    if (cluster.location_of_origin.empty()) continue;
    resolve(cluster.certificate_authority, absolute_dir(cluster.location_of_origin));
  }
  for (auto& [_, user] : c.users) {
    if (user.location_of_origin.empty()) continue;
    const std::string base = absolute_dir(user.location_of_origin);
    resolve(user.client_certificate, base);
    resolve(user.client_key, base);
    resolve(user.token_file, base);
    // A bare command name is looked up in PATH; only paths are resolved.
    if (user.exec && user.exec->command.find('/') != std::string::npos) {
      resolve(user.exec->command, base);
    }
  }
}

std::string aggregate(const std::vector<std::string>& errors) {
  if (errors.size() == 1) return errors.front();
  std::set<std::string> seen;
  std::string joined;
  for (const auto& e : errors) {
    if (!seen.insert(e).second) continue;
    if (seen.size() > 1) joined += ", ";
    joined += e;
  }
  return seen.size() == 1 ? joined : "[" + joined + "]";
}

// os.Open's failure text, or nullopt when the file opens.
std::optional<std::string> open_error(const std::string& path) {
  auto data = read_file_go(path);
  if (data) return std::nullopt;
  // A directory opens fine in Go; only the read fails.
  if (data.error().rfind("read ", 0) == 0) return std::nullopt;
  return data.error();
}

std::optional<std::string> proxy_url_error(const std::string& url) {
  const auto colon = url.find("://");
  std::string scheme = colon == std::string::npos ? "" : url.substr(0, colon);
  for (char& ch : scheme)
    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (scheme == "http" || scheme == "https" || scheme == "socks5") return std::nullopt;
  return fmt::format("unsupported scheme \"{}\", must be http, https, or socks5", scheme);
}

std::vector<std::string> validate_cluster(const std::string& name, const KubeconfigCluster& c) {
  std::vector<std::string> errors;
  // clientcmd compares with a zero Cluster, origin included: an entry read
  // from a file is never "empty".
  const bool empty = c.location_of_origin.empty() && c.exec_extension_json.empty() &&
                     c.server.empty() && c.tls_server_name.empty() && !c.insecure_skip_tls_verify &&
                     c.certificate_authority.empty() && c.certificate_authority_data.empty() &&
                     c.proxy_url.empty() && !c.disable_compression;
  if (empty) return {std::string(kEmptyClusterMessage)};
  if (c.server.empty()) {
    errors.push_back(name.empty() ? "default cluster has no server defined"
                                  : fmt::format("no server found for cluster \"{}\"", name));
  }
  if (!c.proxy_url.empty()) {
    if (auto err = proxy_url_error(c.proxy_url)) {
      errors.push_back(fmt::format("invalid 'proxy-url' \"{}\" for cluster \"{}\": {}", c.proxy_url,
                                   name, *err));
    }
  }
  if (!c.certificate_authority.empty() && !c.certificate_authority_data.empty()) {
    errors.push_back(fmt::format(
        "certificate-authority-data and certificate-authority are both specified for {}. "
        "certificate-authority-data will override.",
        name));
  }
  if (!c.certificate_authority.empty()) {
    if (auto err = open_error(c.certificate_authority)) {
      errors.push_back(fmt::format("unable to read certificate-authority {} for {} due to {}",
                                   c.certificate_authority, name, *err));
    }
  }
  return errors;
}

std::vector<std::string> validate_auth_info(const std::string& name, const KubeconfigAuthInfo& u) {
  std::vector<std::string> errors;
  std::vector<std::string_view> methods;
  if (!u.token.empty()) methods.push_back("token");
  if (!u.username.empty() || !u.password.empty()) methods.push_back("basicAuth");

  if (!u.client_certificate.empty() || !u.client_certificate_data.empty()) {
    if (!u.client_certificate.empty() && !u.client_certificate_data.empty()) {
      errors.push_back(fmt::format(
          "client-cert-data and client-cert are both specified for {}. client-cert-data will "
          "override.",
          name));
    }
    if (!u.client_key.empty() && !u.client_key_data.empty()) {
      errors.push_back(fmt::format(
          "client-key-data and client-key are both specified for {}; client-key-data will override",
          name));
    }
    if (u.client_key.empty() && u.client_key_data.empty()) {
      errors.push_back(fmt::format(
          "client-key-data or client-key must be specified for {} to use the clientCert "
          "authentication method.",
          name));
    }
    if (!u.client_certificate.empty()) {
      if (auto err = open_error(u.client_certificate)) {
        errors.push_back(fmt::format("unable to read client-cert {} for {} due to {}",
                                     u.client_certificate, name, *err));
      }
    }
    if (!u.client_key.empty()) {
      if (auto err = open_error(u.client_key)) {
        errors.push_back(
            fmt::format("unable to read client-key {} for {} due to {}", u.client_key, name, *err));
      }
    }
  }

  if (u.exec) {
    if (!u.auth_provider.empty()) {
      errors.push_back(fmt::format(
          "authProvider cannot be provided in combination with an exec plugin for {}", name));
    }
    if (u.exec->command.empty()) {
      errors.push_back(
          fmt::format("command must be specified for {} to use exec authentication plugin", name));
    }
    if (u.exec->api_version.empty()) {
      errors.push_back(fmt::format(
          "apiVersion must be specified for {} to use exec authentication plugin", name));
    }
    for (const auto& [env_name, _] : u.exec->env) {
      if (env_name.empty()) {
        errors.push_back(fmt::format(
            "env variable name must be specified for {} to use exec authentication plugin", name));
      }
    }
    const std::string& mode = u.exec->interactive_mode;
    if (mode.empty()) {
      errors.push_back(fmt::format(
          "interactiveMode must be specified for {} to use exec authentication plugin", name));
    } else if (mode != "Never" && mode != "IfAvailable" && mode != "Always") {
      errors.push_back(fmt::format("invalid interactiveMode for {}: \"{}\"", name, mode));
    }
  }

  if (methods.size() > 1) {
    errors.push_back(fmt::format(
        "more than one authentication method found for {}; found [{}], only one is allowed", name,
        fmt::join(methods, " ")));
  }
  return errors;
}

// cleanANSIEscapeCodes for the bytes kcm sees: control characters other than
// \t..\r are shown as U+XXXX so an install hint cannot drive the terminal.
std::string clean_ansi_escape_codes(std::string_view s) {
  std::string out;
  for (const char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    if ((u < 0x20 && (u < 0x09 || u > 0x0d)) || u == 0x7f) {
      out += fmt::format("U+{:04X}", u);
    } else {
      out += ch;
    }
  }
  return out;
}

bool has_scheme(std::string_view host) {
  const auto colon = host.find("://");
  if (colon == std::string_view::npos || colon == 0) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    const char ch = host[i];
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '+' && ch != '-' && ch != '.') {
      return false;
    }
  }
  return true;
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  }
  return true;
}

// The query and fragment of a server URL that has a path are dropped, as
// DirectClientConfig does.
std::string strip_query_if_path(std::string host) {
  const auto scheme_end = host.find("://");
  if (scheme_end == std::string::npos) return host;
  const auto path = host.find('/', scheme_end + 3);
  if (path == std::string::npos) return host;
  const auto cut = host.find_first_of("?#", path);
  const std::size_t path_len = (cut == std::string::npos ? host.size() : cut) - path;
  if (path_len > 1 && cut != std::string::npos) host.resize(cut);
  return host;
}

}  // namespace

Result<Kubeconfig> parse_kubeconfig(std::string_view text) {
  Kubeconfig config;
  if (text.empty()) return config;
  auto doc = api::parse_yaml(text);
  if (!doc) return fail(doc.error());
  if (doc->is_null()) return config;
  if (!doc->is_object()) {
    return fail(fmt::format("expected a kubeconfig object, got {}", api::json_type_name(*doc)));
  }
  const Fields root(doc->get_object(), "");
  std::string api_version;
  std::string kind;
  KCM_TRY(root.string("apiVersion", api_version));
  KCM_TRY(root.string("kind", kind));
  if (!api_version.empty() && api_version != "v1") {
    return fail(fmt::format("no kind \"{}\" is registered for version \"{}\"",
                            kind.empty() ? "Config" : kind, api_version));
  }
  if (!kind.empty() && kind != "Config") {
    return fail(fmt::format("no kind \"{}\" is registered for version \"v1\"", kind));
  }
  KCM_TRY(parse_named_list(root, "clusters", "cluster",
                           "*[]NamedCluster into *map[string]*api.Cluster", config.clusters,
                           parse_cluster));
  KCM_TRY(parse_named_list(root, "users", "user", "*[]NamedAuthInfo into *map[string]*api.AuthInfo",
                           config.users, parse_user));
  KCM_TRY(parse_named_list(root, "contexts", "context",
                           "*[]NamedContext into *map[string]*api.Context", config.contexts,
                           parse_context));
  KCM_TRY(root.string("current-context", config.current_context));
  return config;
}

Result<Kubeconfig> load_kubeconfig_file(const std::string& path) {
  auto data = read_file_go(path);
  if (!data) return fail(data.error());
  auto config = parse_kubeconfig(*data);
  if (!config) return fail(config.error());
  set_origin(*config, path);
  return config;
}

Result<Kubeconfig> load_kubeconfig_files(const std::vector<std::string>& paths,
                                         bool explicit_path) {
  if (explicit_path && !paths.empty()) {
    struct stat st {};
    if (::stat(paths.front().c_str(), &st) != 0 && errno == ENOENT) {
      return fail(fmt::format("stat {}: {}", paths.front(), go_errno_text(ENOENT)));
    }
  }
  Kubeconfig merged;
  std::vector<std::string> errors;
  for (const auto& path : paths) {
    if (path.empty()) continue;
    struct stat st {};
    if (!explicit_path && ::stat(path.c_str(), &st) != 0 && errno == ENOENT) continue;
    auto one = load_kubeconfig_file(path);
    if (!one) {
      errors.push_back(fmt::format("error loading config file \"{}\": {}", path, one.error()));
      continue;
    }
    // First file wins per name (the whole entry) and for current-context.
    merged.clusters.merge(one->clusters);
    merged.users.merge(one->users);
    merged.contexts.merge(one->contexts);
    if (merged.current_context.empty()) merged.current_context = one->current_context;
  }
  if (!errors.empty()) return fail(aggregate(errors));
  resolve_local_paths(merged);
  return merged;
}

std::vector<std::string> split_kubeconfig_list(std::string_view value) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::size_t i = 0;
  while (i <= value.size() && !value.empty()) {
    std::size_t j = value.find(':', i);
    if (j == std::string_view::npos) j = value.size();
    std::string part(value.substr(i, j - i));
    if (!part.empty() && seen.insert(part).second) out.push_back(std::move(part));
    i = j + 1;
  }
  return out;
}

Result<RestConfig> client_config(const Kubeconfig& config, const ConfigOverrides& overrides) {
  const bool context_required = !overrides.context.empty();
  const std::string context_name = context_required ? overrides.context : config.current_context;

  KubeconfigContext context;
  if (auto it = config.contexts.find(context_name); it != config.contexts.end()) {
    context = it->second;
  } else if (context_required) {
    return fail(fmt::format("context \"{}\" does not exist", context_name));
  }

  KubeconfigAuthInfo user;
  if (auto it = config.users.find(context.user); it != config.users.end()) user = it->second;

  KubeconfigCluster cluster;
  if (auto it = config.clusters.find(context.cluster); it != config.clusters.end()) {
    cluster = it->second;
  }
  if (!overrides.server.empty()) {
    cluster.server = overrides.server;
    // Setting --server drops the file's tls-server-name (the flag's own value, empty, wins).
    cluster.tls_server_name.clear();
  }

  // ConfirmUsable.
  std::vector<std::string> errors;
  if (!context_name.empty() && config.contexts.count(context_name) == 0) {
    errors.push_back(fmt::format("context was not found for specified context: {}", context_name));
  }
  for (auto& e : validate_auth_info(context.user, user))
    errors.push_back(std::move(e));
  for (auto& e : validate_cluster(context.cluster, cluster)) {
    errors.push_back(std::move(e));
  }
  if (errors.size() == 1 && errors.front() == kEmptyClusterMessage) {
    return fail(fmt::format("invalid configuration: {}", kEmptyConfigMessage));
  }
  if (!errors.empty()) return fail("invalid configuration: " + aggregate(errors));

  RestConfig rc;
  rc.source = cluster.location_of_origin.empty() ? std::string("flags")
                                                 : "kubeconfig " + cluster.location_of_origin;
  rc.host = strip_query_if_path(cluster.server);
  rc.proxy_url = cluster.proxy_url;
  rc.disable_compression = cluster.disable_compression;

  // Without a scheme client-go picks http (no TLS settings are known at this
  // point) and then applies no credentials or TLS settings at all.
  if (!has_scheme(rc.host)) {
    rc.host = "http://" + rc.host;
    return rc;
  }
  if (!starts_with_ci(rc.host, "https://")) return rc;

  // User identification.
  if (!user.token.empty()) {
    rc.bearer_token = user.token;
    rc.bearer_token_file = user.token_file;
  } else if (!user.token_file.empty()) {
    auto token = read_file_go(user.token_file);
    if (!token) return fail(token.error());
    rc.bearer_token = std::move(*token);
    rc.bearer_token_file = user.token_file;
  }
  if (!user.client_certificate.empty() || !user.client_certificate_data.empty()) {
    rc.client_cert_file = user.client_certificate;
    rc.client_key_file = user.client_key;
    if (!user.client_certificate_data.empty()) {
      rc.client_cert_pem = user.client_certificate_data;
    } else {
      auto pem = read_file_go(user.client_certificate);
      if (!pem) return fail(pem.error());
      rc.client_cert_pem = std::move(*pem);
    }
    if (!user.client_key_data.empty()) {
      rc.client_key_pem = user.client_key_data;
    } else {
      auto pem = read_file_go(user.client_key);
      if (!pem) return fail(pem.error());
      rc.client_key_pem = std::move(*pem);
    }
  }
  if (!user.username.empty() || !user.password.empty()) {
    rc.username = user.username;
    rc.password = user.password;
  }
  if (!user.auth_provider.empty()) {
    // kcm ships no auth-provider plugins (client-go's transport fails the same way).
    return fail(fmt::format("no Auth Provider found for name \"{}\"", user.auth_provider));
  }
  if (user.exec) {
    rc.exec = *user.exec;
    rc.exec->install_hint = clean_ansi_escape_codes(rc.exec->install_hint);
    rc.exec->cluster_config_json = cluster.exec_extension_json;
  }

  // Server identification.
  rc.ca_file = cluster.certificate_authority;
  if (!cluster.certificate_authority_data.empty()) {
    rc.ca_pem = cluster.certificate_authority_data;
  } else if (!cluster.certificate_authority.empty()) {
    auto pem = read_file_go(cluster.certificate_authority);
    if (!pem) return fail(pem.error());
    rc.ca_pem = std::move(*pem);
  }
  rc.insecure_skip_tls_verify = cluster.insecure_skip_tls_verify;
  rc.tls_server_name = cluster.tls_server_name;
  return rc;
}

bool is_empty_config_error(std::string_view error) {
  return error == "invalid configuration: " + std::string(kEmptyConfigMessage);
}

}  // namespace kcm::client
