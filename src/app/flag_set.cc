#include "app/flag_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "api/duration.h"
#include "api/field_error.h"

namespace kcm::app {

using api::go_quote;
using api::parse_go_bool;
using api::parse_go_float;
using api::parse_go_int;

namespace {

bool is_zero_default(const FlagSet::Flag& f) {
  return f.default_text.empty() || f.default_text == "false" || f.default_text == "0" ||
         f.default_text == "0s" || f.default_text == "[]";
}

std::string join_slice(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += v[i];
  }
  return out + "]";
}

// encoding/csv on one line, as pflag reads a StringSlice value.
Result<std::vector<std::string>> parse_csv_line(std::string_view s) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::size_t i = 0;
  while (true) {
    std::string field;
    const std::size_t start = i;
    if (i < s.size() && s[i] == '"') {
      ++i;
      while (true) {
        if (i >= s.size()) {
          return fail(
              fmt::format("parse error on line 1, column {}: extraneous or missing \" "
                          "in quoted-field",
                          s.size() + 1));
        }
        if (s[i] == '"') {
          if (i + 1 < s.size() && s[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += s[i++];
      }
      if (i < s.size() && s[i] != ',') {
        return fail(fmt::format(
            "parse error on line 1, column {}: extraneous or missing \" in quoted-field", i + 1));
      }
    } else {
      while (i < s.size() && s[i] != ',') {
        if (s[i] == '"') {
          return fail(fmt::format("parse error on line 1, column {}: bare \" in non-quoted-field",
                                  i - start + start + 1));
        }
        field += s[i++];
      }
    }
    out.push_back(std::move(field));
    if (i >= s.size()) break;
    ++i;  // the comma
  }
  return out;
}

}  // namespace

std::string FlagSet::normalize(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

void FlagSet::add(Flag flag) {
  flag.name = normalize(flag.name);
  flags_.push_back(std::move(flag));
}

void FlagSet::add_bool(std::string name, bool* target, std::string usage, std::string section) {
  Flag f;
  f.name = std::move(name);
  f.type = "bool";
  f.usage = std::move(usage);
  f.section = std::move(section);
  f.default_text = *target ? "true" : "false";
  f.no_value_default = "true";
  f.set = [target](std::string_view v) -> Result<void> {
    auto b = parse_go_bool(v);
    if (!b) return fail(b.error());
    *target = *b;
    return {};
  };
  f.value = [target] { return std::string(*target ? "true" : "false"); };
  add(std::move(f));
}

void FlagSet::add_int32(std::string name, std::int32_t* target, std::string usage,
                        std::string section) {
  Flag f;
  f.name = std::move(name);
  f.type = "int32";
  f.usage = std::move(usage);
  f.section = std::move(section);
  f.default_text = std::to_string(*target);
  f.set = [target](std::string_view v) -> Result<void> {
    auto i = parse_go_int(v, 32);
    if (!i) return fail(i.error());
    *target = static_cast<std::int32_t>(*i);
    return {};
  };
  f.value = [target] { return std::to_string(*target); };
  add(std::move(f));
}

void FlagSet::add_float32(std::string name, float* target, std::string usage, std::string section) {
  Flag f;
  f.name = std::move(name);
  f.type = "float32";
  f.usage = std::move(usage);
  f.section = std::move(section);
  f.default_text = fmt::format("{}", *target);
  f.set = [target](std::string_view v) -> Result<void> {
    auto d = parse_go_float(v, 32);
    if (!d) return fail(d.error());
    *target = static_cast<float>(*d);
    return {};
  };
  f.value = [target] { return fmt::format("{}", *target); };
  add(std::move(f));
}

void FlagSet::add_string(std::string name, std::string* target, std::string usage,
                         std::string section) {
  Flag f;
  f.name = std::move(name);
  f.type = "string";
  f.usage = std::move(usage);
  f.section = std::move(section);
  f.default_text = *target;
  f.set = [target](std::string_view v) -> Result<void> {
    *target = std::string(v);
    return {};
  };
  f.value = [target] { return *target; };
  add(std::move(f));
}

void FlagSet::add_string_slice(std::string name, std::vector<std::string>* target,
                               std::string usage, std::string section) {
  Flag f;
  f.name = std::move(name);
  f.type = "strings";
  f.usage = std::move(usage);
  f.section = std::move(section);
  f.default_text = join_slice(*target);
  // The first use replaces the default; later uses append (pflag's stringSlice).
  auto first = std::make_shared<bool>(true);
  f.set = [target, first](std::string_view v) -> Result<void> {
    auto items = parse_csv_line(v);
    if (!items) return fail(items.error());
    if (*first) {
      target->clear();
      *first = false;
    }
    target->insert(target->end(), items->begin(), items->end());
    return {};
  };
  f.value = [target] { return join_slice(*target); };
  add(std::move(f));
}

void FlagSet::add_duration(std::string name, std::chrono::nanoseconds* target, std::string usage,
                           std::string section) {
  Flag f;
  f.name = std::move(name);
  f.type = "duration";
  f.usage = std::move(usage);
  f.section = std::move(section);
  f.default_text = api::format_duration(*target);
  f.set = [target](std::string_view v) -> Result<void> {
    auto d = api::parse_duration(v);
    if (!d) return fail(d.error());
    *target = *d;
    return {};
  };
  f.value = [target] { return api::format_duration(*target); };
  add(std::move(f));
}

void FlagSet::set_shorthand(std::string_view name, char shorthand) {
  if (Flag* f = find(name)) f->shorthand = shorthand;
}

FlagSet::Flag* FlagSet::find(std::string_view name) {
  const std::string n = normalize(name);
  for (Flag& f : flags_) {
    if (f.name == n) return &f;
  }
  return nullptr;
}

FlagSet::Flag* FlagSet::find_shorthand(char c) {
  for (Flag& f : flags_) {
    if (f.shorthand == c) return &f;
  }
  return nullptr;
}

bool FlagSet::changed(std::string_view name) const {
  const std::string n = normalize(name);
  for (const Flag& f : flags_) {
    if (f.name == n) return f.changed;
  }
  return false;
}

Result<void> FlagSet::set_value(Flag& flag, std::string_view value, std::string_view shown_name) {
  auto r = flag.set(value);
  if (!r) {
    return fail(fmt::format("invalid argument {} for {} flag: {}", go_quote(value),
                            go_quote(shown_name), r.error()));
  }
  flag.changed = true;
  return {};
}

Result<std::vector<std::string>> FlagSet::parse(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      positional.insert(positional.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                        args.end());
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      positional.push_back(a);
      continue;
    }
    if (a[1] == '-') {
      // --name, --name=value, --name value
      std::string_view body = std::string_view(a).substr(2);
      if (body.empty() || body[0] == '-' || body[0] == '=') {
        return fail(fmt::format("bad flag syntax: {}", a));
      }
      const std::size_t eq = body.find('=');
      const std::string_view name = body.substr(0, eq);
      Flag* f = find(name);
      if (f == nullptr) {
        if (name == "help") return fail(std::string(kHelpRequested));
        return fail(fmt::format("unknown flag: --{}", name));
      }
      const std::string shown = "--" + f->name;
      if (eq != std::string_view::npos) {
        if (auto r = set_value(*f, body.substr(eq + 1), shown); !r) return fail(r.error());
      } else if (!f->no_value_default.empty()) {
        if (auto r = set_value(*f, f->no_value_default, shown); !r) return fail(r.error());
      } else if (i + 1 < args.size()) {
        if (auto r = set_value(*f, args[++i], shown); !r) return fail(r.error());
      } else {
        return fail(fmt::format("flag needs an argument: {}", a));
      }
      continue;
    }
    // -x, -x=value, -xvalue, -x value; several boolean shorthands may share a dash.
    std::string_view shorts = std::string_view(a).substr(1);
    while (!shorts.empty()) {
      const char c = shorts[0];
      Flag* f = find_shorthand(c);
      if (f == nullptr) {
        if (c == 'h') return fail(std::string(kHelpRequested));
        return fail(fmt::format("unknown shorthand flag: '{}' in -{}", c, shorts));
      }
      const std::string shown = fmt::format("-{}, --{}", c, f->name);
      if (shorts.size() > 2 && shorts[1] == '=') {
        if (auto r = set_value(*f, shorts.substr(2), shown); !r) return fail(r.error());
        shorts = {};
      } else if (!f->no_value_default.empty()) {
        if (auto r = set_value(*f, f->no_value_default, shown); !r) return fail(r.error());
        shorts.remove_prefix(1);
      } else if (shorts.size() > 1) {
        if (auto r = set_value(*f, shorts.substr(1), shown); !r) return fail(r.error());
        shorts = {};
      } else if (i + 1 < args.size()) {
        if (auto r = set_value(*f, args[++i], shown); !r) return fail(r.error());
        shorts = {};
      } else {
        return fail(fmt::format("flag needs an argument: '{}' in -{}", c, c));
      }
    }
  }
  return positional;
}

std::string FlagSet::usage() const {
  std::string out = fmt::format("Usage:\n  {} [flags]\n", command_);
  std::vector<std::string> sections;
  for (const Flag& f : flags_) {
    if (std::find(sections.begin(), sections.end(), f.section) == sections.end()) {
      sections.push_back(f.section);
    }
  }
  for (const std::string& section : sections) {
    std::vector<const Flag*> members;
    for (const Flag& f : flags_) {
      if (f.section == section) members.push_back(&f);
    }
    std::sort(members.begin(), members.end(),
              [](const Flag* a, const Flag* b) { return a->name < b->name; });
    std::vector<std::pair<std::string, std::string>> lines;
    std::size_t width = 0;
    for (const Flag* f : members) {
      std::string left = f->shorthand != 0 ? fmt::format("  -{}, --{}", f->shorthand, f->name)
                                           : fmt::format("      --{}", f->name);
      if (f->type != "bool") left += " " + f->type;
      if (!f->no_value_default.empty() && f->type != "bool") {
        left += fmt::format("[=\"{}\"]", f->no_value_default);
      }
      std::string right = f->usage;
      if (!is_zero_default(*f)) {
        right += f->type == "string" ? fmt::format(" (default {})", go_quote(f->default_text))
                                     : fmt::format(" (default {})", f->default_text);
      }
      width = std::max(width, left.size());
      lines.emplace_back(std::move(left), std::move(right));
    }
    out += fmt::format("\n{} flags:\n\n", section.empty() ? "Generic" : section);
    // Lines of a multi-line usage start where the first one does (pflag's wrap).
    const std::string indent = "\n" + std::string(width + 3, ' ');
    for (const auto& [left, right] : lines) {
      out += left + std::string(width - left.size() + 3, ' ');
      for (char c : right)
        out += c == '\n' ? indent : std::string(1, c);
      out += "\n";
    }
  }
  return out;
}

std::vector<std::string> FlagSet::print_flags() const {
  std::vector<std::string> out;
  for (const Flag& f : flags_)
    out.push_back(fmt::format("FLAG: --{}={}", f.name, go_quote(f.value())));
  std::sort(out.begin(), out.end());
  return out;
}

std::map<std::string, std::string> FlagSet::values() const {
  std::map<std::string, std::string> out;
  for (const Flag& f : flags_)
    out.emplace(f.name, f.value());
  return out;
}

}  // namespace kcm::app
