#include "app/zpages.h"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <boost/algorithm/string/predicate.hpp>
#include <charconv>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>

#include "api/accept_header.h"

namespace kcm::app {
namespace {

constexpr std::array<std::string_view, 4> kDelimiters = {":", ": ", "=", " "};
constexpr std::string_view kWarning =
    "Warning: This endpoint is not meant to be machine parseable, has no formatting "
    "compatibility guarantees and is for debugging purposes only.\n";

std::string unix_date(std::chrono::system_clock::time_point t) {
  // time.UnixDate, "Mon Jan _2 15:04:05 MST 2006", in the local zone.
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  localtime_r(&secs, &tm);
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Z %Y", &tm);
  return std::string(buf, n);
}

// html.EscapeString.
std::string html_escape(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '"':
        out += "&#34;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::size_t pick_index(const std::function<std::size_t(std::size_t)>& pick, std::size_t n) {
  if (pick) return pick(n) % n;
  thread_local std::mt19937 rng{std::random_device{}()};
  return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}

HttpAnswer not_acceptable() {
  return http_error(406, "media type not acceptable, must be: text/plain");
}

}  // namespace

bool accepts_text_plain(std::string_view accept) {
  for (const api::AcceptClause& c : api::parse_accept(accept)) {
    if ((c.type != "text" && c.type != "*") || (c.subtype != "plain" && c.subtype != "*")) continue;
    if (c.params.empty()) return true;
    if (c.params.size() == 1 && boost::algorithm::iequals(c.param("charset"), "utf-8")) return true;
  }
  return false;
}

std::string flagz_text(std::string_view component, const std::map<std::string, std::string>& flags,
                       std::string_view delimiter) {
  std::string out = fmt::format("\n{} flags\n{}\n", component, kWarning);
  for (const auto& [name, value] : flags)  // std::map: sorted bytewise, as sort.Strings
    out += fmt::format("{}{}{}\n", name, delimiter, value);
  return out;
}

std::string statusz_text(const ZpagesOptions& o, std::string_view delimiter,
                         std::chrono::system_clock::time_point now) {
  const auto up = std::chrono::duration_cast<std::chrono::seconds>(now - o.started).count();
  const std::string d = html_escape(delimiter);
  std::string out = fmt::format("\n{} statusz\n{}\n", o.component, kWarning);
  out += fmt::format("Started{} {}\n", d, html_escape(unix_date(o.started)));
  out += fmt::format("Up{} {} hr {:02} min {:02} sec\n", d, up / 3600, (up / 60) % 60, up % 60);
  out += fmt::format("Go version{} {}\n", d, html_escape(o.go_version));
  out += fmt::format("Binary version{} {}\n", d, html_escape(o.binary_version));
  if (!o.emulation_version.empty())
    out += fmt::format("Emulation version{} {}", d, html_escape(o.emulation_version));
  out += "\n";
  return out;
}

std::chrono::system_clock::time_point process_start_time() {
  const auto number = [](std::string_view text) -> std::optional<long long> {
    long long n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
  };
  std::optional<long long> boot;
  std::ifstream boot_file("/proc/stat");
  for (std::string line; std::getline(boot_file, line);) {
    if (line.starts_with("btime ")) boot = number(std::string_view(line).substr(6));
  }
  // Field 22 of /proc/self/stat, counted after the parenthesized command
  // name (which may hold spaces): the 20th field after ") ".
  std::ifstream stat_file("/proc/self/stat");
  const std::string stat((std::istreambuf_iterator<char>(stat_file)),
                         std::istreambuf_iterator<char>());
  const std::size_t paren = stat.rfind(')');
  const long ticks = sysconf(_SC_CLK_TCK);
  if (!boot || paren == std::string::npos || ticks <= 0) return {};
  std::istringstream fields(stat.substr(paren + 1));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
  }
  const auto start_ticks = fields ? number(field) : std::nullopt;
  if (!start_ticks) return {};
  return std::chrono::system_clock::time_point(std::chrono::seconds(*boot + *start_ticks / ticks));
}

Zpages::Zpages(ZpagesOptions options) : options_(std::move(options)) {}

std::optional<HttpAnswer> Zpages::serve(std::string_view path, std::string_view accept) const {
  const bool flagz_path = options_.flagz && path == kFlagzPath;
  const bool statusz_path = options_.statusz && path == kStatuszPath;
  if (!flagz_path && !statusz_path) return std::nullopt;
  if (!accepts_text_plain(accept)) return not_acceptable();
  return flagz_path ? flagz() : statusz();
}

HttpAnswer Zpages::flagz() const {
  std::call_once(flagz_once_, [&] {
    flagz_body_ = flagz_text(options_.component, options_.flags,
                             kDelimiters[pick_index(options_.pick, kDelimiters.size())]);
  });
  HttpAnswer a;
  a.body = flagz_body_;
  return a;
}

HttpAnswer Zpages::statusz() const {
  HttpAnswer a;
  a.body = statusz_text(options_, kDelimiters[pick_index(options_.pick, kDelimiters.size())],
                        std::chrono::system_clock::now());
  return a;
}

}  // namespace kcm::app
