// EventSink over the REST client: core/v1 events in the event's namespace
// (client-go's EventSinkImpl over CoreV1().Events("")).
#pragma once

#include <memory>

#include "client/rest_client.h"
#include "record/event_sink.h"

namespace kcm::record {

class ClientEventSink : public EventSink {
 public:
  explicit ClientEventSink(std::shared_ptr<client::RestClient> client);

  Result<api::json::value, SinkError> create(const api::json::value& event) override;
  Result<api::json::value, SinkError> patch(std::string_view ns, std::string_view name,
                                            const api::json::value& patch) override;

 private:
  std::shared_ptr<client::RestClient> client_;
};

// The client reports failures without an HTTP answer (transport errors and
// request construction alike) as code-0 Statuses; both are retried.
SinkError to_sink_error(api::Status status);

}  // namespace kcm::record
