// kcm-local's credentials: a private CA, the API server's serving certificate,
// an admin client certificate and a bearer token, kept in <data dir>/pki/.
// Created on first start and reused afterwards, so kubeconfigs handed out
// earlier keep working across restarts.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"

namespace kcm::local::pki {

// PEM texts and where they live. Keys are PKCS#8 ECDSA P-256.
struct Credentials {
  std::string ca_cert_pem;
  std::string server_cert_pem;
  std::string server_key_pem;
  std::string client_cert_pem;
  std::string client_key_pem;
  std::string token;  // 64 lowercase hex characters when kcm-local made it

  std::filesystem::path ca_cert_file;
  std::filesystem::path ca_key_file;
  std::filesystem::path server_cert_file;
  std::filesystem::path server_key_file;
  std::filesystem::path client_cert_file;
  std::filesystem::path client_key_file;
  std::filesystem::path token_file;

  // Files this call (re)wrote, in creation order; empty when all were reused.
  std::vector<std::filesystem::path> written;
};

// Subject names and user identities the certificates carry.
inline constexpr std::string_view kCaCommonName = "kcm-local-ca";
inline constexpr std::string_view kServerCommonName = "kcm-local-apiserver";
inline constexpr std::string_view kAdminUser = "kcm-admin";
inline constexpr std::string_view kAdminGroup = "system:masters";

// Loads the credentials under `dir`/pki, creating whatever is absent.
// `sans` are extra subject alternative names for the serving certificate: IP
// addresses (v4 or v6, brackets allowed) or DNS names; 127.0.0.1 and localhost
// are always included. The serving certificate alone is reissued when it does
// not cover every requested name; leaf certificates are reissued when missing,
// not signed by the CA, not matching their key or expiring within 30 days.
// Unreadable or corrupt files are errors that name the file, never overwritten.
kcm::Result<Credentials> load_or_create(const std::filesystem::path& dir,
                                        const std::vector<std::string>& sans);

// Constant-time comparison of a presented bearer token with ours.
bool token_matches(const Credentials& creds, std::string_view presented);

// Writes `contents` to `file` through a fresh temporary file created with
// `mode` and renamed over `file`, so readers never see a partial file and
// secrets are never readable by others, not even for a moment.
kcm::Result<void> write_file_atomically(const std::filesystem::path& file,
                                        std::string_view contents, std::filesystem::perms mode);

}  // namespace kcm::local::pki
