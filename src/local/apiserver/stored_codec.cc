#include "local/apiserver/stored_codec.h"

#include <algorithm>

namespace kcm::local::apiserver {
namespace {

void extract(const registry::ResourceInfo& info, const json::object& obj,
             storage::StoredObject& out) {
  if (const json::object* meta = api::find_object(obj, "metadata")) {
    out.name = std::string(api::find_string(*meta, "name").value_or(""));
    out.namespace_ = std::string(api::find_string(*meta, "namespace").value_or(""));
    out.uid = std::string(api::find_string(*meta, "uid").value_or(""));
    if (const json::object* labels = api::find_object(*meta, "labels")) {
      out.labels.reserve(labels->size());
      for (const auto& [k, v] : *labels) {
        out.labels.emplace_back(std::string(k), std::string(api::as_string_view(&v)));
      }
      std::sort(out.labels.begin(), out.labels.end());
    }
  }
  out.fields.reserve(info.selectable_fields.size() - 2);
  info.strategy->field_values(obj, out.fields);
}

}  // namespace

storage::ObjectPtr encode_stored(const registry::ResourceInfo& info, json::object& obj,
                                 std::uint64_t revision) {
  auto out = std::make_shared<storage::StoredObject>();
  json::object& meta = api::ensure_object(obj, "metadata");
  if (revision != 0) meta["resourceVersion"] = std::to_string(revision);
  out->revision = revision;
  out->json = json::serialize(obj);
  // serialize() grows its buffer by doubling; stored objects live long.
  out->json.shrink_to_fit();
  extract(info, obj, *out);
  return out;
}

Result<storage::ObjectPtr> decode_stored(const registry::ResourceInfo& info, std::string text) {
  std::string error;
  auto parsed = api::parse_json(text, &error);
  if (!parsed || !parsed->is_object()) return fail("stored object is not a JSON object: " + error);
  const json::object& obj = parsed->get_object();
  auto out = std::make_shared<storage::StoredObject>();
  extract(info, obj, *out);
  const json::object* meta = api::find_object(obj, "metadata");
  const auto rv = meta ? api::find_string(*meta, "resourceVersion") : std::nullopt;
  if (!rv) return fail("stored object has no resourceVersion");
  out->revision = std::strtoull(std::string(*rv).c_str(), nullptr, 10);
  out->json = std::move(text);
  out->json.shrink_to_fit();
  return storage::ObjectPtr(std::move(out));
}

json::object parse_stored(const storage::StoredObject& object) {
  // Stored JSON was produced by serialize(); it always parses.
  return json::parse(object.json).as_object();
}

std::string_view stored_field(const registry::ResourceInfo& info,
                              const storage::StoredObject& object, std::string_view field) {
  if (field == "metadata.name") return object.name;
  if (field == "metadata.namespace") return object.namespace_;
  for (std::size_t i = 2; i < info.selectable_fields.size(); ++i) {
    if (info.selectable_fields[i] == field && i - 2 < object.fields.size()) {
      return object.fields[i - 2];
    }
  }
  return {};
}

}  // namespace kcm::local::apiserver
