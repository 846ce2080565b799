#include "local/crd/crd_status.h"

#include <fmt/format.h>

#include <optional>
#include <vector>

#include "local/crd/json_fields.h"

namespace kcm::local::crd {

namespace {

struct Condition {
  std::string status;
  std::string reason;
  std::string message;
};

json::array to_array(const std::vector<std::string>& v) {
  json::array out;
  for (const std::string& s : v)
    out.emplace_back(s);
  return out;
}

const json::object* find_condition(const json::object& status, std::string_view type) {
  if (const json::array* conds = api::find_array(status, "conditions")) {
    for (const json::value& c : *conds) {
      if (const json::object* o = c.if_object(); o && string_at(*o, "type") == type) return o;
    }
  }
  return nullptr;
}

// Nil when free or already ours; else `"x" is already in use`.
std::optional<std::string> conflict(const std::string& requested, const std::string& accepted,
                                    const std::set<std::string>& used) {
  if (requested == accepted || used.count(requested) == 0) return std::nullopt;
  return fmt::format("\"{}\" is already in use", requested);
}

// Upstream's SetCRDCondition.
void set_condition(json::object& status, std::string_view type, const Condition& c,
                   std::string_view now) {
  json::value& conds_value = status["conditions"];
  if (!conds_value.is_array()) conds_value = json::array();
  json::array& conds = conds_value.get_array();
  for (json::value& v : conds) {
    json::object* o = v.if_object();
    if (o == nullptr || string_at(*o, "type") != type) continue;
    if (string_at(*o, "status") != c.status || string_at(*o, "lastTransitionTime").empty()) {
      (*o)["lastTransitionTime"] = now;
    }
    (*o)["status"] = c.status;
    (*o)["reason"] = c.reason;
    (*o)["message"] = c.message;
    return;
  }
  conds.emplace_back(json::object{{"type", type},
                                  {"status", c.status},
                                  {"lastTransitionTime", now},
                                  {"reason", c.reason},
                                  {"message", c.message}});
}

}  // namespace

void add_accepted_names(const json::object& crd, TakenNames& taken) {
  const json::object* status = api::find_object(crd, "status");
  const json::object* accepted =
      status != nullptr ? api::find_object(*status, "acceptedNames") : nullptr;
  if (accepted == nullptr) return;
  const json::object& names = *accepted;
  for (std::string_view k : {"plural", "singular"}) {
    if (std::string v = string_at(names, k); !v.empty()) taken.resources.insert(v);
  }
  for (const std::string& s : strings_at(names, "shortNames"))
    taken.resources.insert(s);
  for (std::string_view k : {"kind", "listKind"}) {
    if (std::string v = string_at(names, k); !v.empty()) taken.kinds.insert(v);
  }
}

bool crd_condition_true(const json::object& crd, std::string_view type) {
  const json::object* status = api::find_object(crd, "status");
  if (status == nullptr) return false;
  const json::object* c = find_condition(*status, type);
  return c != nullptr && string_at(*c, "status") == "True";
}

json::object crd_status(const json::object& crd, const TakenNames& taken, std::string_view now,
                        bool establish) {
  const json::object* old_status = api::find_object(crd, "status");
  json::object status = old_status != nullptr ? *old_status : json::object();
  const json::object* spec = api::find_object(crd, "spec");
  const json::object* requested_ptr = spec != nullptr ? api::find_object(*spec, "names") : nullptr;
  const json::object requested = requested_ptr != nullptr ? *requested_ptr : json::object();
  const json::object* accepted_ptr = api::find_object(status, "acceptedNames");
  const json::object accepted = accepted_ptr != nullptr ? *accepted_ptr : json::object();
  json::object names = accepted;

  std::optional<Condition> names_condition;
  auto check = [&](std::string_view key, const std::set<std::string>& used, const char* reason) {
    if (auto err = conflict(string_at(requested, key), string_at(accepted, key), used)) {
      names_condition = Condition{"False", reason, *err};
    } else {
      names[key] = string_at(requested, key);
    }
  };
  check("plural", taken.resources, "PluralConflict");
  check("singular", taken.resources, "SingularConflict");
  const std::vector<std::string> requested_short = strings_at(requested, "shortNames");
  const std::vector<std::string> accepted_short = strings_at(accepted, "shortNames");
  if (requested_short != accepted_short) {
    const std::set<std::string> ours(accepted_short.begin(), accepted_short.end());
    std::vector<std::string> errs;
    for (const std::string& s : requested_short) {
      if (ours.count(s) > 0) continue;
      if (auto err = conflict(s, "", taken.resources)) errs.push_back(*err);
    }
    if (!errs.empty()) {
      std::string message;
      for (const std::string& e : errs)
        message += (message.empty() ? "" : ", ") + e;
      if (errs.size() > 1) message = "[" + message + "]";
      names_condition = Condition{"False", "ShortNamesConflict", message};
    } else if (requested_short.empty()) {
      names.erase("shortNames");
    } else {
      names["shortNames"] = to_array(requested_short);
    }
  }
  check("kind", taken.kinds, "KindConflict");
  check("listKind", taken.kinds, "ListKindConflict");
  if (const json::value* categories = requested.if_contains("categories")) {
    names["categories"] = *categories;
  } else {
    names.erase("categories");
  }
  if (!names_condition) names_condition = Condition{"True", "NoConflicts", "no conflicts found"};

  Condition established{"False", "NotAccepted", "not all names are accepted"};
  if (const json::object* old = find_condition(status, "Established")) {
    established =
        Condition{string_at(*old, "status"), string_at(*old, "reason"), string_at(*old, "message")};
  }
  if (established.status != "True" && names_condition->status == "True") {
    established =
        establish
            ? Condition{"True", "InitialNamesAccepted", "the initial names have been accepted"}
            : Condition{"False", "Installing", "the initial names have been accepted"};
  }

  status["acceptedNames"] = std::move(names);
  set_condition(status, "NamesAccepted", *names_condition, now);
  set_condition(status, "Established", established, now);
  return status;
}

}  // namespace kcm::local::crd
