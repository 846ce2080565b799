#include "controller/cached_pod.h"

namespace kcm::controller {

namespace {

// Heap bytes a std::string holds beyond its own (none while the text fits inline).
std::size_t heap_bytes(const std::string& s) {
  static const std::size_t kInline = std::string().capacity();
  return s.capacity() > kInline ? s.capacity() + 1 : 0;
}

}  // namespace

PodFacts PodFacts::of(const json::object& pod) {
  PodFacts f;
  f.phase = std::string(pod_phase(pod));
  f.node_name = std::string(pod_node_name(pod));
  f.ready = is_pod_ready(pod);
  f.ready_time = pod_ready_time(pod);
  const auto cost = pod_deletion_cost(pod);
  f.deletion_cost = cost.ok() ? *cost : 0;
  f.restarts = max_container_restarts(pod);
  f.creation_time = pod_creation_time(pod);
  return f;
}

std::size_t PodFacts::footprint_bytes() const {
  // make_shared: the control block (two counts and a vtable pointer) and the facts.
  return 16 + sizeof(PodFacts) + heap_bytes(phase) + heap_bytes(node_name);
}

std::shared_ptr<const cache::ObjectSummary> summarize_pod(const json::object& pod) {
  return std::make_shared<const PodFacts>(PodFacts::of(pod));
}

CachedPod::CachedPod(cache::ObjectPtr pod)
    : object_(std::move(pod)),
      facts_(std::dynamic_pointer_cast<const PodFacts>(object_->summary())) {
  if (facts_) return;
  const json::value body = object_->object();
  facts_ = std::make_shared<const PodFacts>(
      PodFacts::of(body.is_object() ? body.as_object() : json::object()));
}

Result<CachedPod> CachedPod::from_json(const json::value& pod) {
  auto cached = cache::CachedObject::from_json(pod, nullptr, summarize_pod);
  if (!cached.ok()) return fail(cached.error());
  return CachedPod(std::move(*cached));
}

bool is_pod_available(const PodFacts& pod, std::int32_t min_ready_seconds, api::Time now) {
  if (!pod.ready) return false;
  if (min_ready_seconds == 0) return true;
  if (pod.ready_time.is_zero()) return false;
  return pod.ready_time.time_point() + std::chrono::seconds(min_ready_seconds) <= now.time_point();
}

std::optional<std::chrono::nanoseconds> next_pod_availability_check(const PodFacts& pod,
                                                                    std::int32_t min_ready_seconds,
                                                                    api::Time now) {
  if (!pod.ready || min_ready_seconds <= 0) return std::nullopt;
  if (pod.ready_time.is_zero() || now.is_zero()) return std::nullopt;
  const auto next =
      pod.ready_time.time_point() + std::chrono::seconds(min_ready_seconds) - now.time_point();
  if (next <= std::chrono::nanoseconds::zero()) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::nanoseconds>(next);
}

bool is_pod_terminal(const PodFacts& pod) {
  return pod.phase == kPodSucceeded || pod.phase == kPodFailed;
}

bool is_pod_active(const CachedPod& pod) {
  return !is_pod_terminal(pod.facts()) && !pod.object().deletion_timestamp();
}

bool is_pod_terminating(const CachedPod& pod) {
  return !is_pod_terminal(pod.facts()) && pod.object().deletion_timestamp().has_value();
}

std::vector<const CachedPod*> filter_active_pods(const std::vector<const CachedPod*>& pods) {
  std::vector<const CachedPod*> out;
  for (const CachedPod* p : pods) {
    if (is_pod_active(*p)) out.push_back(p);
  }
  return out;
}

std::vector<const CachedPod*> filter_terminating_pods(const std::vector<const CachedPod*>& pods) {
  std::vector<const CachedPod*> out;
  for (const CachedPod* p : pods) {
    if (is_pod_terminating(*p)) out.push_back(p);
  }
  return out;
}

std::optional<NextAvailabilityCheck> find_min_next_pod_availability_check(
    const std::vector<const CachedPod*>& pods, std::int32_t min_ready_seconds, api::Time now) {
  std::optional<NextAvailabilityCheck> best;
  for (std::size_t i = 0; i < pods.size(); ++i) {
    const auto next = next_pod_availability_check(pods[i]->facts(), min_ready_seconds, now);
    if (next && (!best || *next < best->after)) best = NextAvailabilityCheck{*next, i};
  }
  return best;
}

std::vector<const CachedPod*> pointers_to(const std::vector<CachedPod>& pods) {
  std::vector<const CachedPod*> out;
  out.reserve(pods.size());
  for (const CachedPod& p : pods)
    out.push_back(&p);
  return out;
}

}  // namespace kcm::controller
