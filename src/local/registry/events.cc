// core/v1 and events.k8s.io/v1 Events.
#include "local/registry/event_validation.h"
#include "local/registry/object_fields.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

class CoreEventStrategy final : public Strategy {
 public:
  api::FieldErrors validate(const json::object& obj) const override {
    return validate_event_create(obj, EventApi::kCoreV1);
  }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return validate_event_update(obj, old, EventApi::kCoreV1);
  }
  void field_values(const json::object& obj, std::vector<std::string>& out) const override {
    for (const char* f :
         {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
          "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
          "involvedObject.fieldPath", "reason", "reportingComponent", "source.component", "type"}) {
      out.push_back(field_string(obj, f));
    }
  }
};

class EventsEventStrategy final : public Strategy {
 public:
  api::FieldErrors validate(const json::object& obj) const override {
    return validate_event_create(obj, EventApi::kEventsV1);
  }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return validate_event_update(obj, old, EventApi::kEventsV1);
  }
  void field_values(const json::object& obj, std::vector<std::string>& out) const override {
    for (const char* f : {"regarding.kind", "regarding.namespace", "regarding.name",
                          "regarding.uid", "regarding.apiVersion", "regarding.resourceVersion",
                          "regarding.fieldPath", "reason", "reportingController", "type"}) {
      out.push_back(field_string(obj, f));
    }
  }
};

}  // namespace

std::shared_ptr<const Strategy> core_event_strategy() {
  return std::make_shared<CoreEventStrategy>();
}
std::shared_ptr<const Strategy> events_event_strategy() {
  return std::make_shared<EventsEventStrategy>();
}

}  // namespace kcm::local::registry
