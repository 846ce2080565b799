#include "api/schema/registry.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "api/schema/embedded_definitions.h"

namespace kcm::api::schema {

// One meaningful line of a definition file, split into words and an optional
// trailing quoted description. Not file-local: Parser, Registry's friend, keeps
// one in a member.
struct DefinitionLine {
  std::string_view file;
  int number = 0;
  bool indented = false;
  std::vector<std::string_view> words;
  std::string description;
};

namespace {

std::string where(const DefinitionLine& l) {
  return fmt::format("{}:{}", l.file, l.number);
}

Result<std::vector<DefinitionLine>> split_lines(const DefinitionFile& f) {
  std::vector<DefinitionLine> out;
  std::string_view text = f.text;
  int number = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++number;
    DefinitionLine line{f.name, number, !raw.empty() && (raw[0] == ' ' || raw[0] == '\t'), {}, {}};
    std::size_t i = 0;
    while (i < raw.size()) {
      while (i < raw.size() && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r'))
        ++i;
      if (i >= raw.size() || raw[i] == '#') break;
      if (raw[i] == '"') {
        const auto close = raw.find('"', i + 1);
        if (close == std::string_view::npos)
          return fail(where(line) + ": unterminated description");
        line.description = std::string(raw.substr(i + 1, close - i - 1));
        i = close + 1;
        while (i < raw.size() && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r'))
          ++i;
        if (i < raw.size() && raw[i] != '#') {
          return fail(where(line) + ": text after the description");
        }
        break;
      }
      const std::size_t start = i;
      while (i < raw.size() && raw[i] != ' ' && raw[i] != '\t' && raw[i] != '\r')
        ++i;
      line.words.push_back(raw.substr(start, i - start));
    }
    if (!line.words.empty()) out.push_back(std::move(line));
  }
  return out;
}

std::vector<std::string> split_commas(std::string_view s) {
  std::vector<std::string> out;
  while (true) {
    const auto comma = s.find(',');
    out.emplace_back(s.substr(0, comma));
    if (comma == std::string_view::npos) break;
    s = s.substr(comma + 1);
  }
  return out;
}

std::optional<std::string_view> option(std::string_view word, std::string_view key) {
  if (word.size() > key.size() && word.substr(0, key.size()) == key && word[key.size()] == '=') {
    return word.substr(key.size() + 1);
  }
  return std::nullopt;
}

}  // namespace

class Parser {
 public:
  explicit Parser(Registry& r) : r_(r) {}

  Result<void> run(const std::vector<DefinitionFile>& files) {
    std::vector<std::vector<DefinitionLine>> all;
    for (const auto& f : files) {
      auto lines = split_lines(f);
      if (!lines) return fail(lines.error());
      all.push_back(std::move(*lines));
    }
    // Pass 1: packages, type and alias names, so that references may point
    // forward and across files.
    for (const auto& lines : all) {
      if (auto r = declare(lines); !r) return r;
    }
    // Pass 2: alias bases, then fields.
    for (auto& [key, alias] : aliases_) {
      if (auto r = resolve_alias(key); !r) return r;
    }
    for (const auto& lines : all) {
      if (auto r = define(lines); !r) return r;
    }
    return {};
  }

 private:
  struct AliasDecl {
    DefinitionLine line;
    std::string package;
    TypeExpr* expr = nullptr;
    bool resolving = false;
    bool resolved = false;
  };

  Result<void> declare(const std::vector<DefinitionLine>& lines) {
    std::string package;
    for (const auto& l : lines) {
      const auto head = l.words[0];
      if (!l.indented && head == "package") {
        if (l.words.size() < 2) return fail(where(l) + ": package needs a name");
        package = std::string(l.words[1]);
        for (std::size_t i = 2; i < l.words.size(); ++i) {
          if (auto v = option(l.words[i], "prefix")) {
            r_.prefixes_[package] = std::string(*v);
          } else if (auto s = option(l.words[i], "short")) {
            shorts_[std::string(*s)] = package;
          } else {
            return fail(fmt::format("{}: unknown package option {:?}", where(l), l.words[i]));
          }
        }
        if (!r_.prefixes_.count(package)) return fail(where(l) + ": package needs prefix=");
        continue;
      }
      if (l.indented) continue;
      if (package.empty()) return fail(where(l) + ": declaration before the package line");
      if (l.words.size() < 2) return fail(where(l) + ": declaration needs a name");
      const std::string key = package + "." + std::string(l.words[1]);
      if (r_.by_name_.count(key) || aliases_.count(key)) {
        return fail(fmt::format("{}: {} declared twice", where(l), key));
      }
      if (head == "type") {
        Type& t = r_.types_.emplace_back();
        t.name = std::string(l.words[1]);
        t.package = package;
        t.openapi_name = r_.prefixes_[package] + "." + t.name;
        t.description = l.description;
        r_.by_name_[key] = &t;
      } else if (head == "alias") {
        aliases_[key] = AliasDecl{l, package};
      } else {
        return fail(fmt::format("{}: unknown declaration {:?}", where(l), head));
      }
    }
    return {};
  }

  Result<void> resolve_alias(const std::string& key) {
    AliasDecl& a = aliases_.at(key);
    if (a.resolved) return {};
    if (a.resolving) return fail(where(a.line) + ": alias refers to itself");
    a.resolving = true;
    const DefinitionLine& l = a.line;
    if (l.words.size() < 3) return fail(where(l) + ": alias needs a base type");
    auto base = resolve(l.words[2], a.package, l);
    if (!base) return fail(base.error());
    TypeExpr& e = r_.exprs_.emplace_back(**base);
    e.alias = std::string(l.words[1]);
    e.alias_description = l.description;
    e.go_name = "v1." + e.alias;
    for (std::size_t i = 3; i < l.words.size(); ++i) {
      if (auto go = option(l.words[i], "go")) {
        e.go_name = std::string(*go);
      } else if (auto en = option(l.words[i], "enum")) {
        e.enum_values = split_commas(*en);
      } else if (l.words[i] == "enum=") {
        e.enum_values = {""};
      } else {
        return fail(fmt::format("{}: unknown alias option {:?}", where(l), l.words[i]));
      }
    }
    a.expr = &e;
    a.resolved = true;
    return {};
  }

  Result<const TypeExpr*> builtin(std::string_view word) {
    struct B {
      std::string_view word;
      Kind kind;
      std::string_view go;
    };
    static constexpr B kBuiltins[] = {
        {"string", Kind::kString, "string"},
        {"int32", Kind::kInt32, "int32"},
        {"int64", Kind::kInt64, "int64"},
        {"bool", Kind::kBool, "bool"},
        {"double", Kind::kDouble, "float64"},
        {"bytes", Kind::kBytes, "[]uint8"},
        {"IntOrString", Kind::kIntOrString, "intstr.IntOrString"},
        {"Quantity", Kind::kQuantity, "resource.Quantity"},
        {"Time", Kind::kTime, "v1.Time"},
        {"MicroTime", Kind::kMicroTime, "v1.MicroTime"},
        {"Duration", Kind::kDuration, "v1.Duration"},
        {"RawExtension", Kind::kRaw, "runtime.RawExtension"},
        {"FieldsV1", Kind::kFieldsV1, "v1.FieldsV1"},
    };
    for (const auto& b : kBuiltins) {
      if (b.word != word) continue;
      auto it = cache_.find(std::string(word));
      if (it != cache_.end()) return it->second;
      TypeExpr& e = r_.exprs_.emplace_back();
      e.kind = b.kind;
      e.go_name = std::string(b.go);
      cache_[std::string(word)] = &e;
      return &e;
    }
    return static_cast<const TypeExpr*>(nullptr);
  }

  Result<const TypeExpr*> resolve(std::string_view word, const std::string& package,
                                  const DefinitionLine& l) {
    if (word.substr(0, 2) == "[]") {
      auto elem = resolve(word.substr(2), package, l);
      if (!elem) return elem;
      TypeExpr& e = r_.exprs_.emplace_back();
      e.kind = Kind::kList;
      e.elem = *elem;
      e.go_name = "[]" + (*elem)->go_name;
      return &e;
    }
    if (word.substr(0, 4) == "map[") {
      const auto close = word.find(']');
      if (close == std::string_view::npos) return fail(where(l) + ": bad map type");
      auto key = resolve(word.substr(4, close - 4), package, l);
      if (!key) return key;
      if ((*key)->kind != Kind::kString) return fail(where(l) + ": map keys must be strings");
      auto value = resolve(word.substr(close + 1), package, l);
      if (!value) return value;
      TypeExpr& e = r_.exprs_.emplace_back();
      e.kind = Kind::kMap;
      e.elem = *value;
      e.go_name = "map[" + (*key)->go_name + "]" + (*value)->go_name;
      return &e;
    }
    auto b = builtin(word);
    if (!b) return b;
    if (*b != nullptr) return b;
    std::string pkg = package;
    std::string_view name = word;
    if (const auto dot = word.find('.'); dot != std::string_view::npos) {
      auto it = shorts_.find(std::string(word.substr(0, dot)));
      if (it == shorts_.end()) {
        return fail(fmt::format("{}: unknown package in {:?}", where(l), word));
      }
      pkg = it->second;
      name = word.substr(dot + 1);
    }
    const std::string key = pkg + "." + std::string(name);
    if (aliases_.count(key)) {
      if (auto r = resolve_alias(key); !r) return fail(r.error());
      return static_cast<const TypeExpr*>(aliases_.at(key).expr);
    }
    auto t = r_.by_name_.find(key);
    if (t == r_.by_name_.end()) return fail(fmt::format("{}: unknown type {:?}", where(l), word));
    auto it = cache_.find(key);
    if (it != cache_.end()) return it->second;
    TypeExpr& e = r_.exprs_.emplace_back();
    e.kind = Kind::kObject;
    e.object = t->second;
    e.go_name = "v1." + t->second->name;
    cache_[key] = &e;
    return &e;
  }

  Result<void> define(const std::vector<DefinitionLine>& lines) {
    std::string package;
    Type* current = nullptr;
    for (const auto& l : lines) {
      if (!l.indented) {
        current = nullptr;
        if (l.words[0] == "package") {
          package = std::string(l.words[1]);
        } else if (l.words[0] == "type") {
          current = r_.by_name_.at(package + "." + std::string(l.words[1]));
          if (auto r = type_options(*current, l); !r) return r;
        }
        continue;
      }
      if (current == nullptr) return fail(where(l) + ": field outside a type");
      if (auto r = field(*current, package, l); !r) return r;
    }
    return {};
  }

  static Result<void> type_options(Type& t, const DefinitionLine& l) {
    for (std::size_t i = 2; i < l.words.size(); ++i) {
      const auto w = l.words[i];
      if (w == "atomic") {
        t.struct_type = MapType::kAtomic;
      } else if (w == "granular") {
        t.struct_type = MapType::kGranular;
      } else if (auto gvk = option(w, "gvk")) {
        const std::string s(*gvk);
        const auto a = s.find('/');
        const auto b = a == std::string::npos ? a : s.find('/', a + 1);
        if (b == std::string::npos) {
          return fail(fmt::format("{}: gvk must be group/version/Kind, got {:?}", where(l), s));
        }
        t.gvks.push_back({s.substr(0, a), s.substr(a + 1, b - a - 1), s.substr(b + 1)});
      } else {
        return fail(fmt::format("{}: unknown type option {:?}", where(l), w));
      }
    }
    return {};
  }

  Result<void> field(Type& t, const std::string& package, const DefinitionLine& l) {
    if (l.words.size() < 3) return fail(where(l) + ": a field needs a name, a type and a number");
    Field f;
    f.name = std::string(l.words[0]);
    auto type = resolve(l.words[1], package, l);
    if (!type) return fail(type.error());
    f.type = *type;
    if (l.words[2] != "-") {
      const auto w = l.words[2];
      auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), f.proto_number);
      if (ec != std::errc() || p != w.data() + w.size() || f.proto_number <= 0) {
        return fail(fmt::format("{}: bad protobuf number {:?}", where(l), w));
      }
    }
    for (std::size_t i = 3; i < l.words.size(); ++i) {
      const auto w = l.words[i];
      if (w == "req") {
        f.required = true;
      } else if (w == "inline") {
        if (f.type->kind != Kind::kObject) return fail(where(l) + ": only structs can be inline");
        f.inline_ = true;
      } else if (w == "ptr") {
        if (f.type->kind == Kind::kList || f.type->kind == Kind::kMap) {
          return fail(where(l) + ": ptr on a list or map field");
        }
        f.pointer = true;
      } else if (w == "omitempty") {
        f.omitempty = true;
      } else if (auto v = option(w, "patch")) {
        if (*v == "merge") {
          f.patch_strategy = PatchStrategy::kMerge;
        } else if (*v == "retainKeys") {
          f.patch_strategy = PatchStrategy::kRetainKeys;
        } else if (*v == "merge,retainKeys") {
          f.patch_strategy = PatchStrategy::kMergeRetainKeys;
        } else if (*v == "replace") {
          f.patch_strategy = PatchStrategy::kReplace;
        } else {
          return fail(fmt::format("{}: unknown patch strategy {:?}", where(l), *v));
        }
      } else if (auto k = option(w, "key")) {
        f.patch_merge_key = std::string(*k);
      } else if (auto lt = option(w, "list")) {
        if (f.type->kind != Kind::kList) return fail(where(l) + ": list= on a non-list field");
        if (*lt == "atomic") {
          f.list_type = ListType::kAtomic;
        } else if (*lt == "set") {
          f.list_type = ListType::kSet;
        } else if (*lt == "map") {
          f.list_type = ListType::kMap;
        } else {
          return fail(fmt::format("{}: unknown list type {:?}", where(l), *lt));
        }
      } else if (auto keys = option(w, "keys")) {
        f.list_map_keys = split_commas(*keys);
      } else if (auto mt = option(w, "map")) {
        if (*mt == "atomic") {
          f.map_type = MapType::kAtomic;
        } else if (*mt == "granular") {
          f.map_type = MapType::kGranular;
        } else {
          return fail(fmt::format("{}: unknown map type {:?}", where(l), *mt));
        }
      } else {
        return fail(fmt::format("{}: unknown field option {:?}", where(l), w));
      }
    }
    if (f.inline_ && (f.pointer || f.omitempty)) {
      return fail(where(l) + ": an inline field has no ptr or omitempty");
    }
    if ((f.list_type == ListType::kMap) != !f.list_map_keys.empty()) {
      return fail(where(l) + ": list=map and keys= go together");
    }
    if (f.patch_strategy != PatchStrategy::kNone &&
        f.patch_strategy != PatchStrategy::kRetainKeys && f.type->kind == Kind::kList &&
        f.type->elem->kind == Kind::kObject && f.patch_merge_key.empty()) {
      return fail(where(l) + ": merging a list of objects needs key=");
    }
    f.description = l.description;
    for (const auto& existing : t.fields) {
      if (existing.name == f.name) return fail(fmt::format("{}: field {} twice", where(l), f.name));
    }
    t.fields.push_back(std::move(f));
    return {};
  }

  Registry& r_;
  std::map<std::string, std::string> shorts_;  // short alias -> package
  std::map<std::string, AliasDecl> aliases_;   // "core/v1.Protocol"
  std::map<std::string, const TypeExpr*> cache_;
};

Result<std::unique_ptr<Registry>> Registry::parse(const std::vector<DefinitionFile>& files) {
  auto r = std::make_unique<Registry>();
  Parser p(*r);
  if (auto ok = p.run(files); !ok) return fail(ok.error());
  return r;
}

const Type& builtin_type(std::string_view package, std::string_view name) {
  const Type* type = Registry::builtin().find(package, name);
  if (type == nullptr) {
    fmt::print(stderr, "kcm: the embedded API schema has no type {}.{}\n", package, name);
    std::abort();
  }
  return *type;
}

const Registry& Registry::builtin() {
  static const std::unique_ptr<Registry> registry = [] {
    auto r = parse(embedded_definitions());
    // The definitions ship with the library and are tested; a failure here is
    // a build defect, not an input error.
    if (!r) {
      fmt::print(stderr, "kcm: embedded API schema is invalid: {}\n", r.error());
      std::abort();
    }
    return std::move(*r);
  }();
  return *registry;
}

const Type* Registry::root(const GroupVersionKind& gvk) const {
  for (const auto& t : types_) {
    for (const auto& g : t.gvks) {
      if (g == gvk) return &t;
    }
  }
  return nullptr;
}

const Type* Registry::find(std::string_view package, std::string_view name) const {
  std::string key(package);
  key += '.';
  key += name;
  auto it = by_name_.find(key);
  return it == by_name_.end() ? nullptr : it->second;
}

std::string Registry::openapi_prefix(std::string_view package) const {
  auto it = prefixes_.find(package);
  return it == prefixes_.end() ? std::string() : it->second;
}

}  // namespace kcm::api::schema
