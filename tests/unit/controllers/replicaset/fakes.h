// Fakes for the ReplicaSet controller tests: an in-memory resource that
// informers list and watch (so handlers and listers run for real, without an
// API server), a recording PodControl and a recording ReplicaSetClient.
#pragma once

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "api/json.h"
#include "api/status.h"
#include "cache/lister_watcher.h"
#include "controller/controller_ref_manager.h"
#include "controllers/replicaset/replica_set_controller.h"

namespace kcm::controllers::replicaset::testing {

namespace json = boost::json;

// One resource's objects with numbered resourceVersions; every write reaches
// the open watches. Objects get a uid ("uid-<name>") unless they have one.
class FakeResource : public cache::ListerWatcher {
 public:
  FakeResource();
  ~FakeResource() override;

  json::value create(json::value obj);  // replaces an object of the same key
  json::value update(json::value obj);
  bool remove(const std::string& key);
  std::optional<json::value> get(const std::string& key) const;

  Result<cache::ListPage, api::Status> list(const client::ListOptions& options) override;
  Result<std::unique_ptr<client::WatchStream>, api::Status> watch(
      const client::ListOptions& options) override;

  struct Channel;

 private:
  json::value write_locked(json::value obj, client::WatchEventType type);

  mutable std::mutex mu_;
  std::int64_t rv_ = 10;
  std::map<std::string, json::value> objects_;
  std::vector<std::pair<std::int64_t, client::WatchEvent>> history_;
  std::vector<std::weak_ptr<Channel>> channels_;
};

// upstream FakePodControl: records every call; `create_error`/`delete_error`/
// `patch_error` fail the calls; `create_limit` > 0 fails creations past that
// count. With `pods` set, successful creations are written to it (named
// <generateName><n>), so that informers see them.
class FakePodControl : public controller::PodControl {
 public:
  Result<void, api::Status> create_pod(std::string_view namespace_, const json::object& pod,
                                       const json::object& owner) override;
  Result<void, api::Status> delete_pod(std::string_view namespace_, std::string_view name,
                                       const json::object& owner) override;
  Result<void, api::Status> patch_pod(std::string_view namespace_, std::string_view name,
                                      std::string_view patch) override;

  std::vector<json::object> created() const;
  std::vector<std::string> deleted() const;  // names
  std::vector<std::string> patches() const;  // "<name> <patch>"
  int create_calls() const;

  mutable std::mutex mu;
  std::optional<api::Status> create_error;
  std::optional<api::Status> delete_error;
  std::optional<api::Status> patch_error;
  int create_limit = 0;
  std::shared_ptr<FakeResource> pods;

 private:
  std::vector<json::object> created_;
  std::vector<std::string> deleted_;
  std::vector<std::string> patches_;
  int create_calls_ = 0;
};

// Answers from a FakeResource of ReplicaSets; records status writes.
// `update_errors` fail the next writes in order; `get_error` fails GETs.
class FakeReplicaSetClient : public ReplicaSetClient {
 public:
  explicit FakeReplicaSetClient(std::shared_ptr<FakeResource> rss) : rss_(std::move(rss)) {}
  Result<json::value, api::Status> get(std::string_view namespace_, std::string_view name) override;
  Result<void, api::Status> update_status(const json::value& rs) override;

  std::vector<json::value> status_updates() const;
  int gets() const;

  mutable std::mutex mu;
  std::deque<api::Status> update_errors;
  std::optional<api::Status> get_error;
  // What GET answers instead of the stored object (e.g. a deleting RS).
  std::optional<json::value> get_override;

 private:
  std::shared_ptr<FakeResource> rss_;
  std::vector<json::value> updates_;
  int gets_ = 0;
};

}  // namespace kcm::controllers::replicaset::testing
