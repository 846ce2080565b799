// Each controller's own event broadcaster. Upstream's controllers create one
// in their constructor and start it in Run: events logged at -v=3 and written
// through the controller's own client (so its QPS limiter), each with its own
// correlator and queue of 1000. kcm does the same, keyed by component name.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "client/clientset.h"
#include "record/event_broadcaster.h"
#include "record/event_recorder.h"

namespace kcm::app {

// Upstream controllers' StartStructuredLogging(3).
inline constexpr int kControllerEventLogVerbosity = 3;

class ControllerEventBroadcasters {
 public:
  explicit ControllerEventBroadcasters(record::BroadcasterOptions options = {})
      : options_(std::move(options)) {}
  ~ControllerEventBroadcasters() { shutdown(); }
  ControllerEventBroadcasters(const ControllerEventBroadcasters&) = delete;
  ControllerEventBroadcasters& operator=(const ControllerEventBroadcasters&) = delete;

  // A recorder with source component `component`. The first request for a
  // component starts its broadcaster, writing through `client`; later ones
  // share it.
  std::shared_ptr<record::EventRecorder> recorder(std::string_view component,
                                                  const client::Clientset& client);

  // Stops every broadcaster: queued events are abandoned with an error log.
  void shutdown();

 private:
  const record::BroadcasterOptions options_;
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<record::EventBroadcaster>, std::less<>> by_component_;
};

}  // namespace kcm::app
