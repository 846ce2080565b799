#include "app/controller_events.h"

#include "record/event_sink_client.h"

namespace kcm::app {

std::shared_ptr<record::EventRecorder> ControllerEventBroadcasters::recorder(
    std::string_view component, const client::Clientset& client) {
  std::lock_guard lock(mu_);
  auto it = by_component_.find(component);
  if (it == by_component_.end()) {
    auto broadcaster = std::make_unique<record::EventBroadcaster>(options_);
    broadcaster->start_structured_logging(kControllerEventLogVerbosity);
    broadcaster->start_recording_to_sink(std::make_shared<record::ClientEventSink>(client.rest()));
    it = by_component_.emplace(std::string(component), std::move(broadcaster)).first;
  }
  return it->second->new_recorder({.component = std::string(component)});
}

void ControllerEventBroadcasters::shutdown() {
  std::map<std::string, std::unique_ptr<record::EventBroadcaster>, std::less<>> stopping;
  {
    std::lock_guard lock(mu_);
    stopping.swap(by_component_);
  }
  for (auto& [component, broadcaster] : stopping)
    broadcaster->shutdown();
}

}  // namespace kcm::app
