#include "client/watch_decoder.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace kcm::client {
namespace {

const std::string kStream =
    R"({"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"5"}}})"
    "\n"
    R"({"type":"MODIFIED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a}{\"[","resourceVersion":"6"}}})"
    "\n"
    R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"7","annotations":{"k8s.io/initial-events-end":"true"}}}})"
    "\n"
    R"({"type":"DELETED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"8"}}})"
    "\r\n  "
    R"x({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (5)","reason":"Expired","code":410}})x"
    "\n";

struct Decoded {
  std::vector<WatchEvent> events;
  std::string error;
};

Decoded decode_in_pieces(const std::string& text, const std::vector<std::size_t>& cuts) {
  WatchDecoder d;
  Decoded out;
  std::size_t at = 0;
  auto drain = [&] {
    while (true) {
      auto e = d.next();
      if (!e) {
        out.error = e.error();
        return false;
      }
      if (!*e) return true;
      out.events.push_back(std::move(**e));
    }
  };
  for (std::size_t cut : cuts) {
    d.feed(std::string_view(text).substr(at, cut - at));
    at = cut;
    if (!drain()) return out;
  }
  d.feed(std::string_view(text).substr(at));
  drain();
  return out;
}

void expect_stream_events(const Decoded& got) {
  ASSERT_EQ(got.error, "");
  ASSERT_EQ(got.events.size(), 5u);
  EXPECT_EQ(got.events[0].type, WatchEventType::kAdded);
  EXPECT_EQ(got.events[1].type, WatchEventType::kModified);
  EXPECT_EQ(got.events[2].type, WatchEventType::kBookmark);
  EXPECT_EQ(got.events[3].type, WatchEventType::kDeleted);
  EXPECT_EQ(got.events[4].type, WatchEventType::kError);
  EXPECT_EQ(api::as_string_view(api::find_path(got.events[1].object, {"metadata", "name"})),
            "a}{\"[");
  const auto status = api::Status::from_json(got.events[4].object);
  EXPECT_EQ(status.code, 410);
  EXPECT_TRUE(status.is(api::reason::kExpired));
  EXPECT_EQ(status.message, "too old resource version: 1 (5)");
}

TEST(WatchDecoderTest, WholeStreamAtOnce) {
  expect_stream_events(decode_in_pieces(kStream, {}));
}

TEST(WatchDecoderTest, EverySingleSplitPoint) {
  for (std::size_t cut = 0; cut <= kStream.size(); ++cut) {
    SCOPED_TRACE(cut);
    expect_stream_events(decode_in_pieces(kStream, {cut}));
  }
}

TEST(WatchDecoderTest, ByteByByte) {
  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < kStream.size(); ++i)
    cuts.push_back(i);
  expect_stream_events(decode_in_pieces(kStream, cuts));
}

TEST(WatchDecoderTest, RandomSplits) {
  std::mt19937 rng(42);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::size_t> cuts;
    std::size_t at = 0;
    while (true) {
      at += 1 + rng() % 40;
      if (at >= kStream.size()) break;
      cuts.push_back(at);
    }
    expect_stream_events(decode_in_pieces(kStream, cuts));
  }
}

TEST(WatchDecoderTest, PartialFrameIsReported) {
  WatchDecoder d;
  EXPECT_FALSE(d.has_partial());
  d.feed(" \n");
  EXPECT_FALSE(d.has_partial());
  d.feed(R"({"type":"ADDED","obj)");
  auto e = d.next();
  ASSERT_TRUE(e.ok());
  EXPECT_FALSE(e->has_value());
  EXPECT_TRUE(d.has_partial());
}

TEST(WatchDecoderTest, Errors) {
  struct Case {
    std::string input;
    std::string error;
  };
  const std::vector<Case> cases = {
      {R"({"type":"UPDATED","object":{"kind":"Pod"}})", "got invalid watch event type: UPDATED"},
      {R"({"object":{"kind":"Pod"}})", "got invalid watch event type: "},
      {R"({"type":"ADDED"})", "unable to decode watch event: Object 'Kind' is missing in ''"},
      {R"({"type":"ADDED","object":{"metadata":{}}})",
       "unable to decode watch event: Object 'Kind' is missing in '{\"metadata\":{}}'"},
      {R"({"type":"ADDED","object":[1]})",
       "unable to decode watch event: the object is not a JSON object: [1]"},
      {"[1,2]", "unable to decode watch event: unexpected '[' where a JSON object should start"},
      {"x", "unable to decode watch event: unexpected 'x' where a JSON object should start"},
      {std::string("\x01", 1),
       "unable to decode watch event: unexpected byte 0x01 where a JSON object should start"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    WatchDecoder d;
    d.feed(c.input);
    auto e = d.next();
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error(), c.error);
    // The failure is sticky.
    d.feed("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"}}");
    auto again = d.next();
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error(), c.error);
  }
}

TEST(WatchDecoderTest, MalformedJsonInsideAFrame) {
  // The second frame is malformed; the message is api::parse_json's of the
  // frame alone (its byte offset counts from the frame's start), wherever
  // the reads split: inside a literal or a UTF-8 sequence too.
  const std::string first = R"({"type":"ADDED","object":{"kind":"Pod"}})"
                            "\n";
  const std::vector<std::string> malformed = {
      R"({"type":"ADDED","object":{"kind":"Pod",}})", R"({"type":tru,"object":{}})",
      R"({"type":t"","object":{}})", "{\"type\":\"\xe4+\",\"object\":{}}"};
  for (const std::string& bad : malformed) {
    std::string parse_error;
    ASSERT_FALSE(api::parse_json(bad, &parse_error).has_value()) << bad;
    const std::string text = first + bad + "\n" + first;
    for (std::size_t cut = 0; cut <= text.size(); ++cut) {
      const Decoded got = decode_in_pieces(text, {cut});
      EXPECT_EQ(got.events.size(), 1u) << bad << " cut at " << cut;
      EXPECT_EQ(got.error, "unable to decode watch event: " + parse_error)
          << bad << " cut at " << cut;
    }
  }
}

TEST(WatchDecoderTest, MalformedJsonIsReportedOnceItsFrameEnds) {
  WatchDecoder d;
  d.feed(R"({"type":"ADDED","object":{"kind":"Pod",,)");
  auto e = d.next();
  ASSERT_TRUE(e.ok()) << e.error();
  EXPECT_FALSE(e->has_value());
  EXPECT_TRUE(d.has_partial());
  d.feed(R"("x"}})");
  e = d.next();
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error(), "unable to decode watch event: invalid JSON at byte 39: syntax error");
}

TEST(WatchDecoderTest, ManyFramesInOneChunkWithoutNewlines) {
  std::string text;
  for (int i = 0; i < 100; ++i) {
    text += R"({"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"p)" + std::to_string(i) +
            R"("}}})";
  }
  const auto got = decode_in_pieces(text, {});
  ASSERT_EQ(got.error, "");
  ASSERT_EQ(got.events.size(), 100u);
  EXPECT_EQ(api::as_string_view(api::find_path(got.events[99].object, {"metadata", "name"})),
            "p99");
}

// An event's object owns its memory: it outlives the decoder, and copies of
// it and changes to it are independent of the frame it came from.
TEST(WatchDecoderTest, EventObjectsOutliveTheDecoder) {
  std::optional<WatchEvent> kept;
  {
    WatchDecoder d;
    d.feed(kStream);
    auto e = d.next();
    ASSERT_TRUE(e && *e);
    kept = std::move(**e);
  }
  boost::json::value copy = kept->object;
  kept->object.as_object()["spec"] = boost::json::object{{"nodeName", "n1"}};
  kept.reset();
  EXPECT_EQ(api::to_json_string(copy),
            R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","resourceVersion":"5"}})");
}

TEST(WatchEventTypeTest, RoundTrip) {
  for (const auto t : {WatchEventType::kAdded, WatchEventType::kModified, WatchEventType::kDeleted,
                       WatchEventType::kBookmark, WatchEventType::kError}) {
    EXPECT_EQ(parse_watch_event_type(to_string(t)), t);
  }
  EXPECT_EQ(parse_watch_event_type("added"), std::nullopt);
}

}  // namespace
}  // namespace kcm::client
