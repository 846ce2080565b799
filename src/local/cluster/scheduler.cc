#include "local/cluster/scheduler.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/metadata_member.h"
#include "local/cluster/node_objects.h"
#include "local/cluster/object_fields.h"

namespace kcm::local::cluster {
namespace {

constexpr auto kInitialBackoff = std::chrono::seconds(1);
constexpr auto kMaxBackoff = std::chrono::seconds(10);
// podMaxInUnschedulablePodsDuration: unschedulable pods are retried at least this often.
constexpr auto kUnschedulableFlush = std::chrono::minutes(5);
// Event notes are limited to 1 KiB (upstream truncates with " ...").
constexpr std::size_t kNoteLengthLimit = 1024;

std::string key_of(const json::object& obj) {
  return api::metadata_string(obj, "namespace") + "/" + api::metadata_string(obj, "name");
}

const json::object& spec_of(const json::object& pod) {
  static const json::object kEmpty;
  const json::object* s = api::find_object(pod, "spec");
  return s ? *s : kEmpty;
}

bool terminated(const json::object& pod) {
  const std::string phase = phase_of(pod);
  return phase == "Succeeded" || phase == "Failed";
}

// Whether the default scheduler should place this pod now.
bool wants_scheduling(const json::object& pod) {
  const json::object& spec = spec_of(pod);
  if (!api::find_string(spec, "nodeName").value_or("").empty()) return false;
  const std::string_view scheduler = api::find_string(spec, "schedulerName").value_or("");
  if (!scheduler.empty() && scheduler != "default-scheduler") return false;
  if (const json::array* gates = api::find_array(spec, "schedulingGates"); gates && !gates->empty())
    return false;
  return !deleting(pod) && !terminated(pod);
}

// What can change a pod's schedulability: its spec and labels.
bool scheduling_inputs_changed(const json::object& a, const json::object& b) {
  if (spec_of(a) != spec_of(b)) return true;
  const json::object* ma = api::find_object(a, "metadata");
  const json::object* mb = api::find_object(b, "metadata");
  const json::value* la = ma ? ma->if_contains("labels") : nullptr;
  const json::value* lb = mb ? mb->if_contains("labels") : nullptr;
  if ((la == nullptr) != (lb == nullptr)) return true;
  return la != nullptr && *la != *lb;
}

std::chrono::nanoseconds backoff(int attempts) {
  std::chrono::nanoseconds d = kInitialBackoff;
  for (int i = 1; i < attempts && d < kMaxBackoff; ++i)
    d *= 2;
  return std::min<std::chrono::nanoseconds>(d, kMaxBackoff);
}

std::string truncate_note(std::string message) {
  if (message.size() <= kNoteLengthLimit) return message;
  constexpr std::string_view kSuffix = " ...";
  message.resize(kNoteLengthLimit - kSuffix.size());
  return message + std::string(kSuffix);
}

// The parts of a node the filters read: labels, spec (taints, cordon),
// allocatable and the Ready condition's status.
std::string scheduling_view(const json::object& node) {
  json::object view;
  if (const json::object* m = api::find_object(node, "metadata")) {
    if (const json::value* labels = m->if_contains("labels")) view["labels"] = *labels;
  }
  if (const json::value* spec = node.if_contains("spec")) view["spec"] = *spec;
  if (const json::object* status = api::find_object(node, "status")) {
    if (const json::value* a = status->if_contains("allocatable")) view["allocatable"] = *a;
    if (const json::array* conditions = api::find_array(*status, "conditions")) {
      for (const auto& c : *conditions) {
        if (c.is_object() && api::find_string(c.get_object(), "type") == "Ready") {
          view["ready"] = api::find_string(c.get_object(), "status").value_or("");
        }
      }
    }
  }
  return api::to_json_string(view);
}

std::int64_t priority_of(const json::object& pod) {
  return api::find_int(spec_of(pod), "priority").value_or(0);
}

}  // namespace

Scheduler::Scheduler(Loop& loop, ApiAccess& api, EventRecorder& events)
    : loop_(loop), api_(api), events_(events) {}

void Scheduler::on_node(ApiAccess::EventType type, const json::object& node) {
  const std::string name = api::metadata_string(node, "name");
  if (type == ApiAccess::EventType::kDeleted) {
    nodes_.erase(name);
  } else {
    // Heartbeats alone do not make a pod fit: compare what filtering reads.
    std::string view = scheduling_view(node);
    auto [it, added] = nodes_.try_emplace(name);
    if (!added && it->second.scheduling_view == view) return;
    it->second.scheduling_view = std::move(view);
    it->second.facts = NodeFacts::from(node);
  }
  cluster_changed();
}

void Scheduler::on_pod(ApiAccess::EventType type, const json::object& pod) {
  const std::string key = key_of(pod);
  if (type == ApiAccess::EventType::kDeleted) {
    events_.forget(api::metadata_string(pod, "uid"));
    pending_.erase(key);
    if (unassign(key)) cluster_changed();
    return;
  }
  const std::string node(api::find_string(spec_of(pod), "nodeName").value_or(""));
  if (!node.empty()) {
    pending_.erase(key);
    if (terminated(pod)) {
      // A finished pod no longer holds its resources.
      if (unassign(key)) cluster_changed();
      return;
    }
    assign(key, Assigned{node, api::metadata_string(pod, "uid"), PodFacts::from(pod)});
    return;
  }
  unassign(key);
  if (!wants_scheduling(pod)) {
    pending_.erase(key);
    return;
  }
  const std::string uid = api::metadata_string(pod, "uid");
  auto it = pending_.find(key);
  if (it == pending_.end() || it->second.uid != uid) {
    Pending p;
    p.uid = uid;
    p.pod = pod;
    p.due = Clock::now();
    pending_[key] = std::move(p);
  } else {
    Pending& p = it->second;
    if (scheduling_inputs_changed(p.pod, pod) && !p.binding) {
      p.unschedulable = false;
      p.due = std::max(Clock::now(), p.last_attempt + backoff(p.attempts));
    }
    p.pod = pod;
  }
  arm();
}

void Scheduler::cluster_changed() {
  const auto now = Clock::now();
  for (auto& [key, p] : pending_) {
    if (!p.unschedulable) continue;
    p.unschedulable = false;
    p.due = std::max(now, p.last_attempt + backoff(p.attempts));
  }
  arm();
}

void Scheduler::arm() {
  Clock::time_point next = Clock::time_point::max();
  for (const auto& [key, p] : pending_) {
    if (!p.binding) next = std::min(next, p.due);
  }
  if (next == Clock::time_point::max() || next >= timer_due_) return;
  timer_due_ = next;
  const auto delay = std::max<Clock::duration>(next - Clock::now(), Clock::duration::zero());
  timer_ = loop_.after(delay, [this] {
    timer_due_ = Clock::time_point::max();
    run();
  });
}

std::vector<NodeFacts> Scheduler::node_facts() const {
  std::vector<NodeFacts> out;
  out.reserve(nodes_.size());
  for (const auto& [name, node] : nodes_) {
    NodeFacts& facts = out.emplace_back(node.facts);
    if (const auto it = usage_.find(name); it != usage_.end()) it->second.apply_to(facts);
  }
  return out;
}

void Scheduler::assign(const std::string& key, Assigned a) {
  unassign(key);
  usage_[a.node].add(a.facts);
  assigned_.emplace(key, std::move(a));
}

bool Scheduler::unassign(const std::string& key) {
  const auto it = assigned_.find(key);
  if (it == assigned_.end()) return false;
  unassign(it);
  return true;
}

void Scheduler::unassign(std::map<std::string, Assigned>::iterator it) {
  // assign() made the node's entry; it stays (one per node name ever used).
  usage_[it->second.node].remove(it->second.facts);
  assigned_.erase(it);
}

void Scheduler::run() {
  const auto now = Clock::now();
  // Upstream's queue order: higher priority first, then the older pod.
  std::vector<std::pair<std::string, Pending*>> due;
  for (auto& [key, p] : pending_) {
    if (!p.binding && p.due <= now) due.emplace_back(key, &p);
  }
  std::sort(due.begin(), due.end(), [](const auto& a, const auto& b) {
    const std::int64_t pa = priority_of(a.second->pod), pb = priority_of(b.second->pod);
    if (pa != pb) return pa > pb;
    const std::string ca = api::metadata_string(a.second->pod, "creationTimestamp");
    const std::string cb = api::metadata_string(b.second->pod, "creationTimestamp");
    if (ca != cb) return ca < cb;
    return a.first < b.first;
  });
  std::vector<NodeFacts> nodes = node_facts();
  for (auto& [key, p] : due)
    schedule_one(key, *p, nodes);
  arm();
}

void Scheduler::schedule_one(const std::string& key, Pending& p, std::vector<NodeFacts>& nodes) {
  p.last_attempt = Clock::now();
  ++p.attempts;
  const PodFacts facts = PodFacts::from(p.pod);
  const Decision decision = schedule_pod(facts, nodes);
  if (decision.node.empty()) {
    unschedulable(p, decision.message);
    return;
  }
  // Assume the pod on its node so the rest of this pass sees the usage.
  for (auto& n : nodes) {
    if (n.name == decision.node) n.add_pod(facts);
  }
  assign(key, Assigned{decision.node, p.uid, facts});
  bind(key, p, decision.node);
}

void Scheduler::bind(const std::string& key, Pending& p, const std::string& node) {
  p.binding = true;
  json::object binding{
      {"apiVersion", "v1"},
      {"kind", "Binding"},
      {"metadata", json::object{{"name", api::metadata_string(p.pod, "name")},
                                {"namespace", api::metadata_string(p.pod, "namespace")},
                                {"uid", p.uid}}},
      {"target", json::object{{"apiVersion", "v1"}, {"kind", "Node"}, {"name", node}}},
  };
  const std::string uid = p.uid;
  // The event carries the binding's time: the kubelet may report before the answer arrives.
  const auto when = std::chrono::system_clock::now();
  api_.bind(api::metadata_string(p.pod, "namespace"), api::metadata_string(p.pod, "name"),
            std::move(binding), [this, key, uid, node, when, pod = p.pod](ApiAccess::Outcome r) {
              auto it = pending_.find(key);
              if (r) {
                // The watch may have shown the bound pod already; the pod as of
                // scheduling names the event.
                events_.scheduler(
                    pod, {"Normal", "Scheduled", "Binding",
                          fmt::format("Successfully assigned {} to {}", key, node), "", when});
                if (it != pending_.end() && it->second.uid == uid) pending_.erase(it);
                return;
              }
              // Forget the assumption; the pod goes back to the queue.
              if (auto a = assigned_.find(key); a != assigned_.end() && a->second.uid == uid) {
                unassign(a);
              }
              if (it == pending_.end() || it->second.uid != uid) return;
              Pending& p = it->second;
              p.binding = false;
              if (r.error().code == 404) {
                pending_.erase(it);
                return;
              }
              events_.scheduler(p.pod,
                                {"Warning", "FailedScheduling", "Scheduling",
                                 truncate_note("Binding rejected: " + r.error().message), ""});
              p.due = Clock::now() + backoff(p.attempts);
              arm();
            });
}

void Scheduler::unschedulable(Pending& p, const std::string& message) {
  p.unschedulable = true;
  p.due = Clock::now() + kUnschedulableFlush;
  events_.scheduler(p.pod,
                    {"Warning", "FailedScheduling", "Scheduling", truncate_note(message), ""});
  // PodScheduled=False, reason Unschedulable (through the status subresource).
  const std::string uid = p.uid;
  const std::string now = format_time(std::chrono::system_clock::now());
  api_.update_status(
      Kind::kPods, api::metadata_string(p.pod, "namespace"), api::metadata_string(p.pod, "name"),
      [uid, message, now](const json::object& current) -> Result<json::object, api::Status> {
        if (api::metadata_string(current, "uid") != uid) {
          return fail(api::conflict({"", "pods"}, api::metadata_string(current, "name"),
                                    "the pod was replaced"));
        }
        json::object next = current;
        json::object& status = api::ensure_object(next, "status");
        json::array conditions;
        if (const json::array* c = api::find_array(status, "conditions")) conditions = *c;
        json::object condition{{"type", "PodScheduled"},    {"status", "False"},
                               {"lastProbeTime", nullptr},  {"lastTransitionTime", now},
                               {"reason", "Unschedulable"}, {"message", message}};
        bool found = false;
        for (auto& c : conditions) {
          if (!c.is_object() || api::find_string(c.get_object(), "type") != "PodScheduled")
            continue;
          found = true;
          if (api::find_string(c.get_object(), "status") == "False") {
            if (const json::value* t = c.get_object().if_contains("lastTransitionTime")) {
              condition["lastTransitionTime"] = *t;
            }
          }
          c = std::move(condition);
          break;
        }
        if (!found) conditions.push_back(std::move(condition));
        status["conditions"] = std::move(conditions);
        return next;
      },
      [](const ApiAccess::Outcome&) {}, ApiAccess::kScheduler);
}

}  // namespace kcm::local::cluster
