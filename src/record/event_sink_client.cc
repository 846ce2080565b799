#include "record/event_sink_client.h"

#include "client/resource_client.h"

namespace kcm::record {
namespace {

client::ResourceClient events(const std::shared_ptr<client::RestClient>& client,
                              std::string_view ns) {
  return client::ResourceClient(client, {"", "v1", "events"}, std::string(ns));
}

}  // namespace

SinkError to_sink_error(api::Status status) {
  if (client::is_client_error(status)) return SinkError::transport(std::move(status.message));
  return SinkError::from_status(std::move(status));
}

ClientEventSink::ClientEventSink(std::shared_ptr<client::RestClient> client)
    : client_(std::move(client)) {}

Result<api::json::value, SinkError> ClientEventSink::create(const api::json::value& event) {
  std::string_view ns;
  if (const auto* meta =
          event.is_object() ? api::find_object(event.get_object(), "metadata") : nullptr) {
    ns = api::find_string(*meta, "namespace").value_or("");
  }
  auto created = events(client_, ns).create(event);
  if (!created) return fail(to_sink_error(std::move(created).error()));
  return std::move(*created);
}

Result<api::json::value, SinkError> ClientEventSink::patch(std::string_view ns,
                                                           std::string_view name,
                                                           const api::json::value& patch) {
  auto patched = events(client_, ns)
                     .patch(name, client::PatchType::kStrategicMerge, api::to_json_string(patch));
  if (!patched) return fail(to_sink_error(std::move(patched).error()));
  return std::move(*patched);
}

}  // namespace kcm::record
