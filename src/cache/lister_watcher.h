// What a reflector needs from the API: list a resource (one page) and watch
// it. The client's resource clients implement it (client/resource_client.h);
// tests use fakes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/json.h"
#include "api/result.h"
#include "api/status.h"
#include "client/list_options.h"
#include "client/watch_event.h"

namespace kcm::cache {

struct ListPage {
  std::vector<boost::json::value> items;
  std::string resource_version;
  std::string continue_token;
};

class ListerWatcher {
 public:
  virtual ~ListerWatcher() = default;
  virtual Result<ListPage, api::Status> list(const client::ListOptions& options) = 0;
  virtual Result<std::unique_ptr<client::WatchStream>, api::Status> watch(
      const client::ListOptions& options) = 0;
};

}  // namespace kcm::cache
