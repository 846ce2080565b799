// Where the broadcaster writes events (upstream's EventSink, which
// client-go implements over CoreV1().Events("")). The REST client adapter
// lives in event_sink_client.h when that client exists; tests use fakes.
#pragma once

#include <string_view>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"

namespace kcm::record {

// Why a write failed; decides whether the sink writer tries again.
struct SinkError {
  enum class Kind {
    // The connection failed or the server's answer could not be read: retry.
    kTransport,
    // The request could not be built; building it again gives the same: give up.
    kRequestConstruction,
    // The server answered with a Status (AlreadyExists, Invalid, NotFound...).
    kStatus,
  };
  Kind kind = Kind::kTransport;
  api::Status status;  // for kStatus the server's; otherwise `message` says what broke

  static SinkError transport(std::string message);
  static SinkError request_construction(std::string message);
  static SinkError from_status(api::Status status);
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  // POST the event (its JSON, metadata.namespace set) to its namespace;
  // returns the stored event.
  virtual Result<api::json::value, SinkError> create(const api::json::value& event) = 0;
  // PATCH (application/strategic-merge-patch+json) events/<name> in <ns>.
  virtual Result<api::json::value, SinkError> patch(std::string_view ns, std::string_view name,
                                                    const api::json::value& patch) = 0;
};

inline SinkError SinkError::transport(std::string message) {
  SinkError e;
  e.kind = Kind::kTransport;
  e.status.message = std::move(message);
  return e;
}

inline SinkError SinkError::request_construction(std::string message) {
  SinkError e;
  e.kind = Kind::kRequestConstruction;
  e.status.message = std::move(message);
  return e;
}

inline SinkError SinkError::from_status(api::Status status) {
  SinkError e;
  e.kind = Kind::kStatus;
  e.status = std::move(status);
  return e;
}

}  // namespace kcm::record
