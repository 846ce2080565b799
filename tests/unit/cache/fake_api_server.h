// An in-memory API server for one resource, as a ListerWatcher: numbered
// resourceVersions, paginated lists with continue tokens, watches from any
// retained resourceVersion, bookmarks, streamed initial lists, and failure
// injection (compaction → 410, expired continue tokens, broken or closed
// watches, one-shot list/watch errors).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api/json.h"
#include "api/status.h"
#include "cache/lister_watcher.h"

namespace kcm::cache::testing {

namespace json = boost::json;

// A pod with the given labels (namespace may be "" for a cluster-scoped object).
json::value make_object(const std::string& ns, const std::string& name,
                        const std::map<std::string, std::string>& labels = {});

class FakeApiServer : public ListerWatcher {
 public:
  FakeApiServer();
  ~FakeApiServer() override;

  // Writes; each bumps the resourceVersion and notifies watches. They return
  // the stored object (with metadata.resourceVersion and uid set).
  json::value create(json::value obj);
  json::value update(json::value obj);  // creates when absent
  bool remove(const std::string& ns, const std::string& name);

  std::int64_t resource_version() const;
  // Current objects by key ("ns/name").
  std::map<std::string, json::value> objects() const;

  // Failure injection.
  // Forgets the event history: watches from an older RV get a 410 Expired ERROR event.
  void compact();
  // Open continue tokens stop working (410 Expired).
  void expire_continue_tokens();
  // Every open watch's next() returns `error` (a broken connection).
  void break_watches(const api::Status& error);
  // Every open watch ends normally (next() returns nullopt), like timeoutSeconds.
  void close_watches();
  // A BOOKMARK at the current RV to every watch that allowed bookmarks.
  void send_bookmark();
  // The next n list / watch calls fail with `error`.
  void fail_next_lists(const api::Status& error, int n = 1);
  void fail_next_watches(const api::Status& error, int n = 1);
  // Without it, watches with sendInitialEvents fail with 400 (an old server).
  void set_supports_watch_list(bool v);
  // A network partition: writes reach no open watch, and list/watch calls fail
  // with "connection refused".
  void set_partitioned(bool v);

  // Requests seen.
  std::vector<client::ListOptions> list_calls() const;
  std::vector<client::ListOptions> watch_calls() const;
  std::size_t open_watches() const;

  Result<ListPage, api::Status> list(const client::ListOptions& options) override;
  Result<std::unique_ptr<client::WatchStream>, api::Status> watch(
      const client::ListOptions& options) override;

  struct Channel;

 private:
  struct Event {
    std::int64_t rv;
    client::WatchEventType type;
    json::value object;
  };
  struct Snapshot {
    std::int64_t rv;
    std::vector<json::value> items;
  };

  void record_locked(client::WatchEventType type, const json::value& obj);
  std::vector<std::shared_ptr<Channel>> live_channels_locked();
  bool selected(const client::ListOptions& options, const json::value& obj) const;

  mutable std::mutex mu_;
  std::int64_t rv_ = 100;
  std::int64_t compacted_rv_ = 0;
  std::int64_t next_uid_ = 1;
  std::map<std::string, json::value> objects_;
  std::vector<Event> history_;
  std::map<std::int64_t, Snapshot> snapshots_;
  std::int64_t next_snapshot_ = 1;
  std::vector<std::weak_ptr<Channel>> channels_;
  std::deque<api::Status> list_failures_;
  std::deque<api::Status> watch_failures_;
  bool supports_watch_list_ = true;
  bool partitioned_ = false;
  std::vector<client::ListOptions> list_calls_;
  std::vector<client::ListOptions> watch_calls_;
};

}  // namespace kcm::cache::testing
