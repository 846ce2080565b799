// Helpers the pki tests share. The local suite's files are compiled in batches
// (tests/CMakeLists.txt), so a helper two files need lives here once.
#pragma once

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "local/pki/openssl_ptr.h"

namespace kcm::local::pki {

// The first certificate of `pem`; null if there is none.
inline X509Ptr parse_cert(const std::string& pem) {
  const BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  return X509Ptr(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

// The private key of `pem`; null if there is none.
inline PkeyPtr parse_key(const std::string& pem) {
  const BioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  return PkeyPtr(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

// The whole content of `file` ("" if it can't be read).
inline std::string read(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The permission bits of `file`; 0 if it can't be stat'ed.
inline unsigned mode_of(const std::filesystem::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return 0;
  return st.st_mode & 07777;
}

}  // namespace kcm::local::pki
