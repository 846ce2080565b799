#include "api/patch/merge_patch.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace kcm::api {
namespace {

// Every recursion below counts its depth and gives up past kJsonMaxDepth, so a
// value built in memory cannot exhaust the stack.

// Drops null object members recursively, through arrays too (whose null
// elements stay): what upstream does to every value it inserts. False when
// nested too deep.
bool prune_nulls(json::value& v, std::size_t depth) {
  if (depth > kJsonMaxDepth) return false;
  if (json::object* o = v.if_object()) {
    for (auto it = o->begin(); it != o->end();) {
      if (it->value().is_null()) {
        it = o->stable_erase(it);
      } else {
        if (!prune_nulls(it->value(), depth + 1)) return false;
        ++it;
      }
    }
  } else if (json::array* a = v.if_array()) {
    for (json::value& e : *a) {
      if (!prune_nulls(e, depth + 1)) return false;
    }
  }
  return true;
}

// Merges `patch` into `doc` member by member (upstream's mergeDocs).
bool merge_objects(json::object& doc, const json::object& patch, std::size_t depth) {
  if (depth > kJsonMaxDepth) return false;
  for (const auto& member : patch) {
    const std::string_view key = member.key();
    const json::value& v = member.value();
    if (v.is_null()) {
      doc.stable_erase(key);
      continue;
    }
    json::value* cur = doc.if_contains(key);
    if (cur != nullptr && cur->is_object() && v.is_object()) {
      if (!merge_objects(cur->get_object(), v.get_object(), depth + 1)) return false;
    } else if (cur != nullptr && cur->is_object()) {
      // Upstream returns a non-object patch value over an object unpruned.
      *cur = v;
    } else {
      json::value pruned = v;
      if (!prune_nulls(pruned, depth + 1)) return false;
      if (cur != nullptr) {
        *cur = std::move(pruned);
      } else {
        doc.emplace(key, std::move(pruned));
      }
    }
  }
  return true;
}

double as_double(const json::value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  return v.get_double();
}

// Upstream compares decoded values (numbers as float64): 1 and 1.0 match.
// Two integers compare exactly, which float64 would not beyond 2^53.
bool numbers_equal(const json::value& a, const json::value& b) {
  if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
  if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
  if (a.is_int64() && b.is_uint64()) {
    return a.get_int64() >= 0 && static_cast<std::uint64_t>(a.get_int64()) == b.get_uint64();
  }
  if (a.is_uint64() && b.is_int64()) return numbers_equal(b, a);
  return as_double(a) == as_double(b);
}

enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

Kind kind_of(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return Kind::kNull;
    case json::kind::bool_:
      return Kind::kBool;
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_:
      return Kind::kNumber;
    case json::kind::string:
      return Kind::kString;
    case json::kind::array:
      return Kind::kArray;
    case json::kind::object:
      return Kind::kObject;
  }
  return Kind::kNull;
}

// Structural equality; false past kJsonMaxDepth (the caller then emits the value whole).
bool values_equal(const json::value& a, const json::value& b, std::size_t depth) {
  if (depth > kJsonMaxDepth) return false;
  const Kind k = kind_of(a);
  if (k != kind_of(b)) return false;
  switch (k) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return a.get_bool() == b.get_bool();
    case Kind::kNumber:
      return numbers_equal(a, b);
    case Kind::kString:
      return a.get_string() == b.get_string();
    case Kind::kArray: {
      const json::array& x = a.get_array();
      const json::array& y = b.get_array();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i) {
        if (!values_equal(x[i], y[i], depth + 1)) return false;
      }
      return true;
    }
    case Kind::kObject: {
      const json::object& x = a.get_object();
      const json::object& y = b.get_object();
      if (x.size() != y.size()) return false;
      for (const auto& member : y) {
        const json::value* other = x.if_contains(member.key());
        if (other == nullptr || !values_equal(*other, member.value(), depth + 1)) return false;
      }
      return true;
    }
  }
  return false;
}

// Upstream's getDiff: members of `b` that are new or changed, members of `a`
// that `b` lacks as null. Nested objects recurse; anything else is sent whole.
bool diff_objects(const json::object& a, const json::object& b, json::object& into,
                  std::size_t depth) {
  if (depth > kJsonMaxDepth) return false;
  for (const auto& member : b) {
    const std::string_view key = member.key();
    const json::value& bv = member.value();
    const json::value* av = a.if_contains(key);
    if (av == nullptr || kind_of(*av) != kind_of(bv)) {
      into.emplace(key, bv);
      continue;
    }
    if (av->is_object()) {
      json::object sub;
      if (!diff_objects(av->get_object(), bv.get_object(), sub, depth + 1)) return false;
      if (!sub.empty()) into.emplace(key, std::move(sub));
    } else if (!values_equal(*av, bv, depth + 1)) {
      into.emplace(key, bv);
    }
  }
  for (const auto& member : a) {
    if (!b.contains(member.key())) into.emplace(member.key(), nullptr);
  }
  return true;
}

// Upstream unmarshals each side into a map: null decodes as an empty one.
const json::object* as_document(const json::value& v) {
  static const json::object kEmpty;
  if (v.is_null()) return &kEmpty;
  return v.if_object();
}

Result<json::value> diff_documents(const json::value& original, const json::value& modified) {
  const json::object* a = as_document(original);
  const json::object* b = as_document(modified);
  if (a == nullptr || b == nullptr) return fail(std::string(kInvalidJsonDocument));
  json::object into;
  if (!diff_objects(*a, *b, into, 1)) return fail(std::string(kInvalidJsonDocument));
  return json::value(std::move(into));
}

}  // namespace

Result<json::value> apply_merge_patch(const json::value& target, const json::value& patch) {
  if (target.is_null()) return fail(std::string(kInvalidJsonDocument));
  if (patch.is_null()) return fail(std::string(kInvalidJsonPatch));
  if (target.is_object() && patch.is_object()) {
    json::value result = target;
    if (!merge_objects(result.get_object(), patch.get_object(), 1)) {
      return fail(std::string(kInvalidJsonPatch));
    }
    return result;
  }
  // Not both objects: an object or array patch becomes the document.
  if (patch.is_object() || patch.is_array()) {
    json::value result = patch;
    if (!prune_nulls(result, 1)) return fail(std::string(kInvalidJsonPatch));
    return result;
  }
  return fail(std::string(kInvalidJsonPatch));
}

Result<json::value> create_merge_patch(const json::value& original, const json::value& modified) {
  if (original.is_array() && modified.is_array()) {
    const json::array& a = original.get_array();
    const json::array& b = modified.get_array();
    if (a.size() != b.size()) return fail(std::string(kInvalidJsonDocument));
    json::array out;
    out.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      Result<json::value> element = diff_documents(a[i], b[i]);
      if (!element) return element;
      out.push_back(std::move(element).value());
    }
    return json::value(std::move(out));
  }
  if (original.is_array() || modified.is_array()) {
    return fail(std::string(kMismatchedJsonDocuments));
  }
  return diff_documents(original, modified);
}

}  // namespace kcm::api
