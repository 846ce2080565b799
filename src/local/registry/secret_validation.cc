#include "local/registry/secret_validation.h"

#include <string>

#include "api/base64.h"
#include "api/go_json_syntax.h"
#include "local/registry/data_maps.h"
#include "local/registry/field_access.h"
#include "local/registry/validation_common.h"

namespace kcm::local::registry {
namespace {

constexpr std::string_view kServiceAccountNameKey = "kubernetes.io/service-account.name";

// json.Unmarshal(value, &map[string]interface{}{}): "" when it succeeds, else
// Go's error text. Valid JSON's first non-blank byte tells its type.
std::string unmarshal_object_error(std::string_view text) {
  if (std::string syntax = api::go_json_syntax_error(text); !syntax.empty()) return syntax;
  const auto first = text.find_first_not_of(" \t\r\n");
  const char c = first == std::string_view::npos ? '{' : text[first];
  if (c == '{' || c == 'n') return "";  // an object, or null
  const char* kind = c == '['               ? "array"
                     : c == '"'             ? "string"
                     : c == 't' || c == 'f' ? "bool"
                                            : "number";
  return std::string("json: cannot unmarshal ") + kind +
         " into Go value of type map[string]interface {}";
}

// The per-type checks of ValidateSecret.
void validate_type(const json::object& secret, const json::object* data, api::FieldErrors& errs) {
  const auto has = [&](std::string_view key) { return data != nullptr && data->contains(key); };
  const auto required = [&](std::string_view key) {
    errs.push_back(api::required(api::key("data", key), ""));
  };
  const std::string_view type = string_member(secret, "type");
  if (type == "kubernetes.io/service-account-token") {
    const json::object& annotations =
        member_or_empty(member_or_empty(secret, "metadata"), "annotations");
    if (string_member(annotations, kServiceAccountNameKey).empty()) {
      errs.push_back(api::required(api::key("metadata.annotations", kServiceAccountNameKey), ""));
    }
  } else if (type == "kubernetes.io/dockercfg" || type == "kubernetes.io/dockerconfigjson") {
    const std::string_view key =
        type == "kubernetes.io/dockercfg" ? ".dockercfg" : ".dockerconfigjson";
    if (!has(key)) return required(key);
    if (std::string e = unmarshal_object_error(decoded_bytes(*data->if_contains(key)));
        !e.empty()) {
      errs.push_back(
          api::invalid(api::key("data", key), json::value("<secret contents redacted>"), e));
    }
  } else if (type == "kubernetes.io/basic-auth") {
    // Either may be empty, but one must be there.
    if (!has("username") && !has("password")) {
      required("username");
      required("password");
    }
  } else if (type == "kubernetes.io/ssh-auth") {
    if (!has("ssh-privatekey") || decoded_bytes(*data->if_contains("ssh-privatekey")).empty()) {
      required("ssh-privatekey");
    }
  } else if (type == "kubernetes.io/tls") {
    if (!has("tls.crt")) required("tls.crt");
    if (!has("tls.key")) required("tls.key");
  }
}

}  // namespace

void decode_secret(json::object& secret) {
  if (string_member(secret, "type").empty()) secret["type"] = "Opaque";
  // Taken out first: adding "data" below may move the object's members.
  json::value string_data;
  if (auto it = secret.find("stringData"); it != secret.end()) {
    string_data = std::move(it->value());
    secret.erase(it);
  }
  if (!string_data.is_object() || string_data.get_object().empty()) return;
  json::value& data = secret["data"];
  if (!data.is_object()) data = json::object();
  for (const auto& kv : string_data.get_object())
    data.as_object()[kv.key()] = api::base64_encode(api::as_string_view(&kv.value()));
}

api::FieldErrors validate_secret(const json::object& secret) {
  api::FieldErrors errs;
  const json::object* data = object_member(secret, "data");
  std::size_t total = 0;
  for (const std::string_view key : sorted_keys(data)) {
    append_invalid(api::key("data", key), key, is_config_map_key(key), errs);
    total += decoded_size(*data->if_contains(key));
  }
  if (total > kMaxSecretSize) errs.push_back(api::too_long("data", kMaxSecretSize));
  validate_type(secret, data, errs);
  return errs;
}

api::FieldErrors validate_secret_update(const json::object& secret, const json::object& old) {
  api::FieldErrors errs;
  const std::string_view type = string_member(secret, "type");
  if (type != string_member(old, "type")) {
    errs.push_back(api::invalid("type", json::value(type), std::string(kFieldImmutableErrorMsg)));
  }
  validate_immutable_data(secret, old, {{"data", true}}, errs);
  for (auto& e : validate_secret(secret))
    errs.push_back(std::move(e));
  return errs;
}

}  // namespace kcm::local::registry
