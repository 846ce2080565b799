#include "local/cluster/kubelet.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "api/duration.h"
#include "api/metadata_member.h"
#include "api/time.h"
#include "local/apiserver/ids.h"
#include "local/cluster/fake_ids.h"
#include "local/cluster/object_fields.h"

namespace kcm::local::cluster {
namespace {

using Clock = std::chrono::system_clock;
using State = ContainerRuntime::State;

std::string annotation(const json::object& pod, std::string_view key) {
  const json::object* m = api::find_object(pod, "metadata");
  const json::object* a = m ? api::find_object(*m, "annotations") : nullptr;
  return a ? std::string(api::find_string(*a, key).value_or("")) : std::string();
}

const json::object& object_at(const json::object& o, std::string_view key) {
  static const json::object kEmpty;
  const json::object* v = api::find_object(o, key);
  return v ? *v : kEmpty;
}

std::string restart_policy(const json::object& pod) {
  const std::string p(api::find_string(object_at(pod, "spec"), "restartPolicy").value_or(""));
  return p.empty() ? "Always" : p;
}

bool crashing(const json::object& pod) {
  return annotation(pod, kCrashAnnotation) == "true";
}
bool never_ready(const json::object& pod) {
  return annotation(pod, kNeverReadyAnnotation) == "true";
}

std::chrono::nanoseconds crash_initial_backoff(const json::object& pod) {
  const std::string text = annotation(pod, kCrashBackoffAnnotation);
  if (!text.empty()) {
    if (auto d = api::parse_duration(text); d && d->count() > 0) return *d;
  }
  return kDefaultCrashBackoff;
}

// How long a crashing container runs before it exits.
std::chrono::nanoseconds crash_run_time(const json::object& pod) {
  return std::min<std::chrono::nanoseconds>(std::chrono::seconds(1), crash_initial_backoff(pod));
}

std::string container_id(std::string_view uid, std::string_view name, int restart) {
  return "containerd://" + hex_from(fmt::format("{}/{}/{}", uid, name, restart), 64);
}

std::optional<Clock::time_point> parse_time(const json::object& o, std::string_view key) {
  const auto text = api::find_string(o, key);
  if (!text) return std::nullopt;
  auto t = api::Time::parse(*text);
  if (!t) return std::nullopt;
  return t->time_point();
}

std::optional<TerminatedState> parse_terminated(const json::object* t) {
  if (t == nullptr) return std::nullopt;
  TerminatedState out;
  out.exit_code = static_cast<int>(api::find_int(*t, "exitCode").value_or(0));
  out.reason = std::string(api::find_string(*t, "reason").value_or(""));
  out.started_at = parse_time(*t, "startedAt").value_or(Clock::now());
  out.finished_at = parse_time(*t, "finishedAt").value_or(Clock::now());
  out.container_id = std::string(api::find_string(*t, "containerID").value_or(""));
  return out;
}

void log_error(std::string_view what, const api::Status& status) {
  if (status.code == 404 || status.code == 409) return;  // gone or replaced meanwhile
  std::fprintf(stderr, "kcm-local: kubelet: %.*s: %s\n", static_cast<int>(what.size()), what.data(),
               status.message.c_str());
}

// The seconds of a container's preStop sleep hook (lifecycle.preStop.sleep).
std::chrono::seconds pre_stop_sleep(const json::object& pod, std::string_view container) {
  const json::array* containers = api::find_array(object_at(pod, "spec"), "containers");
  if (containers == nullptr) return {};
  for (const auto& c : *containers) {
    if (!c.is_object() || api::find_string(c.get_object(), "name") != container) continue;
    const json::value* seconds = api::find_path(c, {"lifecycle", "preStop", "sleep", "seconds"});
    if (seconds == nullptr || !seconds->is_int64()) return {};
    return std::chrono::seconds(std::max<std::int64_t>(seconds->as_int64(), 0));
  }
  return {};
}

}  // namespace

std::chrono::nanoseconds crash_backoff(std::chrono::nanoseconds initial, int crashes) {
  if (crashes <= 1) return std::chrono::nanoseconds::zero();
  std::chrono::nanoseconds d = initial;
  for (int i = 2; i < crashes && d < kMaxCrashBackoff; ++i)
    d *= 2;
  return std::min<std::chrono::nanoseconds>(d, kMaxCrashBackoff);
}

Kubelet::Kubelet(Loop& loop, ApiAccess& api, EventRecorder& events, const ClusterOptions& options)
    : loop_(loop), api_(api), events_(events), options_(options) {
  info_.kubelet_version = options.kubelet_version;
  info_.boot_id = apiserver::new_uid();
  nodes_.reserve(options.nodes);
  for (int i = 1; i <= options.nodes; ++i) {
    NodeState n;
    n.node = SimulatedNode::make(i);
    nodes_.push_back(std::move(n));
  }
}

Kubelet::NodeState* Kubelet::node_state(std::string_view name) {
  for (auto& n : nodes_) {
    if (n.node.name == name) return &n;
  }
  return nullptr;
}

int Kubelet::allocate_ip(NodeState& n) {
  // As host-local IPAM does: the next free address after the last one handed
  // out, wrapping around (.2 to .254), so a freed address is not reused at once.
  constexpr int kFirst = 2, kLast = 254, kCount = kLast - kFirst + 1;
  const int start = n.last_ip_octet == 0 ? kLast : n.last_ip_octet;
  for (int i = 1; i <= kCount; ++i) {
    const int octet = kFirst + (start - kFirst + i) % kCount;
    if (n.used_ips.insert(octet).second) {
      n.last_ip_octet = octet;
      return octet;
    }
  }
  return 0;  // the /24 is full: the pod runs without an IP
}

// --- nodes and leases ----------------------------------------------------------

void Kubelet::register_nodes(std::function<void(Result<void>)> done) {
  if (nodes_.empty()) {
    done({});
    return;
  }
  struct Counter {
    std::size_t left;
    std::optional<std::string> error;
    std::function<void(Result<void>)> done;
  };
  auto counter = std::make_shared<Counter>(Counter{nodes_.size(), std::nullopt, std::move(done)});
  for (auto& n : nodes_) {
    register_node(n, [counter](Result<void> r) {
      if (!r && !counter->error) counter->error = r.error();
      if (--counter->left == 0) {
        if (counter->error) {
          counter->done(fail(*counter->error));
        } else {
          counter->done({});
        }
      }
    });
  }
}

void Kubelet::register_node(NodeState& n, std::function<void(Result<void>)> done) {
  const auto now = Clock::now();
  // Lease next, once the node's uid is known.
  auto with_lease = [this, &n, done](ApiAccess::Outcome r) {
    if (!r) {
      done(fail(fmt::format("cannot register node {}: {}", n.node.name, r.error().message)));
      return;
    }
    n.uid = api::metadata_string(r->object(), "uid");
    const auto now = Clock::now();
    if (api_.get(Kind::kLeases, kNodeLeaseNamespace, n.node.name)) {
      renew_lease(n);
      done({});
      return;
    }
    api_.create(Kind::kLeases, kNodeLeaseNamespace,
                build_node_lease(n.node.name, n.uid, options_.lease_duration_seconds, now),
                [&n, done](ApiAccess::Outcome lease) {
                  if (!lease && lease.error().code != 409) {
                    done(fail(fmt::format("cannot create the lease of node {}: {}", n.node.name,
                                          lease.error().message)));
                    return;
                  }
                  done({});
                });
  };
  if (api_.get(Kind::kNodes, "", n.node.name)) {
    // Restart: keep the Node (and whatever users changed on it); post fresh status.
    const SimulatedNode node = n.node;
    const NodeInfoOptions info = info_;
    api_.update_status(
        Kind::kNodes, "", n.node.name,
        [node, info, now](const json::object& current) -> Result<json::object, api::Status> {
          json::object next = current;
          next["status"] = build_node_status(node, info, api::find_object(current, "status"), now);
          return next;
        },
        with_lease);
    return;
  }
  api_.create(Kind::kNodes, "", build_node(n.node, info_, now), with_lease);
}

void Kubelet::start_heartbeats() {
  for (auto& n : nodes_) {
    n.lease_timer = loop_.after(options_.lease_renew_interval, [this, &n] { renew_lease(n); });
    n.status_timer =
        loop_.after(options_.node_status_report_interval, [this, &n] { post_node_status(n); });
  }
}

void Kubelet::renew_lease(NodeState& n) {
  n.lease_timer = loop_.after(options_.lease_renew_interval, [this, &n] { renew_lease(n); });
  const std::string name = n.node.name;
  const int duration = options_.lease_duration_seconds;
  const std::string renew = format_micro_time(Clock::now());
  api_.update(
      Kind::kLeases, kNodeLeaseNamespace, name,
      [name, duration, renew](const json::object& current) -> Result<json::object, api::Status> {
        json::object next = current;
        json::object& spec = api::ensure_object(next, "spec");
        spec["holderIdentity"] = name;
        spec["leaseDurationSeconds"] = duration;
        spec["renewTime"] = renew;
        return next;
      },
      [this, &n](ApiAccess::Outcome r) {
        if (r || r.error().code != 404) return;
        // The lease was deleted (e.g. with its Node): recreate it while the Node exists.
        auto node = api_.get(Kind::kNodes, "", n.node.name);
        if (!node) return;
        n.uid = api::metadata_string(*node, "uid");
        api_.create(
            Kind::kLeases, kNodeLeaseNamespace,
            build_node_lease(n.node.name, n.uid, options_.lease_duration_seconds, Clock::now()),
            [](const ApiAccess::Outcome&) {});
      });
}

void Kubelet::post_node_status(NodeState& n) {
  n.status_timer =
      loop_.after(options_.node_status_report_interval, [this, &n] { post_node_status(n); });
  const SimulatedNode node = n.node;
  const NodeInfoOptions info = info_;
  const auto now = Clock::now();
  api_.update_status(
      Kind::kNodes, "", node.name,
      [node, info, now](const json::object& current) -> Result<json::object, api::Status> {
        json::object next = current;
        next["status"] = build_node_status(node, info, api::find_object(current, "status"), now);
        return next;
      },
      [name = node.name](const ApiAccess::Outcome& r) {
        if (!r) log_error("node status of " + name, r.error());
      });
}

// --- pods ----------------------------------------------------------------------

void Kubelet::on_pod(ApiAccess::EventType type, json::object pod) {
  const std::string key =
      api::metadata_string(pod, "namespace") + "/" + api::metadata_string(pod, "name");
  const std::string uid = api::metadata_string(pod, "uid");
  auto it = pods_.find(key);
  if (type == ApiAccess::EventType::kDeleted) {
    if (it != pods_.end() && it->second.uid == uid) {
      release(it->second);
      pods_.erase(it);
    }
    return;
  }
  const std::string node(api::find_string(object_at(pod, "spec"), "nodeName").value_or(""));
  if (node.empty() || node_state(node) == nullptr) return;
  if (it != pods_.end() && it->second.uid != uid) {
    // Same name, new pod: the old one is gone.
    release(it->second);
    pods_.erase(it);
    it = pods_.end();
  }
  if (it == pods_.end()) {
    PodState s;
    s.key = key;
    s.uid = uid;
    s.node = node;
    s.pod = std::move(pod);
    PodState& state = pods_.emplace(key, std::move(s)).first->second;
    adopt_pod(state);
    return;
  }
  PodState& s = it->second;
  s.pod = std::move(pod);
  if (s.terminating) return;
  if (deleting(s.pod)) {
    terminate(s);
    return;
  }
  // An annotation may have changed (never-ready removed): readiness may be due now.
  if (s.runtime.phase == "Running" && !crashing(s.pod)) schedule_ready(s);
}

void Kubelet::adopt_pod(PodState& s) {
  const json::object& status = object_at(s.pod, "status");
  const std::string phase = phase_of(s.pod);
  NodeState& n = *node_state(s.node);
  const bool started = api::find_array(status, "containerStatuses") != nullptr &&
                       api::find_string(status, "hostIP").has_value();
  if (phase == "Succeeded" || phase == "Failed") {
    s.runtime.phase = phase;
    if (deleting(s.pod)) terminate(s);
    return;
  }
  if (!started) {
    start_pod(s);
    if (deleting(s.pod)) terminate(s);
    return;
  }
  // kcm-local restarted: the containers kept running; take over their state.
  PodRuntime& rt = s.runtime;
  rt.phase = phase.empty() ? "Running" : phase;
  rt.host_ip = std::string(api::find_string(status, "hostIP").value_or(n.node.internal_ip));
  rt.pod_ip = std::string(api::find_string(status, "podIP").value_or(""));
  rt.start_time = parse_time(status, "startTime").value_or(Clock::now());
  const std::string prefix = fmt::format("10.244.{}.", n.node.index - 1);
  if (rt.pod_ip.starts_with(prefix)) {
    s.ip_octet = std::atoi(rt.pod_ip.c_str() + prefix.size());
    n.used_ips.insert(s.ip_octet);
  }
  auto adopt = [&](std::string_view list_key, std::string_view status_key, bool init) {
    std::vector<ContainerRuntime> out;
    const json::array* specs = api::find_array(object_at(s.pod, "spec"), list_key);
    const json::array* statuses = api::find_array(status, status_key);
    if (specs == nullptr) return out;
    for (const auto& c : *specs) {
      if (!c.is_object()) continue;
      ContainerRuntime r;
      r.name = std::string(api::find_string(c.get_object(), "name").value_or(""));
      r.image = std::string(api::find_string(c.get_object(), "image").value_or(""));
      r.sidecar = init && api::find_string(c.get_object(), "restartPolicy") == "Always";
      if (statuses != nullptr) {
        for (const auto& cs : *statuses) {
          if (!cs.is_object() || api::find_string(cs.get_object(), "name") != r.name) continue;
          const json::object& o = cs.get_object();
          r.container_id = std::string(api::find_string(o, "containerID").value_or(""));
          r.restart_count = static_cast<int>(api::find_int(o, "restartCount").value_or(0));
          r.ready = api::find_bool(o, "ready").value_or(false);
          const json::object& state = object_at(o, "state");
          if (const json::object* running = api::find_object(state, "running")) {
            r.state = State::kRunning;
            r.started_at = parse_time(*running, "startedAt").value_or(Clock::now());
          } else if (const json::object* t = api::find_object(state, "terminated")) {
            r.state = State::kTerminated;
            r.terminated = parse_terminated(t);
          } else if (const json::object* w = api::find_object(state, "waiting")) {
            r.state = State::kWaiting;
            r.waiting_reason = std::string(api::find_string(*w, "reason").value_or(""));
            r.waiting_message = std::string(api::find_string(*w, "message").value_or(""));
          }
          r.last_terminated =
              parse_terminated(api::find_object(object_at(o, "lastState"), "terminated"));
        }
      }
      out.push_back(std::move(r));
    }
    return out;
  };
  rt.init_containers = adopt("initContainers", "initContainerStatuses", true);
  rt.containers = adopt("containers", "containerStatuses", false);
  if (deleting(s.pod)) {
    terminate(s);
    return;
  }
  if (crashing(s.pod) && restart_policy(s.pod) != "Never") {
    int restarts = 0;
    bool waiting = false;
    for (const auto& c : rt.containers) {
      restarts = std::max(restarts, c.restart_count);
      waiting = waiting || c.state != State::kRunning;
    }
    s.crashes = restarts + (waiting ? 1 : 0);
    if (waiting) {
      s.crash_timer = loop_.after(crash_backoff(crash_initial_backoff(s.pod), s.crashes),
                                  [this, &s] { restart(s); });
    } else {
      s.crash_timer = loop_.after(crash_run_time(s.pod), [this, &s] { crash(s); });
    }
    return;
  }
  schedule_ready(s);
}

void Kubelet::container_started_events(PodState& s, const ContainerRuntime& c, bool init) {
  const std::string path =
      fmt::format("spec.{}{{{}}}", init ? "initContainers" : "containers", c.name);
  events_.kubelet(
      s.pod, s.node,
      {"Normal", "Pulled", "",
       fmt::format("Container image \"{}\" already present on machine", c.image), path});
  events_.kubelet(s.pod, s.node,
                  {"Normal", "Created", "", fmt::format("Created container: {}", c.name), path});
  events_.kubelet(s.pod, s.node,
                  {"Normal", "Started", "", fmt::format("Started container {}", c.name), path});
}

void Kubelet::start_pod(PodState& s) {
  NodeState& n = *node_state(s.node);
  const auto now = Clock::now();
  const json::object& spec = object_at(s.pod, "spec");
  PodRuntime& rt = s.runtime;
  rt.phase = "Running";
  rt.host_ip = n.node.internal_ip;
  rt.start_time = now;
  if (api::find_bool(spec, "hostNetwork").value_or(false)) {
    rt.pod_ip = n.node.internal_ip;
  } else if ((s.ip_octet = allocate_ip(n)) != 0) {
    rt.pod_ip = fmt::format("10.244.{}.{}", n.node.index - 1, s.ip_octet);
  }
  auto make = [&](const json::value& c, bool init) {
    ContainerRuntime r;
    const json::object& o = c.as_object();
    r.name = std::string(api::find_string(o, "name").value_or(""));
    r.image = std::string(api::find_string(o, "image").value_or(""));
    r.sidecar = init && api::find_string(o, "restartPolicy") == "Always";
    r.container_id = container_id(s.uid, r.name, 0);
    r.started_at = now;
    if (init && !r.sidecar) {
      // Init containers run to completion before the others start.
      r.state = State::kTerminated;
      r.terminated = TerminatedState{0, "Completed", now, now, r.container_id};
      r.ready = true;
    } else {
      r.state = State::kRunning;
    }
    return r;
  };
  if (const json::array* cs = api::find_array(spec, "initContainers")) {
    for (const auto& c : *cs) {
      if (!c.is_object()) continue;
      rt.init_containers.push_back(make(c, true));
      container_started_events(s, rt.init_containers.back(), true);
    }
  }
  if (const json::array* cs = api::find_array(spec, "containers")) {
    for (const auto& c : *cs) {
      if (!c.is_object()) continue;
      rt.containers.push_back(make(c, false));
      container_started_events(s, rt.containers.back(), false);
    }
  }
  if (crashing(s.pod)) {
    write_status(s);
    s.crash_timer = loop_.after(crash_run_time(s.pod), [this, &s] { crash(s); });
    return;
  }
  // With no readiness delay left, the first status shows the containers both
  // running and ready, as kubelet reports a container without a readiness
  // probe: one status write instead of two.
  if (const auto wait = readiness_wait(s); wait && *wait == std::chrono::nanoseconds::zero()) {
    mark_running_containers_ready(s.runtime);
  } else {
    schedule_ready(s);
  }
  write_status(s);
}

bool Kubelet::mark_running_containers_ready(PodRuntime& rt) {
  bool changed = false;
  for (auto* list : {&rt.init_containers, &rt.containers}) {
    for (auto& c : *list) {
      if (c.state == State::kRunning && !c.ready) {
        c.ready = true;
        changed = true;
      }
    }
  }
  return changed;
}

std::optional<std::chrono::nanoseconds> Kubelet::readiness_wait(const PodState& s) const {
  if (s.terminating || never_ready(s.pod)) return std::nullopt;
  bool all_ready = true;
  for (const auto& c : s.runtime.containers)
    all_ready = all_ready && c.ready;
  for (const auto& c : s.runtime.init_containers)
    all_ready = all_ready && (!c.sidecar || c.ready);
  if (all_ready) return std::nullopt;
  std::chrono::nanoseconds delay = options_.pod_ready_delay;
  if (const std::string text = annotation(s.pod, kReadyAfterAnnotation); !text.empty()) {
    if (auto d = api::parse_duration(text); d && d->count() >= 0) delay = *d;
  }
  // A readiness probe passes no earlier than its initial delay.
  if (const json::array* cs = api::find_array(object_at(s.pod, "spec"), "containers")) {
    for (const auto& c : *cs) {
      if (!c.is_object()) continue;
      if (const json::object* probe = api::find_object(c.get_object(), "readinessProbe")) {
        delay = std::max<std::chrono::nanoseconds>(
            delay, std::chrono::seconds(api::find_int(*probe, "initialDelaySeconds").value_or(0)));
      }
    }
  }
  return std::max<std::chrono::nanoseconds>(s.runtime.start_time + delay - Clock::now(),
                                            std::chrono::nanoseconds::zero());
}

void Kubelet::schedule_ready(PodState& s) {
  if (s.ready_timer.armed()) return;
  if (const auto wait = readiness_wait(s)) {
    s.ready_timer = loop_.after(*wait, [this, &s] { become_ready(s); });
  }
}

void Kubelet::become_ready(PodState& s) {
  s.ready_timer.cancel();
  if (s.terminating || never_ready(s.pod)) return;
  if (mark_running_containers_ready(s.runtime)) write_status(s);
}

void Kubelet::crash(PodState& s) {
  if (s.terminating) return;
  ++s.crashes;
  const auto now = Clock::now();
  const bool never = restart_policy(s.pod) == "Never";
  const auto backoff = crash_backoff(crash_initial_backoff(s.pod), s.crashes);
  const std::string pod_ref = fmt::format("{}_{}({})", api::metadata_string(s.pod, "name"),
                                          api::metadata_string(s.pod, "namespace"), s.uid);
  for (auto& c : s.runtime.containers) {
    if (c.state != State::kRunning) continue;
    TerminatedState exit{1, "Error", c.started_at, now, c.container_id};
    c.ready = false;
    if (never || s.crashes == 1) {
      // Shown as Error until the (immediate) first restart, or for good.
      c.state = State::kTerminated;
      c.terminated = exit;
      continue;
    }
    c.state = State::kWaiting;
    c.terminated.reset();
    c.last_terminated = exit;
    c.waiting_reason = "CrashLoopBackOff";
    c.waiting_message = fmt::format("back-off {} restarting failed container={} pod={}",
                                    api::format_duration(backoff), c.name, pod_ref);
    events_.kubelet(
        s.pod, s.node,
        {"Warning", "BackOff", "",
         fmt::format("Back-off restarting failed container {} in pod {}", c.name, pod_ref),
         fmt::format("spec.containers{{{}}}", c.name)});
  }
  if (never) {
    s.runtime.phase = "Failed";
    s.runtime.sandbox_ready = false;
    write_status(s);
    return;
  }
  write_status(s);
  // The first restart follows at once (after the moment kubelet takes to notice).
  const auto delay = s.crashes == 1 ? crash_run_time(s.pod) : backoff;
  s.crash_timer = loop_.after(delay, [this, &s] { restart(s); });
}

void Kubelet::restart(PodState& s) {
  if (s.terminating) return;
  const auto now = Clock::now();
  for (auto& c : s.runtime.containers) {
    if (c.state == State::kRunning) continue;
    if (c.terminated) c.last_terminated = c.terminated;
    c.terminated.reset();
    ++c.restart_count;
    c.state = State::kRunning;
    c.started_at = now;
    c.waiting_message.clear();
    c.container_id = container_id(s.uid, c.name, c.restart_count);
    container_started_events(s, c, false);
  }
  write_status(s);
  s.crash_timer = loop_.after(crash_run_time(s.pod), [this, &s] { crash(s); });
}

void Kubelet::terminate(PodState& s) {
  s.terminating = true;
  s.ready_timer.cancel();
  s.crash_timer.cancel();
  const std::chrono::seconds grace(std::max<std::int64_t>(
      api::find_int(object_at(s.pod, "metadata"), "deletionGracePeriodSeconds").value_or(30), 0));
  const PodRuntime& rt = s.runtime;
  if (rt.phase == "Succeeded" || rt.phase == "Failed") {
    schedule_removal(s, grace);
    return;
  }
  // killContainer: "Killing" as it starts, then each running container's
  // preStop sleep hook (PodLifecycleSleepAction), within the grace period,
  // before the container stops. The containers are killed in parallel.
  std::chrono::seconds hook{0};
  for (const auto* list : {&rt.init_containers, &rt.containers}) {
    const bool regular = list == &rt.containers;
    for (const auto& c : *list) {
      if (c.state != State::kRunning) continue;
      events_.kubelet(
          s.pod, s.node,
          {"Normal", "Killing", "", fmt::format("Stopping container {}", c.name),
           fmt::format("spec.{}{{{}}}", regular ? "containers" : "initContainers", c.name)});
      if (regular) hook = std::max(hook, pre_stop_sleep(s.pod, c.name));
    }
  }
  hook = std::min(hook, grace);
  if (hook.count() == 0) {
    stop_containers(s);
    schedule_removal(s, grace);
    return;
  }
  s.stop_timer = loop_.after(hook, [this, &s, rest = grace - hook] {
    stop_containers(s);
    schedule_removal(s, rest);
  });
}

void Kubelet::stop_containers(PodState& s) {
  const auto now = Clock::now();
  PodRuntime& rt = s.runtime;
  bool failed = false;
  for (auto* list : {&rt.init_containers, &rt.containers}) {
    for (auto& c : *list) {
      c.ready = false;
      if (c.state == State::kRunning) {
        c.state = State::kTerminated;
        c.terminated = TerminatedState{0, "Completed", c.started_at, now, c.container_id};
      } else if (c.state == State::kWaiting) {
        c.state = State::kTerminated;
        c.terminated =
            c.last_terminated.value_or(TerminatedState{0, "Completed", now, now, c.container_id});
      }
      if (c.terminated && c.terminated->exit_code != 0 && list == &rt.containers) failed = true;
    }
  }
  // kubelet ends a deleted pod in a terminal phase.
  rt.phase = failed ? "Failed" : "Succeeded";
  rt.sandbox_ready = false;
  write_status(s);
}

void Kubelet::schedule_removal(PodState& s, std::chrono::seconds grace_left) {
  const auto delay = std::min<std::chrono::nanoseconds>(grace_left, options_.pod_terminate_delay);
  s.delete_timer = loop_.after(delay, [this, &s] {
    apiserver::DeleteOptions options;
    options.grace_period_seconds = 0;
    options.precondition_uid = s.uid;
    api_.remove(Kind::kPods, api::metadata_string(s.pod, "namespace"),
                api::metadata_string(s.pod, "name"), options,
                [key = s.key](const ApiAccess::Outcome& r) {
                  if (!r) log_error("delete pod " + key, r.error());
                });
  });
}

void Kubelet::write_status(PodState& s) {
  {
    const std::lock_guard lock(s.latest->mu);
    s.latest->runtime = s.runtime;
    s.latest->now = Clock::now();
  }
  if (s.latest->in_flight) {
    s.latest->pending = true;
    return;
  }
  send_status(s.key, s.uid, s.latest);
}

void Kubelet::send_status(const std::string& key, const std::string& uid,
                          std::shared_ptr<PodState::LatestStatus> latest) {
  const auto slash = key.find('/');
  latest->in_flight = true;
  latest->pending = false;
  api_.update_status(
      Kind::kPods, key.substr(0, slash), key.substr(slash + 1),
      [latest, uid](const json::object& current) -> Result<json::object, api::Status> {
        if (api::metadata_string(current, "uid") != uid) {
          return fail(api::conflict({"", "pods"}, api::metadata_string(current, "name"),
                                    "the pod was replaced"));
        }
        const std::lock_guard lock(latest->mu);
        json::object next = current;
        next["status"] = build_pod_status(latest->runtime, object_at(current, "spec"),
                                          api::find_object(current, "status"), latest->now);
        return next;
      },
      [this, key, uid, latest](ApiAccess::Outcome r) {
        latest->in_flight = false;
        if (!r) log_error("status of pod " + key, r.error());
        if (latest->pending) send_status(key, uid, latest);
      });
}

void Kubelet::release(PodState& s) {
  if (s.ip_octet != 0) {
    if (NodeState* n = node_state(s.node)) n->used_ips.erase(s.ip_octet);
    s.ip_octet = 0;
  }
  events_.forget(s.uid);
}

}  // namespace kcm::local::cluster
