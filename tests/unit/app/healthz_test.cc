#include "app/healthz.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "app/url_unescape.h"

namespace kcm::app {
namespace {

NamedHealthCheck bad_check(std::string name = "bad", std::string err = "this will fail") {
  return {std::move(name), [err]() -> Result<void> { return fail(err); }};
}

// apiserver healthz_test.go testMultipleChecks, for /healthz and /ready.
struct MultipleChecksCase {
  std::string suffix;  // path suffix and query
  std::string body;
  int status;
  bool add_bad;
};

void run_multiple_checks(const std::string& path, const std::string& name) {
  const std::vector<MultipleChecksCase> cases = {
      {"?verbose", "[+]ping ok\n" + name + " check passed\n", 200, false},
      {"?exclude=dontexist", "ok", 200, false},
      {"?exclude=bad", "ok", 200, true},
      {"?verbose=true&exclude=bad", "[+]ping ok\n[+]bad excluded: ok\n" + name + " check passed\n",
       200, true},
      {"?verbose=true&exclude=dontexist",
       "[+]ping ok\nwarn: some health checks cannot be excluded: no matches for \"dontexist\"\n" +
           name + " check passed\n",
       200, false},
      {"/ping", "ok", 200, false},
      {"", "ok", 200, false},
      {"?verbose", "[+]ping ok\n[-]bad failed: reason withheld\n" + name + " check failed\n", 500,
       true},
      {"/ping", "ok", 200, true},
      {"/bad", "internal server error: this will fail\n", 500, true},
      {"", "[+]ping ok\n[-]bad failed: reason withheld\n" + name + " check failed\n", 500, true},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(path + tc.suffix);
    std::vector<NamedHealthCheck> checks = {ping_check()};
    if (tc.add_bad) checks.push_back(bad_check());
    const HealthzHandler h(std::move(checks), path);
    const std::string target = path + tc.suffix;
    const auto q = target.find('?');
    const auto r =
        h.serve(target.substr(0, q), q == std::string::npos ? std::string() : target.substr(q + 1));
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, tc.status);
    EXPECT_EQ(r->content_type, "text/plain; charset=utf-8");
    EXPECT_EQ(r->body, tc.body);
  }
}

TEST(HealthzTest, MultipleChecksAsUpstream) {
  run_multiple_checks("/healthz", "healthz");
}

TEST(HealthzTest, MultiplePathChecksAsUpstream) {
  run_multiple_checks("/ready", "ready");
}

TEST(HealthzTest, LivezAndReadyzRenderWithTheirNames) {
  const HealthzHandler livez({bad_check("x")}, "/livez");
  const auto r = livez.serve("/livez", "");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "[-]x failed: reason withheld\nlivez check failed\n");
  const HealthzHandler readyz({}, "/readyz");
  EXPECT_EQ(readyz.serve("/readyz", "verbose")->body, "[+]ping ok\nreadyz check passed\n");
}

// controller-manager handler_test.go TestMutableHealthzHandler.
struct MutableCase {
  std::string name;
  std::vector<std::vector<std::string>> batches;  // "bad" fails, others ping
  bool append_bad;
  std::string path;
  std::string query;
  std::string body;
  int status;
};

TEST(HealthzTest, MutableHandlerAsUpstream) {
  const std::vector<MutableCase> cases = {
      {"empty", {}, false, "/healthz", "", "ok", 200},
      {"good", {{"good"}}, false, "/healthz", "", "ok", 200},
      {"good verbose",
       {{"good"}},
       false,
       "/healthz",
       "verbose=true",
       "[+]good ok\nhealthz check passed\n",
       200},
      {"good and bad, same batch",
       {{"good", "bad"}},
       false,
       "/healthz",
       "",
       "[+]good ok\n[-]bad failed: reason withheld\nhealthz check failed\n",
       500},
      {"good and bad, two batches",
       {{"good"}, {"bad"}},
       false,
       "/healthz",
       "",
       "[+]good ok\n[-]bad failed: reason withheld\nhealthz check failed\n",
       500},
      {"two checks and append bad", {{"foo", "bar"}}, true, "/healthz", "", "ok", 200},
      {"subcheck", {{"good"}, {"bad"}}, false, "/healthz/good", "", "ok", 200},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.name);
    HealthzHandler h;
    for (const auto& batch : tc.batches) {
      std::vector<NamedHealthCheck> checks;
      for (const auto& n : batch)
        checks.push_back(n == "bad" ? bad_check("bad", "bad") : ping_check(n));
      ASSERT_TRUE(h.add_checks(std::move(checks)));
    }
    auto r = h.serve(tc.path, tc.query);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, tc.status);
    EXPECT_EQ(r->body, tc.body);
    if (tc.append_bad) {
      ASSERT_TRUE(h.add_checks({bad_check("bad", "bad")}));
      EXPECT_EQ(h.serve(tc.path, tc.query)->status, 500);
    }
  }
}

TEST(HealthzTest, PingOnlyWhileNoChecksAreInstalled) {
  HealthzHandler h;
  EXPECT_EQ(h.check_names(), std::vector<std::string>{"ping"});
  EXPECT_EQ(h.serve("/healthz/ping", "")->body, "ok");
  ASSERT_TRUE(h.add_checks({ping_check("leaderElection")}));
  EXPECT_EQ(h.check_names(), std::vector<std::string>{"leaderElection"});
  EXPECT_FALSE(h.serve("/healthz/ping", "").has_value());
  ASSERT_TRUE(h.add_checks({ping_check("replicaset-controller"), ping_check("ping")}));
  EXPECT_EQ(h.check_names(),
            (std::vector<std::string>{"leaderElection", "replicaset-controller", "ping"}));
}

TEST(HealthzTest, HeadersAsGoWritesThem) {
  const HealthzHandler h({ping_check("good"), bad_check()});
  // The root handler sets nosniff on success and (http.Error) on failure.
  EXPECT_TRUE(h.serve("/healthz", "exclude=bad")->nosniff);
  EXPECT_TRUE(h.serve("/healthz", "")->nosniff);
  // A single check's success is a bare Fprint; its failure goes through http.Error.
  EXPECT_FALSE(h.serve("/healthz/good", "")->nosniff);
  EXPECT_TRUE(h.serve("/healthz/bad", "")->nosniff);
}

TEST(HealthzTest, UnknownPathsAreNotOurs) {
  const HealthzHandler h({ping_check("good")});
  for (const std::string path :
       {"/healthz/", "/healthz/nope", "/healthzz", "/healthz/good/x", "/livez", "/"}) {
    SCOPED_TRACE(path);
    EXPECT_FALSE(h.serve(path, "").has_value());
  }
}

TEST(HealthzTest, ExcludeEdgeCases) {
  const HealthzHandler h({ping_check("a"), bad_check("b"), ping_check("c d")});
  struct Case {
    std::string query;
    int status;
    std::string body;
  };
  const std::vector<Case> cases = {
      // Repeated and percent/plus-encoded names; unmatched ones listed sorted.
      {"exclude=b&exclude=zz&exclude=yy&verbose", 200,
       "[+]a ok\n[+]b excluded: ok\n[+]c d ok\nwarn: some health checks cannot be excluded: no "
       "matches for \"yy\",\"zz\"\nhealthz check passed\n"},
      {"exclude=%62&verbose=false", 200,
       "[+]a ok\n[+]b excluded: ok\n[+]c d ok\nhealthz check passed\n"},
      {"exclude=c+d&exclude=b", 200, "ok"},
      // Repeats collapse, as in Go's string set.
      {"exclude=b&exclude=b", 200, "ok"},
      // Pairs with ';' or a bad escape are dropped, as url.ParseQuery does.
      {"exclude=b;x", 500,
       "[+]a ok\n[-]b failed: reason withheld\n[+]c d ok\nhealthz check failed\n"},
      {"exclude=%zz", 500,
       "[+]a ok\n[-]b failed: reason withheld\n[+]c d ok\nhealthz check failed\n"},
      // The failure listing includes unmatched exclusions.
      {"exclude=nope", 500,
       "[+]a ok\n[-]b failed: reason withheld\n[+]c d ok\nwarn: some health checks cannot be "
       "excluded: no matches for \"nope\"\nhealthz check failed\n"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.query);
    const auto r = h.serve("/healthz", tc.query);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, tc.status);
    EXPECT_EQ(r->body, tc.body);
  }
}

TEST(HealthzTest, ObserverHearsEveryCheckTheAggregateRuns) {
  std::vector<std::string> heard;
  HealthzHandler h({ping_check("good"), bad_check()}, "/readyz",
                   [&](std::string_view check, std::string_view type, bool ok) {
                     heard.push_back(std::string(check) + " " + std::string(type) +
                                     (ok ? " success" : " error"));
                   });
  ASSERT_EQ(h.serve("/readyz", "")->status, 500);
  EXPECT_EQ(heard, (std::vector<std::string>{"good readyz success", "bad readyz error"}));
  heard.clear();
  // Excluded checks do not run; single-check paths are not observed.
  ASSERT_EQ(h.serve("/readyz", "exclude=bad")->status, 200);
  ASSERT_EQ(h.serve("/readyz/bad", "")->status, 500);
  ASSERT_EQ(h.serve("/readyz/good", "")->status, 200);
  EXPECT_EQ(heard, (std::vector<std::string>{"good readyz success"}));
}

TEST(UrlQueryTest, ValuesAsGoParsesThem) {
  EXPECT_FALSE(query_values("", "verbose"));
  EXPECT_EQ(*query_values("verbose", "verbose"), std::vector<std::string>{""});
  EXPECT_EQ(*query_values("verbose=", "verbose"), std::vector<std::string>{""});
  EXPECT_EQ(*query_values("a=1&exclude=x&exclude=y%2Fz&b", "exclude"),
            (std::vector<std::string>{"x", "y/z"}));
  EXPECT_EQ(*query_values("exclude=a+b", "exclude"), std::vector<std::string>{"a b"});
  EXPECT_EQ(*query_values("ex%63lude=a", "exclude"), std::vector<std::string>{"a"});
  EXPECT_FALSE(query_values("exclude=%4", "exclude"));
  EXPECT_FALSE(query_values("verbose;x", "verbose"));
  EXPECT_FALSE(query_values("verbosex", "verbose"));
  EXPECT_EQ(*query_values("&&verbose&&", "verbose"), std::vector<std::string>{""});
}

TEST(HealthzTest, AddChecksRefusesDuplicatesWholesale) {
  HealthzHandler h({ping_check("a")});
  auto r = h.add_checks({ping_check("b"), ping_check("a")});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "duplicate health check \"a\" for /healthz");
  r = h.add_checks({ping_check("c"), ping_check("c")});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "duplicate health check \"c\" for /healthz");
  r = h.add_checks({ping_check("")});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "health check with an empty name");
  r = h.add_checks({{"nofn", nullptr}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "health check \"nofn\" has no function");
  EXPECT_EQ(h.check_names(), std::vector<std::string>{"a"});
}

// Adding checks while requests run them (TSan covers the swap).
TEST(HealthzTest, ConcurrentServeAndAdd) {
  HealthzHandler h;
  std::atomic<bool> done{false};
  std::atomic<int> served{0};
  std::vector<std::thread> readers;
  for (int i = 0; i < 3; ++i) {
    readers.emplace_back([&] {
      while (!done.load()) {
        const auto r = h.serve("/healthz", "verbose");
        if (r && (r->status == 200 || r->status == 500)) served.fetch_add(1);
      }
    });
  }
  while (served.load() < 3)
    std::this_thread::yield();
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(h.add_checks({ping_check("c" + std::to_string(i))}));
    const int seen = served.load();
    while (served.load() < seen + 3)
      std::this_thread::yield();
  }
  done = true;
  for (auto& t : readers)
    t.join();
  EXPECT_GT(served.load(), 0);
  EXPECT_EQ(h.check_names().size(), 50u);
  const auto r = h.serve("/healthz", "verbose");
  EXPECT_EQ(r->status, 200);
  EXPECT_TRUE(r->body.starts_with("[+]c0 ok\n[+]c1 ok\n"));
}

}  // namespace
}  // namespace kcm::app
