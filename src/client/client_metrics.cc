#include "client/client_metrics.h"

#include <atomic>
#include <mutex>
#include <utility>

namespace kcm::client {
namespace {

std::mutex g_registration_mu;
// Readers only load the raw pointer, which never changes once set. Its owner
// is deliberately never destroyed: threads still running at exit (detached
// controllers) may report after static destructors have run.
std::shared_ptr<ClientMetrics>& registered_owner() {
  static auto& owner = *new std::shared_ptr<ClientMetrics>();  // NOLINT: intentionally leaked
  return owner;
}
std::atomic<ClientMetrics*> g_metrics{nullptr};

}  // namespace

bool register_client_metrics(std::shared_ptr<ClientMetrics> metrics) {
  if (!metrics) return false;
  std::lock_guard lock(g_registration_mu);
  auto& owner = registered_owner();
  if (owner) return false;
  owner = std::move(metrics);
  g_metrics.store(owner.get(), std::memory_order_release);
  return true;
}

ClientMetrics* client_metrics() {
  return g_metrics.load(std::memory_order_acquire);
}

std::string result_code_label(std::optional<int> status) {
  return status ? std::to_string(*status) : std::string("<error>");
}

}  // namespace kcm::client
