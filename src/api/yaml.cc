#include "api/yaml.h"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <sstream>

namespace kcm::api {
namespace {

constexpr int kMaxDepth = 256;

json::value resolve_plain_scalar(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  // Integers: decimal with optional sign, 0x hex, 0o octal.
  {
    std::int64_t v = 0;
    const char* b = s.data();
    const char* e = s.data() + s.size();
    if (*b == '+') ++b;
    int base = 10;
    if (e - b > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'o')) {
      base = b[1] == 'x' ? 16 : 8;
      b += 2;
    }
    auto [p, ec] = std::from_chars(b, e, v, base);
    if (ec == std::errc() && p == e && b != e) return v;
    if (ec == std::errc::result_out_of_range && base == 10 && s[0] != '-') {
      std::uint64_t u = 0;
      auto [p2, ec2] = std::from_chars(b, e, u);
      if (ec2 == std::errc() && p2 == e) return u;
    }
  }
  // Floats: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? and the specials.
  if (s == ".inf" || s == "+.inf" || s == ".Inf" || s == "+.Inf") return HUGE_VAL;
  if (s == "-.inf" || s == "-.Inf") return -HUGE_VAL;
  {
    bool digits = false;
    std::size_t i = 0;
    if (s[i] == '+' || s[i] == '-') ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
      ++i, digits = true;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
        ++i, digits = true;
    }
    if (digits && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      std::size_t j = i + 1;
      if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
      const std::size_t exp_start = j;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
        ++j;
      i = j > exp_start ? j : 0;
    }
    if (digits && i == s.size()) {
      double d = 0;
      auto [p, ec] = std::from_chars(s.data() + (s[0] == '+' ? 1 : 0), s.data() + s.size(), d);
      if (ec == std::errc()) return d;
    }
  }
  return json::string(s);
}

Result<json::value> convert(const YAML::Node& node, int depth) {
  if (depth > kMaxDepth) return fail("YAML nested too deeply");
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return json::value(nullptr);
    case YAML::NodeType::Scalar:
      // "!" marks a quoted (non-plain) scalar: always a string.
      if (node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str") {
        return json::value(json::string(node.Scalar()));
      }
      return resolve_plain_scalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      json::array a;
      a.reserve(node.size());
      for (const auto& item : node) {
        auto v = convert(item, depth + 1);
        if (!v) return v;
        a.push_back(std::move(*v));
      }
      return json::value(std::move(a));
    }
    case YAML::NodeType::Map: {
      json::object o;
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) {
          return fail(
              fmt::format("line {}: mapping keys must be scalars", kv.first.Mark().line + 1));
        }
        auto v = convert(kv.second, depth + 1);
        if (!v) return v;
        o[kv.first.Scalar()] = std::move(*v);
      }
      return json::value(std::move(o));
    }
  }
  return fail("unsupported YAML node");
}

// yaml-cpp 0.7 never stops on a few malformed inputs (a ',' where a node
// should start: ",", "'',", ",a: 1"; jbeder/yaml-cpp#1040): its parser keeps
// emitting events, and Load/LoadAll build nodes until memory runs out. This
// pass parses with an event counter first; no valid document yields more
// than a few events per input byte, so running past that budget means the
// input is one of those and is refused as go-yaml refuses it.
class RunawayGuard final : public YAML::EventHandler {
 public:
  explicit RunawayGuard(std::size_t budget) : budget_(budget) {}
  struct Runaway {
    std::size_t line;
  };
  void OnDocumentStart(const YAML::Mark& m) override { tick(m); }
  void OnDocumentEnd() override { tick(); }
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { tick(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { tick(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                const std::string&) override {
    tick(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    tick(m);
  }
  void OnSequenceEnd() override { tick(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    tick(m);
  }
  void OnMapEnd() override { tick(); }

 private:
  void tick(const YAML::Mark& m) {
    line_ = static_cast<std::size_t>(std::max(m.line, 0)) + 1;
    tick();
  }
  void tick() {
    if (++events_ > budget_) throw Runaway{line_};
  }
  std::size_t budget_;
  std::size_t events_ = 0;
  std::size_t line_ = 1;
};

// Empty when `text` is safe to hand to YAML::LoadAll; go-yaml's error otherwise.
std::string check_for_runaway(std::string_view text) {
  std::istringstream in{std::string(text)};
  RunawayGuard guard(4 * text.size() + 16);
  try {
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(guard)) {
    }
  } catch (const RunawayGuard::Runaway& r) {
    return fmt::format(
        "error converting YAML to JSON: yaml: line {}: did not find expected node "
        "content",
        r.line);
  } catch (const YAML::Exception&) {
    // A plain syntax error: LoadAll reports it with its position below.
  }
  return {};
}

}  // namespace

Result<json::value> parse_yaml(std::string_view text) {
  auto docs = parse_yaml_documents(text);
  if (!docs) return fail(docs.error());
  if (docs->empty()) return json::value(nullptr);
  if (docs->size() > 1) return fail("expected a single YAML document, found several");
  return std::move(docs->front());
}

Result<std::vector<json::value>> parse_yaml_documents(std::string_view text) {
  std::vector<json::value> out;
  if (std::string error = check_for_runaway(text); !error.empty()) return fail(error);
  try {
    for (const YAML::Node& doc : YAML::LoadAll(std::string(text))) {
      if (doc.IsNull()) continue;
      auto v = convert(doc, 0);
      if (!v) return fail(v.error());
      out.push_back(std::move(*v));
    }
  } catch (const YAML::Exception& e) {
    return fail(
        fmt::format("error converting YAML to JSON: yaml: line {}: {}", e.mark.line + 1, e.msg));
  }
  return out;
}

}  // namespace kcm::api
