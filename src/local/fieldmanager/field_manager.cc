#include "local/fieldmanager/field_manager.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "api/field_error.h"
#include "api/metadata_member.h"
#include "local/fieldmanager/typed.h"

namespace kcm::local::fieldmanager {

namespace {

// What no manager owns: identity and server-set metadata (upstream's stripMetaManager).
const FieldSet& stripped_fields() {
  static const FieldSet set = [] {
    FieldSet s;
    s.insert({PathElement::field("apiVersion")});
    s.insert({PathElement::field("kind")});
    s.insert({PathElement::field("metadata")});
    for (const char* f : {"name", "namespace", "creationTimestamp", "selfLink", "uid",
                          "clusterName", "generation", "managedFields", "resourceVersion"}) {
      s.insert({PathElement::field("metadata"), PathElement::field(f)});
    }
    return s;
  }();
  return set;
}

json::object without_managed_fields(const json::object& obj) {
  json::object out = obj;
  if (json::value* meta = out.if_contains("metadata"); meta != nullptr && meta->is_object()) {
    meta->get_object().erase("managedFields");
  }
  return out;
}

const json::value* managed_fields_member(const json::object& obj) {
  const json::object* meta = api::find_object(obj, "metadata");
  return meta != nullptr ? meta->if_contains("managedFields") : nullptr;
}

void drop_empty(std::vector<ManagerEntry>& entries) {
  std::erase_if(entries,
                [](const ManagerEntry& e) { return e.fields.empty() && !e.stored_fields; });
}

constexpr std::string_view kLastApplied = "kubectl.kubernetes.io/last-applied-configuration";

// unicode.IsPrint for the ASCII range; other code points count as printable.
bool printable(unsigned char c) {
  return c >= 0x80 || (c >= 0x20 && c != 0x7f);
}

}  // namespace

std::string conflict_message(const std::vector<Conflict>& conflicts) {
  if (conflicts.size() == 1) {
    return fmt::format("Apply failed with 1 conflict: conflict with {}: {}",
                       conflicts[0].manager.printed(), to_string(conflicts[0].path));
  }
  std::map<std::string, std::vector<std::string>> by_manager;
  for (const Conflict& c : conflicts)
    by_manager[c.manager.printed()].push_back(to_string(c.path));
  std::vector<std::string> lines;
  for (const auto& [manager, paths] : by_manager) {
    lines.push_back(fmt::format("conflicts with {}:", manager));
    for (const std::string& p : paths)
      lines.push_back("- " + p);
  }
  return fmt::format("Apply failed with {} conflicts: {}", conflicts.size(),
                     fmt::join(lines, "\n"));
}

api::FieldErrors validate_field_manager(std::string_view manager, std::string_view path) {
  api::FieldErrors errs;
  if (manager.size() > kFieldManagerMaxLength) {
    errs.push_back(api::too_long(std::string(path), kFieldManagerMaxLength));
  }
  for (std::size_t i = 0; i < manager.size(); ++i) {
    const auto c = static_cast<unsigned char>(manager[i]);
    if (!printable(c)) {
      errs.push_back(
          api::invalid(std::string(path), json::string(manager),
                       fmt::format("invalid character U+{:04X} (at position {})", c, i)));
    }
  }
  return errs;
}

api::FieldErrors validate_managed_fields(const json::array& entries) {
  // validation.MaxSubresourceNameLength.
  constexpr std::size_t kMaxSubresourceNameLength = 256;
  api::FieldErrors errs;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const json::object* e = entries[i].if_object();
    if (e == nullptr) continue;  // not an entry at all: the decoder refuses it
    const std::string path = api::index("metadata.managedFields", i);
    const std::string_view operation = api::find_string(*e, "operation").value_or("");
    if (operation != kApply && operation != kUpdate) {
      errs.push_back(api::invalid(path + ".operation", json::string(operation),
                                  "must be `Apply` or `Update`"));
    }
    const std::string_view type = api::find_string(*e, "fieldsType").value_or("");
    if (!type.empty() && type != "FieldsV1") {
      errs.push_back(api::invalid(path + ".fieldsType", json::string(type), "must be `FieldsV1`"));
    }
    auto manager =
        validate_field_manager(api::find_string(*e, "manager").value_or(""), path + ".manager");
    errs.insert(errs.end(), manager.begin(), manager.end());
    if (api::find_string(*e, "subresource").value_or("").size() > kMaxSubresourceNameLength) {
      errs.push_back(api::too_long(path + ".subresource", kMaxSubresourceNameLength));
    }
  }
  return errs;
}

std::string manager_from_user_agent(std::string_view user_agent) {
  const std::string_view prefix = user_agent.substr(0, user_agent.find('/'));
  std::string out;
  for (char c : prefix) {
    if (!printable(static_cast<unsigned char>(c))) continue;
    if (out.size() + 1 > kFieldManagerMaxLength) break;
    out += c;
  }
  return out;
}

void cap_update_managers(std::vector<ManagerEntry>& entries) {
  std::vector<std::size_t> updaters;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].operation == kUpdate) updaters.push_back(i);
  }
  if (updaters.size() <= kMaxUpdateManagers) return;
  std::sort(updaters.begin(), updaters.end(), [&](std::size_t a, std::size_t b) {
    const std::string ta = entries[a].time.value_or("");
    const std::string tb = entries[b].time.value_or("");
    if (ta != tb) return ta < tb;
    return entries[a].manager < entries[b].manager;
  });
  std::map<std::string, std::size_t> first_of_version;  // api version -> entry index
  std::vector<bool> merged_away(entries.size(), false);
  std::size_t count = updaters.size();
  for (std::size_t k = 0; k < updaters.size() && count > kMaxUpdateManagers; ++k) {
    const std::size_t i = updaters[k];
    auto [first, inserted] = first_of_version.emplace(entries[i].api_version, i);
    if (inserted) continue;
    ManagerEntry& bucket = entries[first->second];
    load_fields(bucket);
    load_fields(entries[i]);
    bucket.manager = std::string(kAncientChanges);
    bucket.subresource.clear();
    bucket.fields = entries[i].fields.union_with(bucket.fields);
    bucket.time = entries[i].time;  // the newer of the two
    merged_away[i] = true;
    --count;
  }
  std::vector<ManagerEntry> kept;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!merged_away[i]) kept.push_back(std::move(entries[i]));
  }
  entries = std::move(kept);
}

FieldManager::FieldManager(TypeRef type, json::object zero, std::string api_version,
                           std::string subresource, FieldSet reset,
                           std::shared_ptr<const void> type_owner)
    : type_owner_(std::move(type_owner)),
      type_(type),
      zero_(std::move(zero)),
      api_version_(std::move(api_version)),
      subresource_(std::move(subresource)),
      reset_(std::move(reset)) {}

Result<Comparison, std::string> FieldManager::changes(const json::object& from,
                                                      const json::object& to) const {
  // metadata.managedFields is an atomic list, owned by no one (stripped_fields()):
  // comparing it along costs nothing worth a copy of both objects.
  auto c = compare_objects(from, to, type_, &reset_);
  if (!c) return fail(std::move(c).error());
  return std::move(*c);
}

Result<void, std::string> FieldManager::update(const json::object& live, json::object& updated,
                                               std::string_view manager,
                                               std::string_view now) const {
  const json::value* sent = managed_fields_member(updated);
  const bool reset_by_client =
      subresource_.empty() && sent != nullptr && sent->is_array() &&
      (sent->get_array().empty() ||
       (sent->get_array().size() == 1 && sent->get_array()[0].is_object() &&
        sent->get_array()[0].get_object().empty()));
  // Managed fields a client sent replace the stored ones (main resource only).
  const bool use_sent = !reset_by_client && subresource_.empty() && sent != nullptr &&
                        sent->is_array() && !sent->get_array().empty();
  const json::value* base = reset_by_client ? nullptr
                            : use_sent      ? sent
                                            : managed_fields_member(live);
  const bool tracked = base != nullptr && base->is_array() && !base->get_array().empty();
  if (!tracked && !api::metadata_string(live, "uid").empty()) {
    api::ensure_object(updated, "metadata").erase("managedFields");
    return {};
  }
  auto c = changes(live, updated);
  if (!c) return fail(fmt::format("failed to compare objects: {}", c.error()));
  const FieldSet changed = c->modified.union_with(c->added);
  const FieldSet touched = changed.union_with(c->removed);
  std::vector<ManagerEntry> entries;
  if (tracked) {
    auto decoded = decode_managed_fields(use_sent ? updated : live, &touched);
    if (!decoded && use_sent) decoded = decode_managed_fields(live, &touched);
    if (decoded) entries = std::move(*decoded);
  }
  for (ManagerEntry& e : entries) {
    if (e.stored_fields) continue;  // holds none of what changed
    e.fields = e.fields.difference(changed).difference(c->removed);
  }
  const FieldSet own = changed.difference(stripped_fields());
  if (!own.empty()) {
    ManagerEntry self{manager.empty() ? "unknown" : std::string(manager),
                      std::string(kUpdate),
                      api_version_,
                      subresource_,
                      std::string(now),
                      own};
    auto it = std::find_if(entries.begin(), entries.end(),
                           [&](const ManagerEntry& e) { return e.same_manager(self); });
    if (it == entries.end()) {
      entries.push_back(std::move(self));
    } else {
      load_fields(*it);
      it->fields = own.union_with(it->fields);
      it->time = std::string(now);
    }
  }
  drop_empty(entries);
  cap_update_managers(entries);
  encode_managed_fields(updated, std::move(entries));
  return {};
}

FieldSet FieldManager::unchanged_last_applied(const json::object& live) const {
  const json::object* meta = api::find_object(live, "metadata");
  const json::object* annotations =
      meta != nullptr ? api::find_object(*meta, "annotations") : nullptr;
  const std::string_view text =
      annotations != nullptr ? api::find_string(*annotations, kLastApplied).value_or("") : "";
  if (text.empty()) return {};
  std::string error;
  auto last = api::parse_json(text, &error);
  if (!last || !last->is_object() ||
      api::find_string(last->get_object(), "apiVersion").value_or("") != api_version_) {
    return {};
  }
  auto set = to_field_set(*last, type_);
  auto c = compare(*last, json::value(live), type_);
  if (!set || !c) return {};
  return set->difference(c->modified).difference(c->added).difference(c->removed);
}

json::value FieldManager::prune(const json::value& merged, const std::vector<ManagerEntry>& entries,
                                const FieldSet& last_applied) const {
  // Remove what the manager applied last time, then add back what anyone
  // still owns and what it did not apply last time (upstream's prune,
  // addBackOwnedItems and addBackDanglingItems).
  const FieldSet last = ensure_named_fields_are_members(last_applied, type_);
  json::value pruned = remove_items(merged, last, type_);
  FieldSet managed;
  for (const ManagerEntry& e : entries)
    managed = managed.union_with(e.fields);
  auto merged_set = to_field_set(merged, type_);
  auto pruned_set = to_field_set(pruned, type_);
  if (!merged_set || !pruned_set) return merged;  // validated already; nothing to remove
  const FieldSet merged_named = ensure_named_fields_are_members(*merged_set, type_);
  pruned = remove_items(
      merged,
      merged_named.difference(ensure_named_fields_are_members(*pruned_set, type_)
                                  .union_with(ensure_named_fields_are_members(managed, type_))),
      type_);
  pruned_set = to_field_set(pruned, type_);
  if (!pruned_set) return merged;
  return remove_items(merged,
                      merged_named.difference(ensure_named_fields_are_members(*pruned_set, type_))
                          .intersection(last),
                      type_);
}

Result<json::object, ApplyFailure> FieldManager::apply(const json::object& live,
                                                       const json::object& config,
                                                       std::string_view manager, bool force,
                                                       std::string_view now) const {
  auto failure = [](ApplyFailure::Code code, std::string message) {
    return fail(ApplyFailure{{}, code, std::move(message)});
  };
  if (const json::value* m = managed_fields_member(config); m != nullptr && !m->is_null()) {
    return failure(ApplyFailure::kBadRequest, "metadata.managedFields must be nil");
  }
  auto entries = decode_managed_fields(live);
  if (!entries) {
    return failure(ApplyFailure::kInternal,
                   fmt::format("failed to decode managed fields: {}", entries.error()));
  }
  if (entries->empty() && !api::metadata_string(live, "uid").empty()) {
    // An object no one has tracked yet: what it holds belongs to kBeforeFirstApply.
    auto c = changes(zero_, live);
    if (!c) {
      return failure(ApplyFailure::kInternal,
                     fmt::format("failed to create manager for existing fields: {}", c.error()));
    }
    FieldSet existing = c->modified.union_with(c->added).difference(stripped_fields());
    if (!existing.empty()) {
      entries->push_back(ManagerEntry{std::string(kBeforeFirstApply), std::string(kUpdate),
                                      api_version_, subresource_, std::string(now),
                                      std::move(existing)});
    }
  }
  const json::value live_plain = without_managed_fields(live);
  auto config_set = to_field_set(config, type_);
  if (!config_set) return failure(ApplyFailure::kTypedPatch, config_set.error());

  auto merged = merge(live_plain, config, type_);
  if (!merged) return failure(ApplyFailure::kTypedPatch, merged.error());

  ManagerEntry self{std::string(manager), std::string(kApply),
                    api_version_,         subresource_,
                    std::nullopt,         config_set->recursive_difference(reset_)};
  FieldSet last_applied;
  auto it = std::find_if(entries->begin(), entries->end(),
                         [&](const ManagerEntry& e) { return e.same_manager(self); });
  if (it != entries->end()) {
    last_applied = std::move(it->fields);
    self.time = it->time;
    entries->erase(it);
  }
  entries->push_back(self);
  json::value result =
      last_applied.empty() ? std::move(*merged) : prune(*merged, *entries, last_applied);

  auto c = compare(live_plain, result, type_, &reset_);
  if (!c) return failure(ApplyFailure::kInternal, c.error());
  const FieldSet changed = c->modified.union_with(c->added);
  std::vector<Conflict> conflicts;
  for (ManagerEntry& e : *entries) {
    if (e.same_manager(self)) continue;
    const FieldSet taken = e.fields.intersection(changed);
    taken.for_each([&](const Path& p) {
      ManagerEntry who = e;
      who.fields = FieldSet{};
      conflicts.push_back(Conflict{std::move(who), p});
    });
    e.fields = e.fields.difference(taken).difference(c->removed);
  }
  if (!force && !conflicts.empty() && manager == "kubectl") {
    // kubectl moving from client-side apply: conflicts only over fields its
    // last-applied annotation set and nobody changed since are taken over.
    const FieldSet unchanged = unchanged_last_applied(live_plain.get_object());
    std::erase_if(conflicts, [&](const Conflict& c) { return unchanged.has(c.path); });
  }
  if (!force && !conflicts.empty()) {
    return fail(ApplyFailure{std::move(conflicts), ApplyFailure::kConflict, {}});
  }

  for (ManagerEntry& e : *entries) {
    if (!e.same_manager(self)) continue;
    e.fields = e.fields.difference(stripped_fields());
    if (compare_values(live_plain, result) != 0) e.time = std::string(now);
  }
  drop_empty(*entries);
  cap_update_managers(*entries);
  if (!result.is_object())
    return failure(ApplyFailure::kInternal, "the merged object is not an object");
  json::object out = std::move(result.get_object());
  encode_managed_fields(out, std::move(*entries));

  // kubectl's own applies keep a client-side apply annotation up to date.
  if (manager == "kubectl") {
    json::object& meta = api::ensure_object(out, "metadata");
    json::value* annotations = meta.if_contains("annotations");
    if (annotations != nullptr && annotations->is_object() &&
        annotations->get_object().contains(kLastApplied)) {
      json::object applied = config;
      if (json::value* m = applied.if_contains("metadata"); m != nullptr && m->is_object()) {
        if (json::value* a = m->get_object().if_contains("annotations");
            a != nullptr && a->is_object()) {
          a->get_object().erase(kLastApplied);
          if (a->get_object().empty()) m->get_object().erase("annotations");
        }
      }
      annotations->get_object()[kLastApplied] = api::to_json_string(applied) + "\n";
    }
  }
  return out;
}

}  // namespace kcm::local::fieldmanager
