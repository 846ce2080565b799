// events.k8s.io/v1 Events are stored as core/v1 Events (upstream keeps both in
// one place), so each API version sees the other's writes. The versions differ
// only in field names.
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

// (events.k8s.io/v1 name, core/v1 name)
constexpr std::pair<std::string_view, std::string_view> kRenamed[] = {
    {"regarding", "involvedObject"},
    {"note", "message"},
    {"deprecatedSource", "source"},
    {"deprecatedFirstTimestamp", "firstTimestamp"},
    {"deprecatedLastTimestamp", "lastTimestamp"},
    {"deprecatedCount", "count"},
    {"reportingController", "reportingComponent"},
};

void rename(json::object& obj, std::string_view from, std::string_view to) {
  auto it = obj.find(from);
  if (it == obj.end()) return;
  json::value v = std::move(it->value());
  obj.erase(it);
  obj[to] = std::move(v);
}

class EventsToCore final : public Conversion {
 public:
  void to_storage(json::object& obj) const override {
    obj["apiVersion"] = "v1";
    for (const auto& [events, core] : kRenamed)
      rename(obj, events, core);
  }
  void from_storage(json::object& obj) const override {
    obj["apiVersion"] = "events.k8s.io/v1";
    for (const auto& [events, core] : kRenamed)
      rename(obj, core, events);
    // Empty legacy fields are left out, as the v1 conversion does.
    if (const json::value* c = obj.if_contains("deprecatedCount");
        c && c->is_int64() && c->get_int64() == 0) {
      obj.erase("deprecatedCount");
    }
    if (const json::value* s = obj.if_contains("deprecatedSource");
        s && s->is_object() && s->get_object().empty()) {
      obj.erase("deprecatedSource");
    }
  }
};

}  // namespace

std::shared_ptr<const Conversion> events_to_core_conversion() {
  return std::make_shared<EventsToCore>();
}

}  // namespace kcm::local::registry
