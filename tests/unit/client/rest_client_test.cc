#include "client/rest_client.h"

#include <gtest/gtest.h>

#include "client/resource_client.h"

namespace kcm::client {
namespace {

Request make(std::string verb, api::GroupVersion gv, std::optional<std::string> ns,
             std::string resource, std::string name = "", std::string subresource = "") {
  Request r;
  r.verb = std::move(verb);
  r.group_version = std::move(gv);
  r.namespace_name = std::move(ns);
  r.resource = std::move(resource);
  r.name = std::move(name);
  r.subresource = std::move(subresource);
  return r;
}

TEST(RequestTargetTest, Paths) {
  struct Case {
    std::string prefix;
    Request request;
    std::string want;
  };
  Request with_params = make("GET", {"", "v1"}, "default", "pods");
  with_params.params = {{"limit", "5"}, {"labelSelector", "app in (a,b)"}, {"continue", "x/y=="}};
  Request with_timeout = make("GET", {"", "v1"}, std::nullopt, "nodes");
  with_timeout.timeout = std::chrono::milliseconds(1500);
  Request abs;
  abs.abs_path = "/version";
  const std::vector<Case> cases = {
      {"", make("GET", {"", "v1"}, std::nullopt, "namespaces"), "/api/v1/namespaces"},
      {"", make("GET", {"", "v1"}, "kube-system", "pods", "p-1"),
       "/api/v1/namespaces/kube-system/pods/p-1"},
      {"", make("PUT", {"apps", "v1"}, "ns", "deployments", "d", "status"),
       "/apis/apps/v1/namespaces/ns/deployments/d/status"},
      {"", make("GET", {"apps", "v1"}, "", "deployments"), "/apis/apps/v1/deployments"},
      {"", make("GET", {"coordination.k8s.io", "v1"}, std::nullopt, "Leases"),
       "/apis/coordination.k8s.io/v1/leases"},
      {"/prefix", make("GET", {"", "v1"}, std::nullopt, "nodes", "n1"), "/prefix/api/v1/nodes/n1"},
      {"", make("GET", {"", "v1"}, std::nullopt, "nodes", "a b"), "/api/v1/nodes/a%20b"},
      {"", with_params,
       "/api/v1/namespaces/default/pods?continue=x%2Fy%3D%3D&labelSelector=app+in+%28a%2Cb%29&"
       "limit=5"},
      {"", with_timeout, "/api/v1/nodes?timeout=1.5s"},
      {"", abs, "/version"},
  };
  for (const auto& c : cases) {
    auto got = request_target(c.prefix, c.request);
    ASSERT_TRUE(got.ok()) << got.error();
    EXPECT_EQ(*got, c.want);
  }
}

TEST(RequestTargetTest, ConstructionErrors) {
  struct Case {
    Request request;
    std::string error;
  };
  const std::vector<Case> cases = {
      {make("GET", {"", "v1"}, std::nullopt, "pods", "a/b"),
       "invalid resource name \"a/b\": [may not contain '/']"},
      {make("GET", {"", "v1"}, std::nullopt, "pods", "a/%"),
       "invalid resource name \"a/%\": [may not contain '/' may not contain '%']"},
      {make("GET", {"", "v1"}, std::nullopt, "pods", ".."),
       "invalid resource name \"..\": [may not be '..']"},
      {make("GET", {"", "v1"}, std::nullopt, "po/ds"),
       "invalid resource \"po/ds\": [may not contain '/']"},
      {make("GET", {"", "v1"}, ".", "pods"), "invalid namespace \".\": [may not be '.']"},
      {make("GET", {"", "v1"}, "ns", "pods", "p", "st%"),
       "invalid subresource \"st%\": [may not contain '%']"},
      {make("POST", {"", "v1"}, "", "pods"), "an empty namespace may not be set during creation"},
      {make("DELETE", {"", "v1"}, "", "pods", "p"),
       "an empty namespace may not be set when a resource name is provided"},
  };
  for (const auto& c : cases) {
    auto got = request_target("", c.request);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error(), c.error);
  }
}

TEST(EncodeQueryTest, SortsKeysKeepsValueOrder) {
  EXPECT_EQ(encode_query({{"b", "2"}, {"a", "z"}, {"dryRun", "All"}, {"a", "y"}}),
            "a=z&a=y&b=2&dryRun=All");
  EXPECT_EQ(encode_query({{"x", "~-_. +&="}}), "x=~-_.+%2B%26%3D");
  EXPECT_EQ(encode_query({}), "");
}

TEST(ErrorFromResponseTest, DecodesStatusBodies) {
  const std::string body =
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404})";
  const auto s = error_from_response(404, "application/json", body, "GET", {"", "pods"}, "x", 0);
  EXPECT_EQ(s.code, 404);
  EXPECT_EQ(s.reason, "NotFound");
  EXPECT_EQ(s.message, "pods \"x\" not found");
  ASSERT_TRUE(s.details.has_value());
  EXPECT_EQ(s.details->name, "x");
  EXPECT_TRUE(s.details->causes.empty());
}

TEST(ErrorFromResponseTest, SynthesizesForOtherBodies) {
  struct Case {
    int code;
    std::string content_type;
    std::string body;
    std::string method;
    api::GroupResource gr;
    std::string name;
    int retry_after;
    std::string reason;
    std::string message;
    std::string cause;
  };
  const std::vector<Case> cases = {
      {404,
       "text/plain; charset=utf-8",
       "404 page not found\n",
       "GET",
       {},
       "",
       0,
       "NotFound",
       "the server could not find the requested resource",
       "404 page not found"},
      {404,
       "",
       "",
       "GET",
       {"", "pods"},
       "x",
       0,
       "NotFound",
       "the server could not find the requested resource (get pods x)",
       ""},
      {409,
       "text/plain",
       "dup",
       "POST",
       {"apps", "deployments"},
       "",
       0,
       "AlreadyExists",
       "the server reported a conflict (post deployments.apps)",
       "dup"},
      {409,
       "text/plain",
       "dup",
       "PUT",
       {},
       "",
       0,
       "Conflict",
       "the server reported a conflict",
       "dup"},
      {401,
       "text/plain",
       "Unauthorized",
       "GET",
       {},
       "",
       0,
       "Unauthorized",
       "the server has asked for the client to provide credentials",
       "Unauthorized"},
      {403,
       "text/plain",
       "forbidden: nope",
       "GET",
       {},
       "",
       0,
       "Forbidden",
       "forbidden: nope",
       "forbidden: nope"},
      {406,
       "application/octet-stream",
       "xx",
       "GET",
       {},
       "",
       0,
       "NotAcceptable",
       "the server was unable to respond with a content type that the client supports",
       "unknown"},
      {500,
       "application/json",
       R"({"kind":"Pod"})",
       "GET",
       {},
       "",
       0,
       "InternalError",
       "an error on the server (\"unknown\") has prevented the request from succeeding",
       "unknown"},
      {502,
       "text/html",
       "<b>bad \"gw\"</b>",
       "GET",
       {},
       "",
       0,
       "InternalError",
       "an error on the server (\"<b>bad \\\"gw\\\"</b>\") has prevented the request from "
       "succeeding",
       "<b>bad \"gw\"</b>"},
      {429,
       "text/plain",
       "slow down",
       "GET",
       {},
       "",
       7,
       "TooManyRequests",
       "the server has received too many requests and has asked us to try again later",
       "slow down"},
      {503,
       "text/plain",
       "",
       "GET",
       {},
       "",
       0,
       "ServiceUnavailable",
       "the server is currently unable to handle the request",
       ""},
      {504,
       "text/plain",
       "",
       "GET",
       {},
       "",
       0,
       "Timeout",
       "the server was unable to return a response in the time allotted, but may still be "
       "processing the request",
       ""},
      {418,
       "text/plain",
       "teapot",
       "GET",
       {},
       "",
       0,
       "",
       "the server responded with the status code 418 but did not return more information",
       "teapot"},
      // A Status that is not a failure is not taken as the error.
      {400,
       "application/json",
       R"({"kind":"Status","status":"Success"})",
       "GET",
       {},
       "",
       0,
       "BadRequest",
       "the server rejected our request for an unknown reason",
       "unknown"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.message);
    const auto s =
        error_from_response(c.code, c.content_type, c.body, c.method, c.gr, c.name, c.retry_after);
    EXPECT_EQ(s.code, c.code);
    EXPECT_EQ(s.reason, c.reason);
    EXPECT_EQ(s.message, c.message);
    ASSERT_TRUE(s.details.has_value());
    EXPECT_EQ(s.details->retry_after_seconds, c.retry_after);
    EXPECT_EQ(s.details->kind, c.gr.resource);
    EXPECT_EQ(s.details->name, c.name);
    ASSERT_EQ(s.details->causes.size(), 1u);
    EXPECT_EQ(s.details->causes[0].type, "UnexpectedServerResponse");
    EXPECT_EQ(s.details->causes[0].message, c.cause);
  }
}

TEST(ErrorFromResponseTest, CapsUnstructuredBodies) {
  const std::string body(5000, 'x');
  const auto s = error_from_response(500, "text/plain", body, "GET", {}, "", 0);
  EXPECT_EQ(s.details->causes[0].message.size(), 2048u);
}

TEST(ParseWarningsTest, Table) {
  const Headers headers = {
      {"Warning", R"(299 - "first warning")"},
      {"warning", R"(299 - "a \"quoted\" one", 299 - "second, with comma" "Wed, 21 Oct 2015")"},
      {"Warning", R"(199 - "misc warning")"},
      {"Warning", "garbage"},
      {"Content-Type", "application/json"},
  };
  EXPECT_EQ(parse_warnings(headers),
            (std::vector<std::string>{"first warning", "a \"quoted\" one", "second, with comma"}));
}

TEST(ParseHostTest, Table) {
  struct Case {
    std::string input;
    std::string scheme, host, port, prefix;
  };
  const std::vector<Case> cases = {
      {"https://127.0.0.1:6443", "https", "127.0.0.1", "6443", ""},
      {"https://example.com", "https", "example.com", "443", ""},
      {"http://localhost:8080/", "http", "localhost", "8080", ""},
      {"example.com:6443/k8s/clusters/c-1/", "https", "example.com", "6443", "/k8s/clusters/c-1"},
      {"https://[::1]:6443", "https", "::1", "6443", ""},
      {"HTTPS://[fe80::1]", "https", "fe80::1", "443", ""},
  };
  for (const auto& c : cases) {
    auto got = parse_host(c.input);
    ASSERT_TRUE(got.ok()) << got.error();
    EXPECT_EQ(got->scheme, c.scheme);
    EXPECT_EQ(got->host, c.host);
    EXPECT_EQ(got->port, c.port);
    EXPECT_EQ(got->path_prefix, c.prefix);
  }
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"ftp://x", "host \"ftp://x\": unsupported scheme \"ftp\" (want https or http)"},
      {"https://", "host \"https://\": no host name"},
      {"https://h:99999", "host \"https://h:99999\": invalid port \"99999\""},
      {"https://h:", "host \"https://h:\": empty port"},
      {"https://[::1", "host \"https://[::1\": missing ']' in address"},
  };
  for (const auto& [input, error] : bad) {
    auto got = parse_host(input);
    ASSERT_FALSE(got.ok()) << input;
    EXPECT_EQ(got.error(), error);
  }
}

TEST(ListParamsTest, OnlySetOptions) {
  ListOptions o;
  EXPECT_TRUE(list_params(o, false).empty());
  EXPECT_EQ(encode_query(list_params(o, true)), "watch=true");
  o.label_selector = "a=b";
  o.field_selector = "metadata.name=x";
  o.resource_version = "10";
  o.resource_version_match = "NotOlderThan";
  o.limit = 50;
  o.continue_token = "tok";
  o.timeout_seconds = 300;
  o.allow_watch_bookmarks = true;
  o.send_initial_events = true;
  EXPECT_EQ(encode_query(list_params(o, true)),
            "allowWatchBookmarks=true&continue=tok&fieldSelector=metadata.name%3Dx&"
            "labelSelector=a%3Db&limit=50&resourceVersion=10&resourceVersionMatch=NotOlderThan&"
            "sendInitialEvents=true&timeoutSeconds=300&watch=true");
}

TEST(DeleteOptionsTest, ToJson) {
  EXPECT_EQ(api::to_json_string(to_json(DeleteOptions{})),
            R"({"kind":"DeleteOptions","apiVersion":"v1"})");
  DeleteOptions o;
  o.grace_period_seconds = 0;
  o.preconditions = Preconditions{"uid-1", "42"};
  o.propagation_policy = "Foreground";
  o.dry_run = {"All"};
  EXPECT_EQ(api::to_json_string(to_json(o)),
            R"({"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0,)"
            R"("preconditions":{"uid":"uid-1","resourceVersion":"42"},)"
            R"("propagationPolicy":"Foreground","dryRun":["All"]})");
}

TEST(PatchTypeTest, ContentTypes) {
  EXPECT_EQ(content_type(PatchType::kJson), "application/json-patch+json");
  EXPECT_EQ(content_type(PatchType::kMerge), "application/merge-patch+json");
  EXPECT_EQ(content_type(PatchType::kStrategicMerge), "application/strategic-merge-patch+json");
  EXPECT_EQ(content_type(PatchType::kApply), "application/apply-patch+yaml");
}

}  // namespace
}  // namespace kcm::client
