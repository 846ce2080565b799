#include "local/pki/kubeconfig.h"

#include <yaml-cpp/yaml.h>

#include <system_error>

#include "api/base64.h"

namespace kcm::local::pki {
namespace {

void named_entry(YAML::Emitter& out, std::string_view name, const char* body_key) {
  out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << std::string(name);
  out << YAML::Key << body_key << YAML::Value << YAML::BeginMap;
}

void context(YAML::Emitter& out, std::string_view name, std::string_view user) {
  named_entry(out, name, "context");
  out << YAML::Key << "cluster" << YAML::Value << std::string(kClusterName);
  out << YAML::Key << "user" << YAML::Value << std::string(user);
  out << YAML::EndMap << YAML::EndMap;
}

}  // namespace

std::string kubeconfig_yaml(std::string_view server_url, const Credentials& creds) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "apiVersion" << YAML::Value << "v1";
  out << YAML::Key << "kind" << YAML::Value << "Config";

  out << YAML::Key << "clusters" << YAML::Value << YAML::BeginSeq;
  named_entry(out, kClusterName, "cluster");
  out << YAML::Key << "server" << YAML::Value << std::string(server_url);
  out << YAML::Key << "certificate-authority-data" << YAML::Value
      << api::base64_encode(creds.ca_cert_pem);
  out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;

  out << YAML::Key << "users" << YAML::Value << YAML::BeginSeq;
  named_entry(out, kCertUserName, "user");
  out << YAML::Key << "client-certificate-data" << YAML::Value
      << api::base64_encode(creds.client_cert_pem);
  out << YAML::Key << "client-key-data" << YAML::Value << api::base64_encode(creds.client_key_pem);
  out << YAML::EndMap << YAML::EndMap;
  named_entry(out, kTokenUserName, "user");
  // Quoted so that a token such as "1234" or "true" stays a string.
  out << YAML::Key << "token" << YAML::Value << YAML::DoubleQuoted << creds.token;
  out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;

  out << YAML::Key << "contexts" << YAML::Value << YAML::BeginSeq;
  context(out, kCertContextName, kCertUserName);
  context(out, kTokenContextName, kTokenUserName);
  out << YAML::EndSeq;

  out << YAML::Key << "current-context" << YAML::Value << std::string(kCertContextName);
  out << YAML::Key << "preferences" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

kcm::Result<void> write_kubeconfig(const std::filesystem::path& file, std::string_view server_url,
                                   const Credentials& creds) {
  if (!server_url.starts_with("https://") || server_url.size() == 8) {
    return kcm::fail(
        "kubeconfig server URL must start with https:// (credentials are only "
        "sent over TLS): \"" +
        std::string(server_url) + "\"");
  }
  if (const auto parent = file.parent_path(); !parent.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    if (ec) return kcm::fail("cannot create directory " + parent.string() + ": " + ec.message());
  }
  return write_file_atomically(
      file, kubeconfig_yaml(server_url, creds),
      std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

}  // namespace kcm::local::pki
