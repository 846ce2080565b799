#include "api/object_meta.h"

#include <fmt/format.h>

#include <span>

#include "api/field_error.h"

namespace kcm::api {

namespace {

using Check = Result<void>;

std::string type_error(std::string_view path, std::string_view want, const json::value& v) {
  if (path.empty()) return fmt::format("expected {}, got {}", want, json_type_name(v));
  return fmt::format("{}: expected {}, got {}", path, want, json_type_name(v));
}

json::value str_value(std::string_view s) {
  return json::value(json::string_view(s.data(), s.size()));
}

// A member of upstream's Go struct, in declaration order. `bit` is the
// member's index in MemberForms, or -1 for members kcm does not model (they
// stay in the unknown set but keep their upstream position when encoded).
struct Member {
  std::string_view key;
  int bit;
};

int bit_of(std::span<const Member> members, std::string_view key) {
  for (const Member& m : members) {
    if (m.key == key) return m.bit;
  }
  return -1;
}

bool is_upstream(std::span<const Member> members, std::string_view key) {
  for (const Member& m : members) {
    if (m.key == key) return true;
  }
  return false;
}

void mark(detail::MemberForms& forms, int bit, const json::value& v) {
  forms.present |= 1u << bit;
  if (v.is_null()) forms.null |= 1u << bit;
}

bool present(const detail::MemberForms& forms, int bit) {
  return (forms.present >> bit) & 1u;
}
bool was_null(const detail::MemberForms& forms, int bit) {
  return (forms.null >> bit) & 1u;
}

// --- decoding one member ---------------------------------------------------

// Go decodes null into a string as "no change": the empty string.
Check read_string(const json::value& v, std::string_view path, std::string& out) {
  if (v.is_null()) return {};
  const json::string* s = v.if_string();
  if (s == nullptr) return fail(type_error(path, "string", v));
  out.assign(s->data(), s->size());
  return {};
}

Check read_bool(const json::value& v, std::string_view path, std::optional<bool>& out) {
  if (v.is_null()) return {};
  if (!v.is_bool()) return fail(type_error(path, "boolean", v));
  out = v.get_bool();
  return {};
}

Check read_int(const json::value& v, std::string_view path, std::optional<std::int64_t>& out) {
  if (v.is_null()) return {};
  if (v.is_int64()) {
    out = v.get_int64();
    return {};
  }
  if (v.is_uint64()) return fail(fmt::format("{}: integer out of range for int64", path));
  return fail(type_error(path, "integer", v));
}

Check read_string_map(const json::value& v, std::string_view path, StringMap& out) {
  if (v.is_null()) return {};
  const json::object* o = v.if_object();
  if (o == nullptr) return fail(type_error(path, "object", v));
  for (const auto& kv : *o) {
    const std::string_view k(kv.key().data(), kv.key().size());
    const json::string* s = kv.value().if_string();
    if (s == nullptr) return fail(type_error(key(path, k), "string", kv.value()));
    out.insert_or_assign(std::string(k), std::string(s->data(), s->size()));
  }
  return {};
}

Check read_string_list(const json::value& v, std::string_view path, std::vector<std::string>& out) {
  if (v.is_null()) return {};
  const json::array* a = v.if_array();
  if (a == nullptr) return fail(type_error(path, "array", v));
  out.reserve(a->size());
  for (std::size_t i = 0; i < a->size(); ++i) {
    const json::string* s = (*a)[i].if_string();
    if (s == nullptr) return fail(type_error(index(path, i), "string", (*a)[i]));
    out.emplace_back(s->data(), s->size());
  }
  return {};
}

Check read_time(const json::value& v, std::string_view path, Time& out, detail::RawTime& raw) {
  auto t = Time::from_json(v);
  if (!t) return fail(fmt::format("{}: {}", path, t.error()));
  out = *t;
  if (const json::string* s = v.if_string()) raw = {out, *s};
  return {};
}

// --- encoding one member ---------------------------------------------------

// Absent stays absent and null stays null; a value is written when it is
// set or when the input had the member.
void put_string(json::object& out, std::string_view k, const std::string& v,
                const detail::MemberForms& f, int bit) {
  if (!v.empty()) {
    out.emplace(k, str_value(v));
  } else if (present(f, bit)) {
    out.emplace(k, was_null(f, bit) ? json::value(nullptr) : str_value(""));
  }
}

template <class T>
void put_optional(json::object& out, std::string_view k, const std::optional<T>& v,
                  const detail::MemberForms& f, int bit) {
  if (v.has_value()) {
    out.emplace(k, json::value(*v));
  } else if (present(f, bit) && was_null(f, bit)) {
    out.emplace(k, nullptr);
  }
}

void put_string_map(json::object& out, std::string_view k, const StringMap& m,
                    const detail::MemberForms& f, int bit) {
  if (m.empty()) {
    if (present(f, bit)) {
      out.emplace(k, was_null(f, bit) ? json::value(nullptr) : json::value(json::object()));
    }
    return;
  }
  json::object o;
  o.reserve(m.size());
  for (const auto& [key_text, value] : m)
    o.emplace(key_text, str_value(value));
  out.emplace(k, std::move(o));
}

template <class T, class Encode>
void put_list(json::object& out, std::string_view k, const std::vector<T>& items,
              const detail::MemberForms& f, int bit, Encode encode) {
  if (items.empty()) {
    if (present(f, bit)) {
      out.emplace(k, was_null(f, bit) ? json::value(nullptr) : json::value(json::array()));
    }
    return;
  }
  json::array a;
  a.reserve(items.size());
  for (const T& item : items)
    a.push_back(encode(item));
  out.emplace(k, std::move(a));
}

// The text read is reused while the instant is unchanged.
json::value encode_time(const Time& t, const detail::RawTime& raw) {
  if (!raw.text.empty() && t == raw.time) return raw.text;
  return t.to_json();
}

// Members not in the upstream struct, after the modelled ones, in input order.
void put_unknown_tail(json::object& out, const json::object& unknown,
                      std::span<const Member> members) {
  for (const auto& kv : unknown) {
    if (!is_upstream(members, std::string_view(kv.key().data(), kv.key().size()))) {
      out.emplace(kv.key(), kv.value());
    }
  }
}

void put_unknown(json::object& out, const json::object& unknown, std::string_view k) {
  if (const json::value* v = unknown.if_contains(k)) out.emplace(k, *v);
}

// --- member tables (Go struct order) ---------------------------------------

enum TypeMetaBit { kTmKind, kTmApiVersion };
constexpr Member kTypeMetaMembers[] = {{"kind", kTmKind}, {"apiVersion", kTmApiVersion}};

enum OwnerRefBit { kOrApiVersion, kOrKind, kOrName, kOrUid, kOrController, kOrBlock };
constexpr Member kOwnerRefMembers[] = {
    {"apiVersion", kOrApiVersion},
    {"kind", kOrKind},
    {"name", kOrName},
    {"uid", kOrUid},
    {"controller", kOrController},
    {"blockOwnerDeletion", kOrBlock},
};

enum ObjectMetaBit {
  kOmName,
  kOmGenerateName,
  kOmNamespace,
  kOmUid,
  kOmResourceVersion,
  kOmGeneration,
  kOmCreationTimestamp,
  kOmDeletionTimestamp,
  kOmDeletionGrace,
  kOmLabels,
  kOmAnnotations,
  kOmOwnerReferences,
  kOmFinalizers,
};
constexpr Member kObjectMetaMembers[] = {
    {"name", kOmName},
    {"generateName", kOmGenerateName},
    {"namespace", kOmNamespace},
    {"selfLink", -1},
    {"uid", kOmUid},
    {"resourceVersion", kOmResourceVersion},
    {"generation", kOmGeneration},
    {"creationTimestamp", kOmCreationTimestamp},
    {"deletionTimestamp", kOmDeletionTimestamp},
    {"deletionGracePeriodSeconds", kOmDeletionGrace},
    {"labels", kOmLabels},
    {"annotations", kOmAnnotations},
    {"ownerReferences", kOmOwnerReferences},
    {"finalizers", kOmFinalizers},
    {"managedFields", -1},
};

enum ListMetaBit { kLmResourceVersion, kLmContinue, kLmRemaining };
constexpr Member kListMetaMembers[] = {
    {"selfLink", -1},
    {"resourceVersion", kLmResourceVersion},
    {"continue", kLmContinue},
    {"remainingItemCount", kLmRemaining},
};

const json::object* expect_object(const json::value& v) {
  return v.if_object();
}

}  // namespace

// Reads and writes the private parts of the meta structs.
struct MetaCodec {
  static Result<TypeMeta> decode_type_meta(const json::value& v) {
    TypeMeta m;
    const json::object* o = expect_object(v);
    if (o == nullptr) return fail(type_error("", "object", v));
    for (const auto& kv : *o) {
      const std::string_view k(kv.key().data(), kv.key().size());
      const int bit = bit_of(kTypeMetaMembers, k);
      Check c;
      switch (bit) {
        case kTmKind:
          c = read_string(kv.value(), k, m.kind);
          break;
        case kTmApiVersion:
          c = read_string(kv.value(), k, m.api_version);
          break;
        default:
          m.unknown_.emplace(kv.key(), kv.value());
          continue;
      }
      if (!c) return fail(c.error());
      mark(m.forms_, bit, kv.value());
    }
    return m;
  }

  static json::value encode(const TypeMeta& m) {
    json::object out;
    out.reserve(m.unknown_.size() + 2);
    put_string(out, "kind", m.kind, m.forms_, kTmKind);
    put_string(out, "apiVersion", m.api_version, m.forms_, kTmApiVersion);
    put_unknown_tail(out, m.unknown_, kTypeMetaMembers);
    return out;
  }

  static Result<OwnerReference> decode_owner_reference(const json::value& v,
                                                       std::string_view path) {
    OwnerReference r;
    const json::object* o = expect_object(v);
    if (o == nullptr) return fail(type_error(path, "object", v));
    for (const auto& kv : *o) {
      const std::string_view k(kv.key().data(), kv.key().size());
      const std::string p = child(path, k);
      const int bit = bit_of(kOwnerRefMembers, k);
      Check c;
      switch (bit) {
        case kOrApiVersion:
          c = read_string(kv.value(), p, r.api_version);
          break;
        case kOrKind:
          c = read_string(kv.value(), p, r.kind);
          break;
        case kOrName:
          c = read_string(kv.value(), p, r.name);
          break;
        case kOrUid:
          c = read_string(kv.value(), p, r.uid);
          break;
        case kOrController:
          c = read_bool(kv.value(), p, r.controller);
          break;
        case kOrBlock:
          c = read_bool(kv.value(), p, r.block_owner_deletion);
          break;
        default:
          r.unknown_.emplace(kv.key(), kv.value());
          continue;
      }
      if (!c) return fail(c.error());
      mark(r.forms_, bit, kv.value());
    }
    return r;
  }

  static json::value encode(const OwnerReference& r) {
    json::object out;
    out.reserve(r.unknown_.size() + 6);
    put_string(out, "apiVersion", r.api_version, r.forms_, kOrApiVersion);
    put_string(out, "kind", r.kind, r.forms_, kOrKind);
    put_string(out, "name", r.name, r.forms_, kOrName);
    put_string(out, "uid", r.uid, r.forms_, kOrUid);
    put_optional(out, "controller", r.controller, r.forms_, kOrController);
    put_optional(out, "blockOwnerDeletion", r.block_owner_deletion, r.forms_, kOrBlock);
    put_unknown_tail(out, r.unknown_, kOwnerRefMembers);
    return out;
  }

  static Result<ObjectMeta> decode_object_meta(const json::value& v, std::string_view path) {
    ObjectMeta m;
    const json::object* o = expect_object(v);
    if (o == nullptr) return fail(type_error(path, "object", v));
    for (const auto& kv : *o) {
      const std::string_view k(kv.key().data(), kv.key().size());
      const json::value& val = kv.value();
      const std::string p = child(path, k);
      const int bit = bit_of(kObjectMetaMembers, k);
      Check c;
      switch (bit) {
        case kOmName:
          c = read_string(val, p, m.name);
          break;
        case kOmGenerateName:
          c = read_string(val, p, m.generate_name);
          break;
        case kOmNamespace:
          c = read_string(val, p, m.namespace_);
          break;
        case kOmUid:
          c = read_string(val, p, m.uid);
          break;
        case kOmResourceVersion:
          c = read_string(val, p, m.resource_version);
          break;
        case kOmGeneration: {
          std::optional<std::int64_t> g;
          c = read_int(val, p, g);
          m.generation = g.value_or(0);
          break;
        }
        case kOmCreationTimestamp:
          c = read_time(val, p, m.creation_timestamp, m.creation_raw_);
          break;
        case kOmDeletionTimestamp:
          if (!val.is_null()) {
            Time t;
            c = read_time(val, p, t, m.deletion_raw_);
            m.deletion_timestamp = t;
          }
          break;
        case kOmDeletionGrace:
          c = read_int(val, p, m.deletion_grace_period_seconds);
          break;
        case kOmLabels:
          c = read_string_map(val, p, m.labels);
          break;
        case kOmAnnotations:
          c = read_string_map(val, p, m.annotations);
          break;
        case kOmOwnerReferences:
          c = decode_owner_references(val, p, m.owner_references);
          break;
        case kOmFinalizers:
          c = read_string_list(val, p, m.finalizers);
          break;
        default:
          m.unknown_.emplace(kv.key(), val);
          continue;
      }
      if (!c) return fail(c.error());
      mark(m.forms_, bit, val);
    }
    return m;
  }

  static Check decode_owner_references(const json::value& v, std::string_view path,
                                       std::vector<OwnerReference>& out) {
    if (v.is_null()) return {};
    const json::array* a = v.if_array();
    if (a == nullptr) return fail(type_error(path, "array", v));
    out.reserve(a->size());
    for (std::size_t i = 0; i < a->size(); ++i) {
      auto decoded = decode_owner_reference((*a)[i], index(path, i));
      if (!decoded) return fail(decoded.error());
      out.push_back(std::move(*decoded));
    }
    return {};
  }

  static json::value encode(const ObjectMeta& m) {
    const detail::MemberForms& f = m.forms_;
    json::object out;
    out.reserve(m.unknown_.size() + 13);
    put_string(out, "name", m.name, f, kOmName);
    put_string(out, "generateName", m.generate_name, f, kOmGenerateName);
    put_string(out, "namespace", m.namespace_, f, kOmNamespace);
    put_unknown(out, m.unknown_, "selfLink");
    put_string(out, "uid", m.uid, f, kOmUid);
    put_string(out, "resourceVersion", m.resource_version, f, kOmResourceVersion);
    if (m.generation != 0) {
      out.emplace("generation", m.generation);
    } else if (present(f, kOmGeneration)) {
      out.emplace("generation", was_null(f, kOmGeneration) ? json::value(nullptr) : json::value(0));
    }
    const bool creation_raw = present(f, kOmCreationTimestamp) &&
                              !was_null(f, kOmCreationTimestamp) && !m.creation_raw_.text.empty();
    if (creation_raw || !m.creation_timestamp.is_zero()) {
      out.emplace("creationTimestamp", encode_time(m.creation_timestamp, m.creation_raw_));
    } else if (present(f, kOmCreationTimestamp)) {
      out.emplace("creationTimestamp", nullptr);
    }
    if (m.deletion_timestamp.has_value()) {
      out.emplace("deletionTimestamp", encode_time(*m.deletion_timestamp, m.deletion_raw_));
    } else if (present(f, kOmDeletionTimestamp) && was_null(f, kOmDeletionTimestamp)) {
      out.emplace("deletionTimestamp", nullptr);
    }
    put_optional(out, "deletionGracePeriodSeconds", m.deletion_grace_period_seconds, f,
                 kOmDeletionGrace);
    put_string_map(out, "labels", m.labels, f, kOmLabels);
    put_string_map(out, "annotations", m.annotations, f, kOmAnnotations);
    put_list(out, "ownerReferences", m.owner_references, f, kOmOwnerReferences,
             [](const OwnerReference& r) { return encode(r); });
    put_list(out, "finalizers", m.finalizers, f, kOmFinalizers,
             [](const std::string& s) { return str_value(s); });
    put_unknown(out, m.unknown_, "managedFields");
    put_unknown_tail(out, m.unknown_, kObjectMetaMembers);
    return out;
  }

  static Result<ListMeta> decode_list_meta(const json::value& v, std::string_view path) {
    ListMeta m;
    const json::object* o = expect_object(v);
    if (o == nullptr) return fail(type_error(path, "object", v));
    for (const auto& kv : *o) {
      const std::string_view k(kv.key().data(), kv.key().size());
      const std::string p = child(path, k);
      const int bit = bit_of(kListMetaMembers, k);
      Check c;
      switch (bit) {
        case kLmResourceVersion:
          c = read_string(kv.value(), p, m.resource_version);
          break;
        case kLmContinue:
          c = read_string(kv.value(), p, m.continue_);
          break;
        case kLmRemaining:
          c = read_int(kv.value(), p, m.remaining_item_count);
          break;
        default:
          m.unknown_.emplace(kv.key(), kv.value());
          continue;
      }
      if (!c) return fail(c.error());
      mark(m.forms_, bit, kv.value());
    }
    return m;
  }

  static json::value encode(const ListMeta& m) {
    json::object out;
    out.reserve(m.unknown_.size() + 3);
    put_unknown(out, m.unknown_, "selfLink");
    put_string(out, "resourceVersion", m.resource_version, m.forms_, kLmResourceVersion);
    put_string(out, "continue", m.continue_, m.forms_, kLmContinue);
    put_optional(out, "remainingItemCount", m.remaining_item_count, m.forms_, kLmRemaining);
    put_unknown_tail(out, m.unknown_, kListMetaMembers);
    return out;
  }
};

Result<TypeMeta> TypeMeta::from_json(const json::value& v) {
  return MetaCodec::decode_type_meta(v);
}
json::value TypeMeta::to_json() const {
  return MetaCodec::encode(*this);
}

Result<OwnerReference> OwnerReference::from_json(const json::value& v, std::string_view path) {
  return MetaCodec::decode_owner_reference(v, path);
}
json::value OwnerReference::to_json() const {
  return MetaCodec::encode(*this);
}

Result<ObjectMeta> ObjectMeta::from_json(const json::value& v, std::string_view path) {
  return MetaCodec::decode_object_meta(v, path);
}
json::value ObjectMeta::to_json() const {
  return MetaCodec::encode(*this);
}

Result<ListMeta> ListMeta::from_json(const json::value& v, std::string_view path) {
  return MetaCodec::decode_list_meta(v, path);
}
json::value ListMeta::to_json() const {
  return MetaCodec::encode(*this);
}

const OwnerReference* get_controller_of(const ObjectMeta& meta) {
  for (const OwnerReference& r : meta.owner_references) {
    if (r.controller.value_or(false)) return &r;
  }
  return nullptr;
}

bool is_controlled_by(const ObjectMeta& obj, std::string_view owner_uid) {
  const OwnerReference* ref = get_controller_of(obj);
  return ref != nullptr && ref->uid == owner_uid;
}

}  // namespace kcm::api
