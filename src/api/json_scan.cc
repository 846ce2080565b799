#include "api/json_scan.h"

#include <boost/json/basic_parser_impl.hpp>
#include <cstddef>
#include <vector>

#include "api/json_parse.h"

namespace kcm::api {

namespace {

namespace json = boost::json;
using boost::system::error_code;

// basic_parser's handler. depth_ counts the open containers; for each member,
// on_path_ is how many of the open containers, from the root down, are the
// objects its path leads through (so a member is read when the innermost
// open container is the last object on its path and the key is its last key).
class MemberScanner {
 public:
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  explicit MemberScanner(std::span<ScannedString> members)
      : members_(members), on_path_(members.size(), 0) {}

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }

  bool on_object_begin(error_code&) {
    start_other_value();
    for (std::size_t i = 0; i < members_.size(); ++i) {
      // The root, or an object under the next key of the path.
      if (on_path_[i] == depth_ &&
          (depth_ == 0 || (depth_ < members_[i].path.size() && key_is(i, depth_ - 1)))) {
        ++on_path_[i];
      }
    }
    ++depth_;
    return true;
  }
  bool on_object_end(std::size_t, error_code&) { return close(); }
  bool on_array_begin(error_code&) {
    start_other_value();
    ++depth_;
    return true;
  }
  bool on_array_end(std::size_t, error_code&) { return close(); }

  bool on_key_part(json::string_view s, std::size_t, error_code&) {
    if (!in_key_) key_.clear();
    in_key_ = true;
    key_.append(s.data(), s.size());
    return true;
  }
  bool on_key(json::string_view s, std::size_t n, error_code& ec) {
    on_key_part(s, n, ec);
    in_key_ = false;
    return true;
  }

  bool on_string_part(json::string_view s, std::size_t, error_code&) {
    if (!in_string_) {
      in_string_ = true;
      target_ = start_value();
      if (target_ != nullptr) target_->emplace();
    }
    if (target_ != nullptr) target_->value().append(s.data(), s.size());
    return true;
  }
  bool on_string(json::string_view s, std::size_t n, error_code& ec) {
    on_string_part(s, n, ec);
    in_string_ = false;
    return true;
  }

  bool on_number_part(json::string_view, error_code&) { return true; }
  bool on_int64(std::int64_t, json::string_view, error_code&) { return start_other_value(); }
  bool on_uint64(std::uint64_t, json::string_view, error_code&) { return start_other_value(); }
  bool on_double(double, json::string_view, error_code&) { return start_other_value(); }
  bool on_bool(bool, error_code&) { return start_other_value(); }
  bool on_null(error_code&) { return start_other_value(); }
  bool on_comment_part(json::string_view, error_code&) { return true; }
  bool on_comment(json::string_view, error_code&) { return true; }

 private:
  bool key_is(std::size_t member, std::size_t index) const {
    return members_[member].path[index] == std::string_view(key_);
  }

  // Whether the value starting now takes the place of member i or of an
  // object on its path.
  bool value_replaces(std::size_t i) const {
    return depth_ > 0 && on_path_[i] == depth_ && depth_ <= members_[i].path.size() &&
           key_is(i, depth_ - 1);
  }

  // The value starting now replaces what an earlier duplicate key may have
  // left in the members under its place; returns the member whose place it
  // takes, if any.
  std::optional<std::string>* start_value() {
    std::optional<std::string>* found = nullptr;
    for (std::size_t i = 0; i < members_.size(); ++i) {
      if (!value_replaces(i)) continue;
      members_[i].value.reset();
      if (members_[i].path.size() == depth_) found = &members_[i].value;
    }
    return found;
  }

  // A value that is not a string: it only replaces.
  bool start_other_value() {
    start_value();
    return true;
  }

  bool close() {
    --depth_;
    for (std::size_t i = 0; i < members_.size(); ++i) {
      if (on_path_[i] > depth_) on_path_[i] = depth_;
    }
    return true;
  }

  std::span<ScannedString> members_;
  std::vector<std::size_t> on_path_;
  std::size_t depth_ = 0;
  std::string key_;
  bool in_key_ = false;
  bool in_string_ = false;
  std::optional<std::string>* target_ = nullptr;
};

}  // namespace

bool scan_strings(std::string_view text, std::span<ScannedString> members, std::string* error) {
  for (ScannedString& m : members)
    m.value.reset();
  json::basic_parser<MemberScanner> parser(json_parse_options(), members);
  error_code ec;
  // Fed as parse_json feeds its stream_parser, so that errors and their byte
  // offsets read the same.
  const std::size_t consumed = parser.write_some(true, text.data(), text.size(), ec);
  if (!ec && consumed < text.size()) ec = json::error::extra_data;
  if (!ec) parser.write_some(false, nullptr, 0, ec);
  if (ec) {
    for (ScannedString& m : members)
      m.value.reset();
    if (error != nullptr) *error = json_parse_error(consumed, ec);
    return false;
  }
  return true;
}

}  // namespace kcm::api
