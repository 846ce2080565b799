// The kubeconfig kcm-local hands to kubectl: its CA, the admin client
// certificate and the bearer token, usable as is.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "api/result.h"
#include "local/pki/certificates.h"

namespace kcm::local::pki {

// Names inside the kubeconfig.
inline constexpr std::string_view kClusterName = "kcm-local";
inline constexpr std::string_view kCertUserName = "kcm-admin";
inline constexpr std::string_view kTokenUserName = "kcm-admin-token";
inline constexpr std::string_view kCertContextName = "kcm-local";
inline constexpr std::string_view kTokenContextName = "kcm-local-token";

// The kubeconfig YAML: cluster kcm-local (server_url, CA data), users
// kcm-admin (client certificate data) and kcm-admin-token (token), contexts
// kcm-local (current) and kcm-local-token, no namespace.
std::string kubeconfig_yaml(std::string_view server_url, const Credentials& creds);

// Writes kubeconfig_yaml() to `file` (mode 0600, atomically), creating its
// parent directory when needed. `server_url` must be an https:// URL.
kcm::Result<void> write_kubeconfig(const std::filesystem::path& file, std::string_view server_url,
                                   const Credentials& creds);

}  // namespace kcm::local::pki
