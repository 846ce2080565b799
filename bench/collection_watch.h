// Follows a collection of the API server from a benchmark: lists it, then
// watches it from the list's resourceVersion (watching again when a stream
// ends, listing again after 410 Gone), handing every object to a handler in
// the order the server sent them. Runs on the ApiClient's I/O thread.
#pragma once

#include <boost/json/object.hpp>
#include <functional>
#include <future>
#include <memory>
#include <string>

#include "api/result.h"
#include "bench/api_client.h"

namespace kcm::bench {

enum class WatchEventType { kAdded, kModified, kDeleted };

class CollectionWatch {
 public:
  // Called on the I/O thread; items of a list arrive as kAdded.
  using Handler = std::function<void(WatchEventType, const boost::json::object& object)>;

  // Returns once the first list has been handed over and the watch is open.
  // `collection` is a path such as "/apis/apps/v1/namespaces/bench/replicasets".
  // The watch must be destroyed before `api`.
  static Result<std::unique_ptr<CollectionWatch>> start(ApiClient& api, std::string collection,
                                                        Handler handler);
  ~CollectionWatch();  // stop()
  CollectionWatch(const CollectionWatch&) = delete;
  CollectionWatch& operator=(const CollectionWatch&) = delete;

  // Closes the stream and waits for the watch loop to end. Idempotent.
  void stop();

  // Relists after 410 Gone and stream errors met so far (0 in a clean run).
  std::size_t relists() const;
  std::string last_error() const;

 private:
  struct State;
  explicit CollectionWatch(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

}  // namespace kcm::bench
