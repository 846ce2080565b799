#include "local/fieldmanager/managed_fields.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/field_error.h"

namespace kcm::local::fieldmanager {

bool ManagerEntry::same_manager(const ManagerEntry& other) const {
  return manager == other.manager && operation == other.operation &&
         subresource == other.subresource &&
         (operation == kApply || api_version == other.api_version);
}

std::string ManagerEntry::printed() const {
  std::string out = api::go_quote(manager);
  if (!subresource.empty()) out += " with subresource " + api::go_quote(subresource);
  if (operation == kUpdate) out += " using " + api_version;
  return out;
}

namespace {

// Whether FieldsV1 `stored` has any of `set`'s paths or anything below them
// (an over-estimate: a path it holds only as a parent counts too).
bool touches(const json::object& stored, const FieldSet& set) {
  for (const FieldSet::Node& n : set.nodes()) {
    const json::value* below = stored.if_contains(n.pe.to_fields_v1());
    if (below == nullptr || !below->is_object()) continue;
    if (n.member || touches(below->get_object(), n.children)) return true;
  }
  return false;
}

}  // namespace

void load_fields(ManagerEntry& entry) {
  if (!entry.stored_fields) return;
  auto set = FieldSet::from_fields_v1(*entry.stored_fields);
  entry.fields = set ? std::move(*set) : FieldSet{};
  entry.stored_fields.reset();
}

Result<std::vector<ManagerEntry>> decode_managed_fields(const json::object& obj,
                                                        const FieldSet* touching) {
  std::vector<ManagerEntry> out;
  const json::object* meta = api::find_object(obj, "metadata");
  const json::array* list = meta != nullptr ? api::find_array(*meta, "managedFields") : nullptr;
  if (list == nullptr) return out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json::value& v = (*list)[i];
    if (!v.is_object()) return fail("error decoding managed fields: expected an object");
    const json::object& e = v.get_object();
    ManagerEntry entry;
    entry.manager = std::string(api::find_string(e, "manager").value_or(""));
    entry.operation = std::string(api::find_string(e, "operation").value_or(""));
    entry.api_version = std::string(api::find_string(e, "apiVersion").value_or(""));
    entry.subresource = std::string(api::find_string(e, "subresource").value_or(""));
    if (auto t = api::find_string(e, "time")) entry.time = std::string(*t);
    // upstream's DecodeManagedFields checks, in its order and words.
    if (entry.operation != kApply && entry.operation != kUpdate) {
      return fail("operation must be `Apply` or `Update`");
    }
    if (entry.api_version.empty()) return fail("apiVersion must not be empty");
    const std::string_view type = api::find_string(e, "fieldsType").value_or("");
    if (type.empty()) return fail(fmt::format("missing fieldsType in managed fields entry {}", i));
    if (type != "FieldsV1") {
      return fail(
          fmt::format("invalid fieldsType {} in managed fields entry {}", api::go_quote(type), i));
    }
    const json::value* fields = e.if_contains("fieldsV1");
    if (touching != nullptr && fields != nullptr && fields->is_object() &&
        !touches(fields->get_object(), *touching)) {
      entry.stored_fields = *fields;
    } else if (fields != nullptr && !fields->is_null()) {
      auto set = FieldSet::from_fields_v1(*fields);
      if (!set) return fail(fmt::format("error decoding set: {}", set.error()));
      entry.fields = std::move(*set);
    }
    // Entries of one identity: the last counts, as upstream decodes into a map.
    const auto same = std::find_if(out.begin(), out.end(),
                                   [&](const ManagerEntry& e) { return e.same_manager(entry); });
    if (same != out.end()) {
      *same = std::move(entry);
    } else {
      out.push_back(std::move(entry));
    }
  }
  return out;
}

void encode_managed_fields(json::object& obj, std::vector<ManagerEntry> entries) {
  json::object& meta = api::ensure_object(obj, "metadata");
  if (entries.empty()) {
    meta.erase("managedFields");
    return;
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const ManagerEntry& a, const ManagerEntry& b) {
                     if (a.operation != b.operation) return a.operation < b.operation;
                     const std::string_view ta = a.time ? std::string_view(*a.time) : "";
                     const std::string_view tb = b.time ? std::string_view(*b.time) : "";
                     if (ta != tb) return ta < tb;
                     if (a.manager != b.manager) return a.manager < b.manager;
                     if (a.api_version != b.api_version) return a.api_version < b.api_version;
                     return a.subresource < b.subresource;
                   });
  json::array list;
  list.reserve(entries.size());
  for (ManagerEntry& e : entries) {  // ours (by value): moved from
    json::object o;
    o["manager"] = e.manager;
    o["operation"] = e.operation;
    o["apiVersion"] = e.api_version;
    if (e.time) o["time"] = *e.time;
    o["fieldsType"] = "FieldsV1";
    if (e.stored_fields) {
      o["fieldsV1"] = std::move(*e.stored_fields);
    } else {
      o["fieldsV1"] = e.fields.to_fields_v1();
    }
    if (!e.subresource.empty()) o["subresource"] = e.subresource;
    list.push_back(std::move(o));
  }
  meta["managedFields"] = std::move(list);
}

}  // namespace kcm::local::fieldmanager
