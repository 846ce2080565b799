// What the integration tests share: a client configuration for a running
// kcm-local (from the kubeconfig it writes), a namespace helper, and how much
// longer timings must be under a sanitizer.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "api/json.h"
#include "client/clientset.h"
#include "client/kubeconfig.h"
#include "local_cluster.h"

namespace kcm::integration {

// Sanitized builds run several times slower: durations the tests depend on
// (lease durations, timeouts) are multiplied by this.
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
inline constexpr int kSlowdown = 3;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
inline constexpr int kSlowdown = 3;
#else
inline constexpr int kSlowdown = 1;
#endif
#else
inline constexpr int kSlowdown = 1;
#endif

// A Clientset from the kubeconfig kcm-local wrote (its default context),
// without client-side rate limiting.
inline std::shared_ptr<client::Clientset> clientset_for(const e2e::LocalCluster& cluster) {
  auto kubeconfig = client::load_kubeconfig_file(cluster.kubeconfig().string());
  EXPECT_TRUE(kubeconfig.ok()) << kubeconfig.error();
  if (!kubeconfig.ok()) return nullptr;
  auto config = client::client_config(*kubeconfig, {"", ""});
  EXPECT_TRUE(config.ok()) << config.error();
  if (!config.ok()) return nullptr;
  config->qps = -1;
  auto cs = client::Clientset::create(*config);
  EXPECT_TRUE(cs.ok()) << cs.error();
  return cs.ok() ? *cs : nullptr;
}

// e2e::eventually with the timeout stretched under sanitizers.
inline bool eventually_ok(const std::function<bool()>& condition,
                          std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  return e2e::eventually(condition, timeout * kSlowdown, std::chrono::milliseconds(50));
}

inline void ensure_namespace(client::Clientset& cs, const std::string& name) {
  auto created = cs.namespaces().create(boost::json::parse(
      R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + name + R"("}})"));
  ASSERT_TRUE(created.ok() || created.error().is(api::reason::kAlreadyExists))
      << created.error().message;
}

inline std::string string_at(const boost::json::value& v,
                             std::initializer_list<std::string_view> path) {
  return std::string(api::as_string_view(api::find_path(v, path)));
}

}  // namespace kcm::integration
