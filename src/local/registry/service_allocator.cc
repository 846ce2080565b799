#include "local/registry/service_allocator.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "api/field_error.h"
#include "api/json.h"
#include "api/metadata_member.h"
#include "api/status.h"
#include "local/registry/field_access.h"
#include "local/registry/go_value.h"
#include "local/registry/service_spec.h"
#include "local/registry/service_validation.h"

namespace kcm::local::registry {

namespace {

json::array service_string_array(const std::vector<std::string>& values) {
  json::array out;
  for (const auto& v : values)
    out.emplace_back(v);
  return out;
}

bool service_headless(const json::object& spec) {
  return string_member(spec, "clusterIP") == "None";
}

bool service_selectorless(const json::object& spec) {
  const json::object* selector = api::find_object(spec, "selector");
  return selector == nullptr || selector->empty();
}

// What the other Services hold, and what writes in flight took.
struct ServiceUsage {
  std::set<std::uint32_t> ips;
  std::set<int> ports;
};

// The pool's in-flight reservations, shared with the reservations so that
// they can release after the allocator is gone.
struct ServicePool {
  std::mutex mu;
  std::multiset<std::uint32_t> pending_ips;
  std::multiset<int> pending_ports;
  std::mt19937_64 random{std::random_device{}()};
};

struct ServiceHold {
  std::shared_ptr<ServicePool> pool;
  std::vector<std::uint32_t> ips;
  std::vector<int> ports;
  ~ServiceHold() {
    std::lock_guard lock(pool->mu);
    for (auto ip : ips)
      pool->pending_ips.erase(pool->pending_ips.find(ip));
    for (auto port : ports)
      pool->pending_ports.erase(pool->pending_ports.find(port));
  }
};

// A range [0, size) of which [0, static_band) is kept for static requests:
// dynamic picks scan from a random point of the upper band, then the lower.
std::optional<std::uint64_t> service_pick(std::uint64_t size, std::uint64_t static_band,
                                          std::mt19937_64& random,
                                          const std::function<bool(std::uint64_t)>& taken) {
  auto scan = [&](std::uint64_t first, std::uint64_t end) -> std::optional<std::uint64_t> {
    if (first >= end) return std::nullopt;
    const std::uint64_t n = end - first;
    const std::uint64_t start = std::uniform_int_distribution<std::uint64_t>(0, n - 1)(random);
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t candidate = first + (start + k) % n;
      if (!taken(candidate)) return candidate;
    }
    return std::nullopt;
  };
  if (auto upper = scan(static_band, size)) return upper;
  return scan(0, std::min(static_band, size));
}

class ServiceAllocator final : public Allocator {
 public:
  explicit ServiceAllocator(const ServiceRanges& ranges)
      : ranges_(ranges), pool_(std::make_shared<ServicePool>()) {}

  Result<Reservation, api::Status> allocate(json::object& service, const json::object* old,
                                            const StoredObjects& stored) const override {
    const std::string name = api::metadata_string(service, "name");
    const auto invalid = [&](api::FieldErrors errs) -> Result<Reservation, api::Status> {
      return fail(api::invalid({"", "Service"}, name, errs));
    };
    json::object& spec = api::ensure_object(service, "spec");
    if (old != nullptr) {
      patch_allocated_values(spec, member_or_empty(*old, "spec"), service_needs_cluster_ip(spec),
                             service_needs_cluster_ip(member_or_empty(*old, "spec")));
    }
    normalize_cluster_ips(spec, old != nullptr ? &member_or_empty(*old, "spec") : nullptr);
    if (service_needs_cluster_ip(spec)) {
      if (api::FieldErrors errs = init_ip_families(spec, old); !errs.empty()) return invalid(errs);
    }

    // Declared before the lock: a refused allocation releases after unlocking.
    auto hold = std::make_shared<ServiceHold>();
    hold->pool = pool_;
    std::lock_guard lock(pool_->mu);
    const ServiceUsage usage = in_use(service, stored, old != nullptr);

    const bool allocates_ip =
        service_needs_cluster_ip(spec) &&
        (old == nullptr || !service_needs_cluster_ip(member_or_empty(*old, "spec")));
    if (allocates_ip) {
      if (auto r = allocate_cluster_ip(name, spec, usage, *hold); !r)
        return fail(std::move(r).error());
    }
    if (auto r = allocate_node_ports(service, old, usage, *hold); !r) {
      return fail(std::move(r).error());
    }
    if (auto r = allocate_health_check_port(service, old, usage, *hold); !r) {
      return fail(std::move(r).error());
    }
    return Reservation(std::move(hold));
  }

 private:
  std::uint64_t ip_count() const { return std::uint64_t{1} << (32 - ranges_.cluster_ip_prefix); }
  // Usable addresses: the network and broadcast addresses excluded.
  std::uint64_t ip_size() const { return ip_count() >= 2 ? ip_count() - 2 : 0; }
  std::optional<std::uint64_t> ip_offset(std::uint32_t ip) const {
    const std::uint64_t first = std::uint64_t{ranges_.cluster_ip_base} + 1;
    if (ip < first || ip >= first + ip_size()) return std::nullopt;
    return ip - first;
  }
  std::uint32_t ip_at(std::uint64_t offset) const {
    return static_cast<std::uint32_t>(ranges_.cluster_ip_base + 1 + offset);
  }

  // patchAllocatedValues: a PUT of a manifest without the allocated values keeps them.
  static void patch_allocated_values(json::object& spec, const json::object& old_spec,
                                     bool needs_ip, bool needed_ip) {
    if (needs_ip && needed_ip) {
      if (string_member(spec, "clusterIP").empty() && old_spec.contains("clusterIP")) {
        spec["clusterIP"] = old_spec.at("clusterIP");
      }
      const json::array* ips = api::find_array(spec, "clusterIPs");
      if ((ips == nullptr || ips->empty()) && old_spec.contains("clusterIPs")) {
        spec["clusterIPs"] = old_spec.at("clusterIPs");
      }
    }
    if (service_needs_node_ports(spec) && service_needs_node_ports(old_spec)) {
      std::map<std::string, std::int64_t> old_by_name;
      if (const json::array* ports = api::find_array(old_spec, "ports")) {
        for (const auto& p : *ports) {
          if (!p.is_object()) continue;
          old_by_name[std::string(string_member(p.get_object(), "name"))] =
              int_member(p.get_object(), "nodePort").value_or(0);
        }
      }
      if (json::value* ports = spec.if_contains("ports"); ports && ports->is_array()) {
        std::set<std::int64_t> used;
        for (const auto& p : ports->get_array()) {
          if (p.is_object()) used.insert(int_member(p.get_object(), "nodePort").value_or(0));
        }
        for (auto& p : ports->get_array()) {
          if (!p.is_object() || int_member(p.get_object(), "nodePort").value_or(0) != 0) continue;
          auto it = old_by_name.find(std::string(string_member(p.get_object(), "name")));
          if (it != old_by_name.end() && it->second != 0 && !used.contains(it->second)) {
            p.get_object()["nodePort"] = it->second;
            used.insert(it->second);
          }
        }
      }
    }
    const bool needs_hc = service_needs_health_check_port(spec);
    const bool needed_hc = service_needs_health_check_port(old_spec);
    if (needs_hc && needed_hc && int_member(spec, "healthCheckNodePort").value_or(0) == 0 &&
        int_member(old_spec, "healthCheckNodePort").value_or(0) != 0) {
      spec["healthCheckNodePort"] = int_member(old_spec, "healthCheckNodePort").value_or(0);
    }
  }

  // normalizeClusterIPs: clusterIP and clusterIPs kept in step.
  static void normalize_cluster_ips(json::object& spec, const json::object* old_spec) {
    const std::string ip(string_member(spec, "clusterIP"));
    const json::array* ips = api::find_array(spec, "clusterIPs");
    const bool no_ips = ips == nullptr || ips->empty();
    if (old_spec == nullptr) {
      if (!ip.empty() && no_ips) spec["clusterIPs"] = json::array{json::value(ip)};
      return;
    }
    const std::string old_ip(string_member(*old_spec, "clusterIP"));
    const std::vector<std::string> now = strings_of(array_member(spec, "clusterIPs"));
    const std::vector<std::string> before = strings_of(array_member(*old_spec, "clusterIPs"));
    if (no_ips && ip == old_ip && !before.empty()) {
      spec["clusterIPs"] = service_string_array(before);
    } else if (ip.empty() && now == before) {
      spec.erase("clusterIPs");
    } else if (!ip.empty() && ip != old_ip && now == before) {
      spec["clusterIPs"] = json::array{json::value(ip)};
    }
  }

  // initIPFamilyFields for a single-stack IPv4 cluster.
  static api::FieldErrors init_ip_families(json::object& spec, const json::object* old) {
    api::FieldErrors errs = validate_service_cluster_ips(spec);
    if (!errs.empty()) return errs;
    if (!spec.contains("ipFamilyPolicy") || spec.at("ipFamilyPolicy").is_null()) {
      const json::object* old_spec = old != nullptr ? &member_or_empty(*old, "spec") : nullptr;
      if (old_spec != nullptr && old_spec->contains("ipFamilyPolicy")) {
        spec["ipFamilyPolicy"] = old_spec->at("ipFamilyPolicy");
      } else if (service_headless(spec) && service_selectorless(spec)) {
        spec["ipFamilyPolicy"] = "RequireDualStack";
      } else {
        spec["ipFamilyPolicy"] = "SingleStack";
      }
    }
    const std::string policy(string_member(spec, "ipFamilyPolicy"));
    const std::vector<std::string> ips = strings_of(array_member(spec, "clusterIPs"));
    std::vector<std::string> families = strings_of(array_member(spec, "ipFamilies"));
    if (policy == "SingleStack" && ips.size() > 1) {
      errs.push_back(api::invalid(
          "spec.ipFamilyPolicy", json::value(policy),
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are "
          "specified"));
    }
    if (policy == "SingleStack" && families.size() > 1) {
      errs.push_back(api::invalid(
          "spec.ipFamilyPolicy", json::value(policy),
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are "
          "specified"));
    }
    // Families the cluster IPs imply.
    for (std::size_t i = 0; i < ips.size(); ++i) {
      if (ips[i] == "None" || ips[i].empty()) break;
      const bool v6 = ips[i].find(':') != std::string::npos;
      if (v6) {
        errs.push_back(invalid_go(api::index("spec.clusterIPs", i),
                                  go_string_slice(api::find_array(spec, "clusterIPs")),
                                  "IPv6 is not configured on this cluster"));
        continue;
      }
      if (families.size() <= i) families.push_back("IPv4");
    }
    if (!errs.empty()) return errs;
    if (service_headless(spec) && service_selectorless(spec)) {
      // Headless without a selector may ask for families the cluster lacks.
      if (families.empty()) families.push_back("IPv4");
      if (policy != "SingleStack" && families.size() == 1) {
        families.push_back(families[0] == "IPv4" ? "IPv6" : "IPv4");
      }
      spec["ipFamilies"] = service_string_array(families);
      return errs;
    }
    if (policy == "RequireDualStack") {
      errs.push_back(api::invalid("spec.ipFamilyPolicy", json::value(policy),
                                  "this cluster is not configured for dual-stack services"));
    }
    for (std::size_t i = 0; i < families.size(); ++i) {
      if (families[i] != "IPv4") {
        errs.push_back(api::invalid(api::index("spec.ipFamilies", i), json::value(families[i]),
                                    "not configured on this cluster"));
      }
    }
    if (!errs.empty()) return errs;
    if (families.empty()) families.push_back("IPv4");
    spec["ipFamilies"] = service_string_array(families);
    return errs;
  }

  // `updating`: the stored object of the same name is the one being updated.
  ServiceUsage in_use(const json::object& service, const StoredObjects& stored,
                      bool updating) const {
    ServiceUsage usage;
    const std::string ns = api::metadata_string(service, "namespace");
    const std::string name = api::metadata_string(service, "name");
    for (const json::object& other : stored()) {
      // An update's own values are its to keep. (A create of an existing
      // name that asks for its IP is refused as taken, as upstream.)
      if (updating && api::metadata_string(other, "namespace") == ns &&
          api::metadata_string(other, "name") == name) {
        continue;
      }
      const json::object& spec = member_or_empty(other, "spec");
      for (const auto& ip : strings_of(array_member(spec, "clusterIPs"))) {
        if (auto parsed = parse_ipv4(ip)) usage.ips.insert(*parsed);
      }
      if (const json::array* ports = api::find_array(spec, "ports")) {
        for (const auto& p : *ports) {
          if (!p.is_object()) continue;
          if (auto n = int_member(p.get_object(), "nodePort").value_or(0); n != 0) {
            usage.ports.insert(static_cast<int>(n));
          }
        }
      }
      if (auto hc = int_member(spec, "healthCheckNodePort").value_or(0); hc != 0) {
        usage.ports.insert(static_cast<int>(hc));
      }
    }
    usage.ips.insert(pool_->pending_ips.begin(), pool_->pending_ips.end());
    usage.ports.insert(pool_->pending_ports.begin(), pool_->pending_ports.end());
    return usage;
  }

  Result<void, api::Status> allocate_cluster_ip(std::string_view name, json::object& spec,
                                                const ServiceUsage& usage,
                                                ServiceHold& hold) const {
    std::vector<std::string> ips = strings_of(array_member(spec, "clusterIPs"));
    if (!ips.empty() && ips[0] == "None") return {};
    std::uint32_t ip = 0;
    if (ips.empty() || ips[0].empty()) {
      // KEP-3070: the lower band of min(max(16, size/16), 256) addresses is kept
      // for static requests.
      const std::uint64_t band =
          ip_count() <= 16
              ? 0
              : std::min<std::uint64_t>(std::max<std::uint64_t>(16, ip_count() / 16), 256);
      auto offset = service_pick(ip_size(), band, pool_->random,
                                 [&](std::uint64_t o) { return usage.ips.contains(ip_at(o)); });
      if (!offset) {
        return fail(api::internal_error("failed to allocate a serviceIP: range is full"));
      }
      ip = ip_at(*offset);
      if (ips.empty()) ips.emplace_back();
      ips[0] = format_ipv4(ip);
    } else {
      const auto parsed = parse_ipv4(ips[0]);
      std::string reason;
      if (!parsed || !ip_offset(*parsed)) {
        reason = fmt::format(
            "the provided IP ({}) is not in the valid range. The range of valid "
            "IPs is {}",
            ips[0], ranges_.cluster_ip_range());
      } else if (usage.ips.contains(*parsed)) {
        reason = "provided IP is already allocated";
      }
      if (!reason.empty()) {
        return fail(api::invalid(
            {"", "Service"}, name,
            {invalid_go("spec.clusterIPs", go_string_slice(api::find_array(spec, "clusterIPs")),
                        fmt::format("failed to allocate IP {}: {}", ips[0], reason))}));
      }
      ip = *parsed;
    }
    hold.ips.push_back(ip);
    pool_->pending_ips.insert(ip);
    spec["clusterIPs"] = service_string_array(ips);
    spec["clusterIP"] = ips[0];
    return {};
  }

  std::optional<int> next_port(const ServiceUsage& usage, const std::set<int>& taken_here) const {
    const int size = ranges_.node_port_last - ranges_.node_port_first + 1;
    // The static band of node ports: min(max(16, size/32), 128).
    const int band = size <= 16 ? 0 : std::min(std::max(16, size / 32), 128);
    auto offset = service_pick(static_cast<std::uint64_t>(size), static_cast<std::uint64_t>(band),
                               pool_->random, [&](std::uint64_t o) {
                                 const int port = ranges_.node_port_first + static_cast<int>(o);
                                 return usage.ports.contains(port) || taken_here.contains(port);
                               });
    if (!offset) return std::nullopt;
    return ranges_.node_port_first + static_cast<int>(*offset);
  }

  // Checks a requested node port; "" when it can be had.
  std::string port_problem(std::int64_t port, const ServiceUsage& usage,
                           const std::set<int>& taken_here) const {
    if (port < ranges_.node_port_first || port > ranges_.node_port_last) {
      return fmt::format(
          "provided port is not in the valid range. The range of valid ports is {}-{}",
          ranges_.node_port_first, ranges_.node_port_last);
    }
    if (usage.ports.contains(static_cast<int>(port)) ||
        taken_here.contains(static_cast<int>(port))) {
      return "provided port is already allocated";
    }
    return "";
  }

  void take_port(int port, ServiceHold& hold, std::set<int>& taken_here) const {
    taken_here.insert(port);
    hold.ports.push_back(port);
    pool_->pending_ports.insert(port);
  }

  // allocNodePorts (create) and updateNodePorts (update).
  Result<void, api::Status> allocate_node_ports(json::object& service, const json::object* old,
                                                const ServiceUsage& usage,
                                                ServiceHold& hold) const {
    json::object& spec = api::ensure_object(service, "spec");
    if (!service_needs_node_ports(spec)) return {};
    // A LoadBalancer with allocateLoadBalancerNodePorts=false keeps only requested ports.
    const bool allocates = string_member(spec, "type") == "NodePort" ||
                           api::find_bool(spec, "allocateLoadBalancerNodePorts").value_or(true);
    json::value* ports_value = spec.if_contains("ports");
    if (ports_value == nullptr || !ports_value->is_array()) return {};
    json::array& ports = ports_value->get_array();
    const std::string name = api::metadata_string(service, "name");
    std::set<int> taken_here;
    const auto take_requested = [&](std::size_t i, std::int64_t port) -> Result<void, api::Status> {
      if (std::string problem = port_problem(port, usage, taken_here); !problem.empty()) {
        const std::string field = api::child(api::index("spec.ports", i), "nodePort");
        return fail(
            api::invalid({"", "Service"}, name, {api::invalid(field, port, std::move(problem))}));
      }
      take_port(static_cast<int>(port), hold, taken_here);
      return {};
    };
    const auto take_next = [&]() -> std::optional<int> {
      auto next = next_port(usage, taken_here);
      if (next) take_port(*next, hold, taken_here);
      return next;
    };
    const auto port_of = [&](std::size_t i) {
      return ports[i].is_object() ? int_member(ports[i].get_object(), "port").value_or(0) : 0;
    };
    const auto node_port_of = [&](std::size_t i) {
      return ports[i].is_object() ? int_member(ports[i].get_object(), "nodePort").value_or(0) : 0;
    };

    if (old == nullptr || !service_needs_node_ports(member_or_empty(*old, "spec"))) {
      // Ports of the same number share one node port: a requested one if any.
      std::map<std::int64_t, std::int64_t> by_port;
      for (std::size_t i = 0; i < ports.size(); ++i) {
        if (!ports[i].is_object() || (node_port_of(i) == 0 && !allocates)) continue;
        json::object& p = ports[i].get_object();
        const auto shared = by_port.find(port_of(i));
        if (shared == by_port.end()) {
          std::int64_t requested = 0;
          for (std::size_t j = 0; j < ports.size() && requested == 0; ++j) {
            if (port_of(j) == port_of(i)) requested = node_port_of(j);
          }
          if (requested != 0) {
            if (auto r = take_requested(i, requested); !r) return r;
            p["nodePort"] = requested;
          } else {
            auto next = take_next();
            if (!next)
              return fail(api::internal_error("failed to allocate a nodePort: range is full"));
            p["nodePort"] = *next;
          }
          by_port.emplace(port_of(i), int_member(p, "nodePort").value_or(0));
        } else if (node_port_of(i) != shared->second) {
          if (node_port_of(i) == 0) {
            p["nodePort"] = shared->second;
          } else if (auto r = take_requested(i, node_port_of(i)); !r) {
            return r;
          }
        }
      }
      return {};
    }

    std::set<std::int64_t> old_ports;
    if (const json::array* before = api::find_array(member_or_empty(*old, "spec"), "ports")) {
      for (const auto& p : *before) {
        if (p.is_object()) old_ports.insert(int_member(p.get_object(), "nodePort").value_or(0));
      }
    }
    for (std::size_t i = 0; i < ports.size(); ++i) {
      if (!ports[i].is_object() || (node_port_of(i) == 0 && !allocates)) continue;
      const std::int64_t requested = node_port_of(i);
      if (requested == 0) {
        auto next = take_next();
        if (!next) return fail(api::internal_error("failed to allocate a nodePort: range is full"));
        ports[i].get_object()["nodePort"] = *next;
      } else if (!old_ports.contains(requested) &&
                 !taken_here.contains(static_cast<int>(requested))) {
        if (auto r = take_requested(i, requested); !r) return r;
      }
    }
    return {};
  }

  Result<void, api::Status> allocate_health_check_port(json::object& service,
                                                       const json::object* old,
                                                       const ServiceUsage& usage,
                                                       ServiceHold& hold) const {
    json::object& spec = api::ensure_object(service, "spec");
    if (!service_needs_health_check_port(spec)) return {};
    const std::int64_t requested = int_member(spec, "healthCheckNodePort").value_or(0);
    if (old != nullptr && service_needs_health_check_port(member_or_empty(*old, "spec")) &&
        requested == int_member(member_or_empty(*old, "spec"), "healthCheckNodePort").value_or(0)) {
      return {};  // kept
    }
    std::set<int> taken_here(hold.ports.begin(), hold.ports.end());
    if (requested != 0) {
      if (std::string problem = port_problem(requested, usage, taken_here); !problem.empty()) {
        return fail(api::internal_error(fmt::format(
            "failed to allocate requested HealthCheck NodePort {}: {}", requested, problem)));
      }
      take_port(static_cast<int>(requested), hold, taken_here);
      return {};
    }
    auto next = next_port(usage, taken_here);
    if (!next) {
      return fail(api::internal_error("failed to allocate a HealthCheck NodePort: range is full"));
    }
    take_port(*next, hold, taken_here);
    spec["healthCheckNodePort"] = *next;
    return {};
  }

  const ServiceRanges ranges_;
  const std::shared_ptr<ServicePool> pool_;
};

}  // namespace

std::shared_ptr<const Allocator> service_allocator(const ServiceRanges& ranges) {
  return std::make_shared<ServiceAllocator>(ranges);
}

}  // namespace kcm::local::registry
