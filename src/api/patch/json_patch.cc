#include "api/patch/json_patch.h"

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "api/field_error.h"

namespace kcm::api {
namespace {

// Results never nest deeper than kJsonMaxDepth (so they can be stored and read
// back), and every recursion here is bounded by it.

// evanphx/json-patch's sentinel errors, which its messages end with.
constexpr std::string_view kErrMissing = "missing value";
constexpr std::string_view kErrTestFailed = "test failed";
constexpr std::string_view kErrInvalidIndex = "invalid index referenced";

constexpr std::string_view kPathFieldMissing = "operation missing path field";
constexpr std::string_view kFromFieldMissing = "operation, missing from field";

using OpStep = Result<void, std::string>;

Unexpected<JsonPatchError> decode_error(std::string message) {
  return fail(JsonPatchError{JsonPatchErrorKind::kBadRequest, std::move(message)});
}

// strconv.Atoi: optional sign, decimal digits, 64-bit range. Leading zeros are fine.
Result<std::int64_t> go_atoi(std::string_view s) {
  const auto error = [s](std::string_view what) {
    return fail(fmt::format("strconv.Atoi: parsing {}: {}", go_quote(s), what));
  };
  std::string_view digits = s;
  bool negative = false;
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return error("invalid syntax");
  std::uint64_t n = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return error("invalid syntax");
    const auto d = static_cast<std::uint64_t>(c - '0');
    // Go stops at the first digit that overflows, before looking further.
    if (n > (UINT64_MAX - d) / 10) return error("value out of range");
    n = n * 10 + d;
  }
  constexpr std::uint64_t kCutoff = std::uint64_t{1} << 63;
  if (negative) {
    if (n > kCutoff) return error("value out of range");
    return n == kCutoff ? INT64_MIN : -static_cast<std::int64_t>(n);
  }
  if (n >= kCutoff) return error("value out of range");
  return static_cast<std::int64_t>(n);
}

std::string invalid_index(std::int64_t idx) {
  return fmt::format("Unable to access invalid index: {}: {}", idx, kErrInvalidIndex);
}

// RFC 6901 unescaping as upstream does it: one left-to-right pass, so "~01" is "~1".
std::string decode_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

// A member or element as upstream's container.get sees it: `slot` is null
// for an absent member, and a JSON null in the slot counts as absent too
// (upstream's nil node). `error` is set only for a bad array index.
struct Found {
  json::value* slot = nullptr;
  std::string error;

  json::value* value() const { return slot != nullptr && !slot->is_null() ? slot : nullptr; }
};

Found get_child(json::value& container, const std::string& key) {
  if (json::object* o = container.if_object()) return {o->if_contains(key), {}};
  json::array& a = container.get_array();
  Result<std::int64_t> parsed = go_atoi(key);
  if (!parsed) return {nullptr, parsed.error()};
  std::int64_t idx = *parsed;
  const auto size = static_cast<std::int64_t>(a.size());
  if (idx < 0) {
    if (idx < -size) return {nullptr, invalid_index(idx)};
    idx += size;
  }
  if (idx >= size) return {nullptr, invalid_index(idx)};
  return {&a[static_cast<std::size_t>(idx)], {}};
}

// Inserts (arrays) or upserts (objects) as upstream's container.add does.
OpStep add_child(json::value& container, const std::string& key, json::value v) {
  if (json::object* o = container.if_object()) {
    o->insert_or_assign(key, std::move(v));
    return {};
  }
  json::array& a = container.get_array();
  if (key == "-") {
    a.push_back(std::move(v));
    return {};
  }
  Result<std::int64_t> parsed = go_atoi(key);
  if (!parsed) {
    return fail(fmt::format("value was not a proper array index: '{}': {}", key, parsed.error()));
  }
  std::int64_t idx = *parsed;
  const auto size = static_cast<std::int64_t>(a.size()) + 1;
  if (idx >= size) return fail(invalid_index(idx));
  if (idx < 0) {
    if (idx < -size) return fail(invalid_index(idx));
    idx += size;
  }
  a.insert(a.begin() + idx, std::move(v));
  return {};
}

OpStep remove_child(json::value& container, const std::string& key) {
  if (json::object* o = container.if_object()) {
    if (!o->contains(key)) {
      return fail(fmt::format("Unable to remove nonexistent key: {}: {}", key, kErrMissing));
    }
    o->stable_erase(key);
    return {};
  }
  json::array& a = container.get_array();
  Result<std::int64_t> parsed = go_atoi(key);
  if (!parsed) return fail(parsed.error());
  std::int64_t idx = *parsed;
  const auto size = static_cast<std::int64_t>(a.size());
  if (idx >= size) return fail(invalid_index(idx));
  if (idx < 0) {
    if (idx < -size) return fail(invalid_index(idx));
    idx += size;
  }
  a.erase(a.begin() + idx);
  return {};
}

// The container a path's last token lives in (upstream's findObject).
struct Location {
  json::value* container = nullptr;  // an object or an array
  std::string key;                   // the last token, unescaped
  std::size_t level = 1;             // nesting level of `container`; the root is 1
};

std::optional<Location> find_location(json::value& doc, std::string_view path) {
  const std::size_t first = path.find('/');
  if (first == std::string_view::npos) return std::nullopt;
  const std::size_t last = path.rfind('/');
  Location loc{&doc, decode_token(path.substr(last + 1)), 1};
  if (first == last) return loc;
  // Tokens between the first and the last '/'; whatever precedes the first is ignored.
  std::string_view middle = path.substr(first + 1, last - first - 1);
  while (true) {
    const std::size_t slash = middle.find('/');
    const std::string token = decode_token(middle.substr(0, slash));
    json::value* next = get_child(*loc.container, token).value();
    if (next == nullptr || !(next->is_object() || next->is_array())) return std::nullopt;
    loc.container = next;
    ++loc.level;
    if (slash == std::string_view::npos) break;
    middle.remove_prefix(slash + 1);
  }
  return loc;
}

// True when `v` nests more than `limit` levels of arrays and objects.
bool deeper_than(const json::value& v, std::size_t limit) {
  if (const json::object* o = v.if_object()) {
    if (limit == 0) return true;
    for (const auto& member : *o) {
      if (deeper_than(member.value(), limit - 1)) return true;
    }
  } else if (const json::array* a = v.if_array()) {
    if (limit == 0) return true;
    for (const json::value& e : *a) {
      if (deeper_than(e, limit - 1)) return true;
    }
  }
  return false;
}

// Whether `v` may live in a container at `level` without the document
// nesting deeper than kJsonMaxDepth.
bool fits(const json::value& v, std::size_t level) {
  return level <= kJsonMaxDepth && !deeper_than(v, kJsonMaxDepth - level);
}

std::string too_deep(std::string_view kind, std::string_view path) {
  return fmt::format("{} operation does not apply: value at {} would nest deeper than {} levels",
                     kind, path, kJsonMaxDepth);
}

// Upstream's lazyNode.equal: structural for objects and arrays, by JSON text
// for scalars, so 1 and 1.0 differ. `a` and `b` are not null here.
bool test_equal(const json::value& a, const json::value& b, std::size_t depth) {
  if (depth > kJsonMaxDepth) return false;
  const auto both_null_or_equal = [depth](const json::value& x, const json::value& y) {
    if (x.is_null() || y.is_null()) return x.is_null() && y.is_null();
    return test_equal(x, y, depth + 1);
  };
  switch (a.kind()) {
    case json::kind::object: {
      const json::object* y = b.if_object();
      if (y == nullptr || y->size() != a.get_object().size()) return false;
      for (const auto& member : a.get_object()) {
        const json::value* other = y->if_contains(member.key());
        if (other == nullptr || !both_null_or_equal(member.value(), *other)) return false;
      }
      return true;
    }
    case json::kind::array: {
      const json::array* y = b.if_array();
      const json::array& x = a.get_array();
      if (y == nullptr || y->size() != x.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (!both_null_or_equal(x[i], (*y)[i])) return false;
      }
      return true;
    }
    case json::kind::string:
      return b.is_string() && a.get_string() == b.get_string();
    case json::kind::bool_:
      return b.is_bool() && a.get_bool() == b.get_bool();
    case json::kind::int64:
      return b.is_int64() && a.get_int64() == b.get_int64();
    case json::kind::uint64:
      return b.is_uint64() && a.get_uint64() == b.get_uint64();
    case json::kind::double_:
      return b.is_double() && a.get_double() == b.get_double();
    case json::kind::null:
      return b.is_null();
  }
  return false;
}

// The byte size upstream charges a copy: the value's compact serialization.
std::int64_t serialized_size(const json::value& v) {
  json::serializer sr;
  sr.reset(&v);
  char buf[4096];
  std::int64_t n = 0;
  while (!sr.done())
    n += static_cast<std::int64_t>(sr.read(buf, sizeof buf).size());
  return n;
}

// Upstream's Operation.Path()/From(): absent or null is a wrapped ErrMissing,
// a non-string fails to decode.
Result<std::string> string_field(const json::object& op, std::string_view name,
                                 std::string_view missing) {
  const json::value* v = op.if_contains(name);
  if (v == nullptr || v->is_null()) return fail(fmt::format("{}: {}", missing, kErrMissing));
  if (!v->is_string()) {
    return fail(fmt::format("json: cannot unmarshal {} into Go value of type string",
                            go_json_type_name(*v)));
  }
  return std::string(v->get_string());
}

// An absent "value" is a nil node upstream, which it writes as null.
const json::value& value_of(const json::object& op) {
  static const json::value kNull;
  const json::value* v = op.if_contains("value");
  return v != nullptr ? *v : kNull;
}

// The operation's "op" member; "unknown" when absent or not a string.
std::string_view operation_name(const json::object& op) {
  const json::value* v = op.if_contains("op");
  if (v == nullptr || !v->is_string()) return "unknown";
  const json::string& s = v->get_string();
  return {s.data(), s.size()};
}

OpStep op_add(json::value& doc, const json::object& op) {
  Result<std::string> path = string_field(op, "path", kPathFieldMissing);
  if (!path) return fail(fmt::format("add operation failed to decode path: {}", kErrMissing));
  std::optional<Location> loc = find_location(doc, *path);
  if (!loc) {
    return fail(fmt::format("add operation does not apply: doc is missing path: \"{}\": {}", *path,
                            kErrMissing));
  }
  const json::value& value = value_of(op);
  const bool ok_depth = fits(value, loc->level);
  OpStep added = add_child(*loc->container, loc->key, value);
  if (!added) return fail(fmt::format("error in add for path: '{}': {}", *path, added.error()));
  if (!ok_depth) return fail(too_deep("add", *path));
  return {};
}

OpStep op_remove(json::value& doc, const json::object& op) {
  Result<std::string> path = string_field(op, "path", kPathFieldMissing);
  if (!path) return fail(fmt::format("remove operation failed to decode path: {}", kErrMissing));
  std::optional<Location> loc = find_location(doc, *path);
  if (!loc) {
    return fail(fmt::format("remove operation does not apply: doc is missing path: \"{}\": {}",
                            *path, kErrMissing));
  }
  OpStep removed = remove_child(*loc->container, loc->key);
  if (!removed) {
    return fail(fmt::format("error in remove for path: '{}': {}", *path, removed.error()));
  }
  return {};
}

OpStep op_replace(json::value& doc, const json::object& op) {
  Result<std::string> path = string_field(op, "path", kPathFieldMissing);
  if (!path) return fail(fmt::format("replace operation failed to decode path: {}", path.error()));
  const json::value& value = value_of(op);
  if (path->empty()) {
    // Upstream swaps in an object or array and silently ignores anything else.
    if (!value.is_object() && !value.is_array()) return {};
    if (deeper_than(value, kJsonMaxDepth)) return fail(too_deep("replace", *path));
    doc = value;
    return {};
  }
  std::optional<Location> loc = find_location(doc, *path);
  if (!loc) {
    return fail(fmt::format("replace operation does not apply: doc is missing path: {}: {}", *path,
                            kErrMissing));
  }
  Found existing = get_child(*loc->container, loc->key);
  if (!existing.error.empty()) {
    return fail(fmt::format("replace operation does not apply: doc is missing key: {}: {}", *path,
                            kErrMissing));
  }
  if (!fits(value, loc->level)) return fail(too_deep("replace", *path));
  if (existing.slot != nullptr) {
    *existing.slot = value;
  } else {
    // Upstream's replace of a missing object member adds it.
    loc->container->get_object().emplace(loc->key, value);
  }
  return {};
}

OpStep op_move(json::value& doc, const json::object& op) {
  Result<std::string> from = string_field(op, "from", kFromFieldMissing);
  if (!from) return fail(fmt::format("move operation failed to decode from: {}", from.error()));
  std::optional<Location> source = find_location(doc, *from);
  if (!source) {
    return fail(fmt::format("move operation does not apply: doc is missing from path: {}: {}",
                            *from, kErrMissing));
  }
  Found found = get_child(*source->container, source->key);
  if (!found.error.empty()) {
    return fail(fmt::format("error in move for path: '{}': {}", source->key, found.error));
  }
  json::value moved = found.value() != nullptr ? std::move(*found.value()) : json::value();
  OpStep removed = remove_child(*source->container, source->key);
  if (!removed) {
    return fail(fmt::format("error in move for path: '{}': {}", source->key, removed.error()));
  }
  Result<std::string> path = string_field(op, "path", kPathFieldMissing);
  if (!path) return fail(fmt::format("move operation failed to decode path: {}", path.error()));
  std::optional<Location> dest = find_location(doc, *path);
  if (!dest) {
    return fail(
        fmt::format("move operation does not apply: doc is missing destination path: {}: {}", *path,
                    kErrMissing));
  }
  const bool ok_depth = fits(moved, dest->level);
  OpStep added = add_child(*dest->container, dest->key, std::move(moved));
  if (!added) return fail(fmt::format("error in move for path: '{}': {}", *path, added.error()));
  if (!ok_depth) return fail(too_deep("move", *path));
  return {};
}

OpStep op_test(json::value& doc, const json::object& op) {
  Result<std::string> path = string_field(op, "path", kPathFieldMissing);
  if (!path) return fail(fmt::format("test operation failed to decode path: {}", path.error()));
  const json::value* value = op.if_contains("value");
  const auto failed = [&path] {
    return fail(fmt::format("testing value {} failed: {}", *path, kErrTestFailed));
  };
  if (path->empty()) {
    if (value == nullptr || value->is_null() || !test_equal(doc, *value, 1)) return failed();
    return {};
  }
  std::optional<Location> loc = find_location(doc, *path);
  if (!loc) {
    return fail(
        fmt::format("test operation does not apply: is missing path: {}: {}", *path, kErrMissing));
  }
  Found found = get_child(*loc->container, loc->key);
  if (!found.error.empty()) {
    return fail(fmt::format("error in test for path: '{}': {}", *path, found.error));
  }
  // A missing or null member matches a null (or absent) value.
  const json::value* actual = found.value();
  if (actual == nullptr) {
    if (value == nullptr || value->is_null()) return {};
    return failed();
  }
  if (value == nullptr || value->is_null() || !test_equal(*actual, *value, loc->level + 1)) {
    return failed();
  }
  return {};
}

OpStep op_copy(json::value& doc, const json::object& op, const JsonPatchOptions& options,
               std::int64_t& copied) {
  Result<std::string> from = string_field(op, "from", kFromFieldMissing);
  if (!from) return fail(fmt::format("copy operation failed to decode from: {}", from.error()));
  std::optional<Location> source = find_location(doc, *from);
  if (!source) {
    return fail(fmt::format("copy operation does not apply: doc is missing from path: {}: {}",
                            *from, kErrMissing));
  }
  Found found = get_child(*source->container, source->key);
  if (!found.error.empty()) {
    return fail(fmt::format("error in copy for from: '{}': {}", *from, found.error));
  }
  Result<std::string> path = string_field(op, "path", kPathFieldMissing);
  if (!path) return fail(fmt::format("copy operation failed to decode path: {}", kErrMissing));
  std::optional<Location> dest = find_location(doc, *path);
  if (!dest) {
    return fail(
        fmt::format("copy operation does not apply: doc is missing destination path: {}: {}", *path,
                    kErrMissing));
  }
  // Upstream copies a missing member as null and charges nothing for it.
  const json::value* original = found.value();
  if (original != nullptr) copied += serialized_size(*original);
  if (options.max_copy_bytes > 0 && copied > options.max_copy_bytes) {
    return fail(fmt::format(
        "Unable to complete the copy, the accumulated size increase of copy is {}, exceeding the "
        "limit {}",
        copied, options.max_copy_bytes));
  }
  json::value duplicate = original != nullptr ? *original : json::value();
  const bool ok_depth = fits(duplicate, dest->level);
  OpStep added = add_child(*dest->container, dest->key, std::move(duplicate));
  if (!added) return fail(fmt::format("error while adding value during copy: {}", added.error()));
  if (!ok_depth) return fail(too_deep("copy", *path));
  return {};
}

}  // namespace

std::string too_many_operations_message(std::size_t count) {
  return fmt::format("The allowed maximum operations in a JSON patch is {}, got {}",
                     kMaxJsonPatchOperations, count);
}

Status to_status(const JsonPatchError& error) {
  if (error.kind == JsonPatchErrorKind::kBadRequest) return bad_request(error.message);
  return unprocessable(error.message);
}

Result<JsonPatch, JsonPatchError> JsonPatch::parse(std::string_view text) {
  std::string error;
  std::optional<json::value> doc = parse_json(text, &error);
  if (!doc) return decode_error(std::move(error));
  return from_json(*doc);
}

Result<JsonPatch, JsonPatchError> JsonPatch::from_json(const json::value& patch) {
  if (patch.is_null()) return JsonPatch(json::array());
  const json::array* ops = patch.if_array();
  if (ops == nullptr) {
    return decode_error(
        fmt::format("json: cannot unmarshal {} into Go value of type jsonpatch.Patch",
                    go_json_type_name(patch)));
  }
  for (const json::value& op : *ops) {
    if (!op.is_object() && !op.is_null()) {
      return decode_error(
          fmt::format("json: cannot unmarshal {} into Go value of type jsonpatch.Operation",
                      go_json_type_name(op)));
    }
  }
  return JsonPatch(*ops);
}

Result<json::value, JsonPatchError> JsonPatch::apply(const json::value& target,
                                                     const JsonPatchOptions& options) const {
  const auto cannot_apply = [](std::string message) {
    return fail(JsonPatchError{JsonPatchErrorKind::kCannotApply, std::move(message)});
  };
  if (!target.is_object() && !target.is_array()) {
    return cannot_apply(
        fmt::format("json: cannot unmarshal {} into Go value of type jsonpatch.partialDoc",
                    go_json_type_name(target)));
  }
  static const json::object kNoFields;
  json::value doc = target;
  std::int64_t copied = 0;
  for (const json::value& element : ops_) {
    // A null element decodes upstream as an operation with no fields.
    const json::object& op = element.is_object() ? element.get_object() : kNoFields;
    const std::string_view kind = operation_name(op);
    OpStep step = kind == "add"       ? op_add(doc, op)
                  : kind == "remove"  ? op_remove(doc, op)
                  : kind == "replace" ? op_replace(doc, op)
                  : kind == "move"    ? op_move(doc, op)
                  : kind == "test"    ? op_test(doc, op)
                  : kind == "copy"    ? op_copy(doc, op, options, copied)
                                      : OpStep(fail(fmt::format("Unexpected kind: {}", kind)));
    if (!step) return cannot_apply(step.error());
  }
  return doc;
}

}  // namespace kcm::api
