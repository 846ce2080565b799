// The fixture of the REST store's tests: the built-in kinds on an in-memory
// store, whose writes complete at once (callbacks run inline).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "local/apiserver/rest_store.h"
#include "local/apiserver/stored_codec.h"

namespace kcm::local::apiserver {

class RestStoreTest : public ::testing::Test {
 protected:
  RestStoreTest() : table_(registry::builtin_resources()), rest_(store_, table_) {
    create_namespace("default");
  }

  const ResourceInfo& resource(std::string_view group, std::string_view plural) {
    const ResourceInfo* r = table_.find(group, "v1", plural);
    EXPECT_NE(r, nullptr);
    return *r;
  }

  // The in-memory store completes writes at once, so callbacks run inline.
  Result<WriteResult, api::Status> create(const ResourceInfo& r, std::string_view ns,
                                          json::object obj, WriteOptions options = {}) {
    Result<WriteResult, api::Status> out = fail(api::internal_error("no callback"));
    rest_.create(r, ns, std::move(obj), options, [&](auto res) { out = std::move(res); });
    return out;
  }
  Result<WriteResult, api::Status> update(const ResourceInfo& r, std::string_view ns,
                                          std::string_view name, json::object obj,
                                          Subresource sub = Subresource::kNone) {
    Result<WriteResult, api::Status> out = fail(api::internal_error("no callback"));
    rest_.update(r, ns, name, sub, std::move(obj), {}, [&](auto res) { out = std::move(res); });
    return out;
  }
  Result<WriteResult, api::Status> remove(const ResourceInfo& r, std::string_view ns,
                                          std::string_view name, DeleteOptions options = {}) {
    Result<WriteResult, api::Status> out = fail(api::internal_error("no callback"));
    rest_.remove(r, ns, name, options, [&](auto res) { out = std::move(res); });
    return out;
  }
  json::object current(const ResourceInfo& r, std::string_view ns, std::string_view name) {
    auto o = rest_.get(r, ns, name);
    EXPECT_TRUE(o.ok());
    return o ? parse_stored(**o) : json::object();
  }
  void create_namespace(std::string_view name) {
    auto r = create(resource("", "namespaces"), "",
                    json::parse(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" +
                                std::string(name) + R"("}})")
                        .as_object());
    ASSERT_TRUE(r) << r.error().message;
  }

  static json::object pod(std::string_view name, std::string_view extra_meta = "") {
    return json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" +
                       std::string(name) + "\"" + std::string(extra_meta) +
                       R"(},"spec":{"containers":[{"name":"c","image":"busybox"}]}})")
        .as_object();
  }
  static json::object deployment(std::string_view name) {
    return json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":")" +
                       std::string(name) +
                       R"("},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"w"}},)"
                       R"("template":{"metadata":{"labels":{"app":"w"}},"spec":{"containers":[)"
                       R"({"name":"c","image":"nginx"}]}}}})")
        .as_object();
  }
  static std::string meta(const json::object& o, std::string_view key) {
    const json::value* v = o.at("metadata").as_object().if_contains(key);
    if (v == nullptr) return "<absent>";
    return v->is_string() ? std::string(v->get_string()) : json::serialize(*v);
  }

  storage::Store store_;
  registry::ResourceTable table_;
  RestStore rest_;
};

}  // namespace kcm::local::apiserver
