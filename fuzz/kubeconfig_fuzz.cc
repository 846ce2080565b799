// kubeconfig parsing and clientcmd's context resolution on arbitrary bytes.
// Invariants: parsing either succeeds or fails with a message, and does so the
// same way twice; resolving every context of a parsed config (with the file
// references cleared, so nothing is read from disk) never crashes and fails
// only with a message.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "client/kubeconfig.h"

namespace {

[[noreturn]] void fail_invariant(const char* what, std::string_view input) {
  std::fprintf(stderr, "invariant broken: %s (input %zu bytes)\n", what, input.size());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto first = kcm::client::parse_kubeconfig(input);
  auto second = kcm::client::parse_kubeconfig(input);
  if (first.ok() != second.ok()) fail_invariant("parse is not deterministic", input);
  if (!first.ok()) {
    if (first.error().empty()) fail_invariant("empty parse error", input);
    if (first.error() != second.error()) fail_invariant("parse error differs", input);
    return 0;
  }
  kcm::client::Kubeconfig config = std::move(first.value());
  for (auto& [_, c] : config.clusters)
    c.certificate_authority.clear();
  for (auto& [_, u] : config.users) {
    u.client_certificate.clear();
    u.client_key.clear();
    u.token_file.clear();
  }
  auto check = [&](const kcm::client::ConfigOverrides& overrides) {
    auto rc = kcm::client::client_config(config, overrides);
    if (!rc.ok() && rc.error().empty()) fail_invariant("empty client_config error", input);
  };
  check({});
  for (const auto& [name, _] : config.contexts)
    check({.context = name, .server = ""});
  check({.context = "", .server = "https://fuzz:6443"});
  (void)kcm::client::split_kubeconfig_list(input);
  return 0;
}
