#include "cache/cached_object.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace kcm::cache {

namespace json = api::json;

namespace {

std::string_view string_member(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

std::uint8_t bool_bits(const json::object& o, std::string_view key, int shift) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_bool()) return 0;
  return static_cast<std::uint8_t>((1u | (v->get_bool() ? 2u : 0u)) << shift);
}

std::optional<bool> bits_bool(std::uint8_t bits, int shift) {
  if (((bits >> shift) & 1u) == 0) return std::nullopt;
  return ((bits >> shift) & 2u) != 0;
}

}  // namespace

Result<ObjectPtr> CachedObject::from_json(const json::value& obj, ObjectCodec& codec) {
  return from_json(obj, &codec, nullptr);
}

Result<ObjectPtr> CachedObject::from_json(const json::value& obj) {
  return from_json(obj, nullptr, nullptr);
}

Result<ObjectPtr> CachedObject::from_json(const json::value& obj, ObjectCodec* codec,
                                          Summarizer summarize) {
  if (!obj.is_object()) return fail("object has no meta: not a JSON object");
  static const json::object kEmpty;
  const json::object* meta = api::find_object(obj.get_object(), "metadata");
  if (meta == nullptr) meta = &kEmpty;

  const std::string_view ns = string_member(*meta, "namespace");
  const std::string_view name = string_member(*meta, "name");
  const std::string key = make_key(ns, name);

  const json::value* del = meta->if_contains("deletionTimestamp");
  const bool has_deletion = del != nullptr && del->is_string();

  std::vector<std::pair<std::string_view, std::string_view>> labels;
  if (const json::object* l = api::find_object(*meta, "labels")) {
    labels.reserve(l->size());
    for (const auto& kv : *l) {
      if (kv.value().is_string()) labels.emplace_back(kv.key(), kv.value().get_string());
    }
    std::sort(labels.begin(), labels.end());
  }
  struct Owner {
    std::string_view fields[4];
    std::uint8_t flags;
  };
  std::vector<Owner> owners;
  if (const json::array* refs = api::find_array(*meta, "ownerReferences")) {
    for (const json::value& r : *refs) {
      if (!r.is_object()) continue;
      const json::object& o = r.get_object();
      owners.push_back({{string_member(o, "apiVersion"), string_member(o, "kind"),
                         string_member(o, "name"), string_member(o, "uid")},
                        static_cast<std::uint8_t>(bool_bits(o, "controller", 0) |
                                                  bool_bits(o, "blockOwnerDeletion", 2))});
    }
  }
  if (labels.size() > UINT16_MAX || owners.size() > UINT16_MAX) {
    return fail("object has too many labels or owner references to cache");
  }

  std::vector<std::string_view> texts = {
      key, string_member(*meta, "uid"), string_member(*meta, "resourceVersion"),
      string_member(*meta, "creationTimestamp"),
      has_deletion ? std::string_view(del->get_string()) : std::string_view()};
  for (const auto& [k, v] : labels) {
    texts.push_back(k);
    texts.push_back(v);
  }
  for (const Owner& o : owners)
    texts.insert(texts.end(), std::begin(o.fields), std::end(o.fields));

  const std::string body_text = json::serialize(obj);
  ObjectCodec::Encoded body;
  if (codec != nullptr) {
    body = codec->encode(body_text);
  } else {
    body.raw_size = static_cast<std::uint32_t>(body_text.size());
    body.bytes.assign(reinterpret_cast<const std::byte*>(body_text.data()),
                      reinterpret_cast<const std::byte*>(body_text.data()) + body_text.size());
  }

  std::size_t size = texts.size() * sizeof(Span) + owners.size();
  const std::size_t text_start = size;
  for (std::string_view t : texts)
    size += t.size();
  const std::size_t body_offset = size;
  size += body.bytes.size();
  if (size > UINT32_MAX) return fail("object too large to cache");

  auto out = std::make_shared<CachedObject>(Private{});
  out->block_ = std::make_unique_for_overwrite<std::byte[]>(size);
  std::byte* block = out->block_.get();
  std::size_t at = text_start;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const Span s{static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(texts[i].size())};
    std::memcpy(block + i * sizeof(Span), &s, sizeof(Span));
    if (!texts[i].empty()) std::memcpy(block + at, texts[i].data(), texts[i].size());
    at += texts[i].size();
  }
  for (std::size_t i = 0; i < owners.size(); ++i) {
    block[texts.size() * sizeof(Span) + i] = static_cast<std::byte>(owners[i].flags);
  }
  if (!body.bytes.empty()) std::memcpy(block + body_offset, body.bytes.data(), body.bytes.size());

  out->dictionary_ = std::move(body.dictionary);
  if (summarize != nullptr) out->summary_ = summarize(obj.get_object());
  out->generation_ = api::find_int(*meta, "generation").value_or(0);
  out->block_size_ = static_cast<std::uint32_t>(size);
  out->body_offset_ = static_cast<std::uint32_t>(body_offset);
  out->body_size_ = static_cast<std::uint32_t>(body.bytes.size());
  out->raw_size_ = body.raw_size;
  out->namespace_size_ = static_cast<std::uint32_t>(ns.empty() ? 0 : ns.size());
  out->label_count_ = static_cast<std::uint16_t>(labels.size());
  out->owner_count_ = static_cast<std::uint16_t>(owners.size());
  out->flags_ = static_cast<std::uint8_t>((has_deletion ? kHasDeletion : 0) |
                                          (body.compressed ? kCompressed : 0));
  return ObjectPtr(std::move(out));
}

std::optional<std::string_view> CachedObject::deletion_timestamp() const {
  if ((flags_ & kHasDeletion) == 0) return std::nullopt;
  return text(kDeletionTimestamp);
}

std::optional<std::string_view> CachedObject::label_value(std::string_view key) const {
  std::size_t lo = 0;
  std::size_t hi = label_count_;
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    const std::string_view k = text(kFixedSpans + 2 * mid);
    if (k == key) return text(kFixedSpans + 2 * mid + 1);
    if (k < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

bool CachedObject::matches(const api::labels::Selector& selector) const {
  if (selector.matches_nothing()) return false;
  for (const auto& r : selector.requirements()) {
    if (!r.matches(label_value(r.key()))) return false;
  }
  return true;
}

OwnerRef CachedObject::owner_reference(std::size_t i) const {
  const std::size_t base = kFixedSpans + 2 * label_count_ + 4 * i;
  const std::uint8_t bits = owner_flags()[i];
  return {text(base),     text(base + 1),     text(base + 2),
          text(base + 3), bits_bool(bits, 0), bits_bool(bits, 2)};
}

std::optional<OwnerRef> CachedObject::controller_ref() const {
  for (std::size_t i = 0; i < owner_count_; ++i) {
    OwnerRef r = owner_reference(i);
    if (r.controller.value_or(false)) return r;
  }
  return std::nullopt;
}

std::string CachedObject::json_text() const {
  auto text = ObjectCodec::decode(block_.get() + body_offset_, body_size_, raw_size_,
                                  (flags_ & kCompressed) != 0, dictionary_.get());
  // Only memory corruption makes a body this object wrote undecodable.
  if (!text.ok()) std::abort();
  return std::move(text).value();
}

json::value CachedObject::object(json::storage_ptr sp) const {
  std::string error;
  auto v = api::parse_json(json_text(), &error, std::move(sp));
  if (!v) std::abort();  // the text was serialized by Boost.JSON itself
  return std::move(*v);
}

std::size_t CachedObject::footprint_bytes() const {
  // make_shared: the control block (two counts and a vtable pointer) and this object.
  return sizeof(CachedObject) + 16 + block_size_ + (summary_ ? summary_->footprint_bytes() : 0);
}

std::string_view key_of(const DeletedObject& obj) {
  if (const auto* tomb = std::get_if<DeletedFinalStateUnknown>(&obj)) return tomb->key;
  return std::get<ObjectPtr>(obj)->key();
}

const ObjectPtr& object_of(const DeletedObject& obj) {
  if (const auto* tomb = std::get_if<DeletedFinalStateUnknown>(&obj)) return tomb->object;
  return std::get<ObjectPtr>(obj);
}

std::string make_key(std::string_view namespace_, std::string_view name) {
  std::string key;
  if (!namespace_.empty()) {
    key.reserve(namespace_.size() + 1 + name.size());
    key.append(namespace_).push_back('/');
  }
  key.append(name);
  return key;
}

Result<std::pair<std::string, std::string>> split_key(std::string_view key) {
  const auto first = key.find('/');
  if (first == std::string_view::npos)
    return std::pair<std::string, std::string>{"", std::string(key)};
  if (key.find('/', first + 1) != std::string_view::npos) {
    return fail("unexpected key format: \"" + std::string(key) + "\"");
  }
  return std::pair<std::string, std::string>{std::string(key.substr(0, first)),
                                             std::string(key.substr(first + 1))};
}

}  // namespace kcm::cache
