#include "api/schema/decode_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>

#include "api/base64.h"
#include "api/duration.h"
#include "api/quantity.h"
#include "api/schema/registry.h"
#include "api/time.h"

namespace kcm::api::schema {
namespace {

using RK = RawValue::Kind;

// Go's name for the JSON value in "cannot unmarshal <value> into ...".
std::string_view value_name(const RawValue& v) {
  switch (v.kind) {
    case RK::kNull:
      return "null";
    case RK::kBool:
      return "bool";
    case RK::kNumber:
      return "number";
    case RK::kString:
      return "string";
    case RK::kArray:
      return "array";
    case RK::kObject:
      return "object";
  }
  return "?";
}

// strconv.ParseInt(s, 10, 64) on a JSON number literal.
std::optional<std::int64_t> parse_int64(std::string_view s) {
  std::int64_t n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return n;
}

class Checker {
 public:
  Checker(const DecodeOptions& opts, DecodeResult& out) : opts_(opts), out_(out) {}

  void root(const RawValue& v, const Type& t) {
    Context ctx;
    if (v.kind == RK::kNull) return;
    if (v.kind != RK::kObject) {
      save(type_error(ctx, value_name(v), "v1." + t.name));
      return;
    }
    object(v, t, ctx);
  }

 private:
  // Where the decoder is: Go's errorContext (innermost struct and the JSON
  // names from the root, no indices) and sigs.k8s.io/json's strict path.
  struct Context {
    std::string_view go_struct;
    std::string field_stack;
    std::string path;
  };

  static std::string type_error(const Context& ctx, std::string_view value, std::string_view type) {
    if (!ctx.go_struct.empty() || !ctx.field_stack.empty()) {
      return fmt::format("json: cannot unmarshal {} into Go struct field {}.{} of type {}", value,
                         ctx.go_struct, ctx.field_stack, type);
    }
    return fmt::format("json: cannot unmarshal {} into Go value of type {}", value, type);
  }

  // A recoverable error: the first one is reported once decoding ends.
  void save(std::string msg) {
    if (saved_.empty()) saved_ = std::move(msg);
  }
  // An error returned by a custom UnmarshalJSON: decoding stops.
  void stop(std::string msg) {
    hard_ = std::move(msg);
    stopped_ = true;
  }

  void strict(std::string_view what, const std::string& path, std::vector<std::string>& list) {
    if (!opts_.strict) return;
    std::string msg = fmt::format("{} {}", what, go_quote(path));
    if (!seen_.insert(msg).second) return;
    if (out_.strict_errors.size() >= opts_.max_strict_errors) return;
    out_.strict_errors.push_back(std::move(msg));
    list.push_back(path);
  }

  static std::string join(std::string_view base, std::string_view key) {
    if (base.empty()) return std::string(key);
    std::string s(base);
    s += '.';
    s += key;
    return s;
  }

  // Member order: as written, or sorted by key (stable) for YAML bodies.
  std::vector<const RawMember*> members(const RawValue& v) const {
    std::vector<const RawMember*> out;
    out.reserve(v.members.size());
    for (const auto& m : v.members)
      out.push_back(&m);
    if (opts_.sorted_keys) {
      std::stable_sort(out.begin(), out.end(),
                       [](const auto* a, const auto* b) { return a->key < b->key; });
    }
    return out;
  }

  void object(const RawValue& v, const Type& t, const Context& ctx) {
    std::set<std::string_view> seen;
    for (const auto* m : members(v)) {
      if (stopped_) return;
      const Field* f = t.field(m->key);
      const std::string path = join(ctx.path, m->key);
      if (f == nullptr) {
        strict("unknown field", path, out_.unknown_fields);
        continue;
      }
      if (!seen.insert(f->name).second) strict("duplicate field", path, out_.duplicate_fields);
      Context inner{t.name, join(ctx.field_stack, f->name), path};
      value(m->value, *f->type, inner);
    }
  }

  void value(const RawValue& v, const TypeExpr& t, const Context& ctx) {
    if (stopped_) return;
    switch (t.kind) {
      case Kind::kString:
        if (v.kind != RK::kString && v.kind != RK::kNull) {
          save(type_error(ctx, value_name(v), t.go_name));
        }
        return;
      case Kind::kBool:
        if (v.kind != RK::kBool && v.kind != RK::kNull) {
          save(type_error(ctx, value_name(v), t.go_name));
        }
        return;
      case Kind::kInt32:
      case Kind::kInt64:
        integer(v, t, ctx, false);
        return;
      case Kind::kDouble:
        if (v.kind == RK::kNumber) {
          const double d = std::strtod(v.text.c_str(), nullptr);
          if (std::isinf(d)) save(type_error(ctx, "number " + v.text, t.go_name));
        } else if (v.kind != RK::kNull) {
          save(type_error(ctx, value_name(v), t.go_name));
        }
        return;
      case Kind::kBytes:
        if (v.kind == RK::kString) {
          if (auto b = base64_decode(v.text); !b) save(b.error());
        } else if (v.kind != RK::kNull) {
          save(type_error(ctx, value_name(v), t.go_name));
        }
        return;
      case Kind::kIntOrString:
        // IntOrString.UnmarshalJSON: a string, else json.Unmarshal into int32,
        // whose error comes back through the outer decoder's context.
        if (v.kind != RK::kString) integer(v, t, ctx, true);
        return;
      case Kind::kQuantity:
        quantity(v);
        return;
      case Kind::kTime:
      case Kind::kMicroTime:
      case Kind::kDuration:
        text_value(v, t, ctx);
        return;
      case Kind::kRaw:
      case Kind::kFieldsV1:
        return;  // any JSON
      case Kind::kObject:
        if (v.kind == RK::kObject) {
          object(v, *t.object, ctx);
        } else if (v.kind != RK::kNull) {
          save(type_error(ctx, value_name(v), t.go_name));
        }
        return;
      case Kind::kList:
        if (v.kind == RK::kArray) {
          for (std::size_t i = 0; i < v.items.size() && !stopped_; ++i) {
            Context inner{ctx.go_struct, ctx.field_stack, fmt::format("{}[{}]", ctx.path, i)};
            value(v.items[i], *t.elem, inner);
          }
        } else if (v.kind != RK::kNull) {
          save(type_error(ctx, value_name(v), t.go_name));
        }
        return;
      case Kind::kMap:
        if (v.kind == RK::kObject) {
          std::set<std::string_view> seen;
          for (const auto* m : members(v)) {
            if (stopped_) return;
            const std::string path = join(ctx.path, m->key);
            if (!seen.insert(m->key).second) {
              strict("duplicate field", path, out_.duplicate_fields);
            }
            Context inner{ctx.go_struct, ctx.field_stack, path};
            value(m->value, *t.elem, inner);
          }
        } else if (v.kind != RK::kNull) {
          save(type_error(ctx, value_name(v), t.go_name));
        }
        return;
    }
  }

  void integer(const RawValue& v, const TypeExpr& t, const Context& ctx, bool int_or_string) {
    // IntOrString decodes its number into an int32 with a nested decoder.
    const std::string_view go = int_or_string ? std::string_view("int32") : t.go_name;
    const bool is32 = int_or_string || t.kind == Kind::kInt32;
    std::string msg;
    if (v.kind == RK::kNumber) {
      auto n = parse_int64(v.text);
      const bool fits = n && (!is32 || (*n >= std::numeric_limits<std::int32_t>::min() &&
                                        *n <= std::numeric_limits<std::int32_t>::max()));
      if (fits) return;
      msg = type_error(ctx, "number " + v.text, go);
    } else if (v.kind == RK::kNull) {
      return;
    } else {
      msg = type_error(ctx, value_name(v), go);
    }
    if (int_or_string) {
      stop(std::move(msg));
    } else {
      save(std::move(msg));
    }
  }

  // Quantity.UnmarshalJSON: the text between quotes (or the literal itself)
  // must parse as a quantity.
  void quantity(const RawValue& v) {
    std::string text;
    switch (v.kind) {
      case RK::kNull:
        return;
      case RK::kString:
        text = v.text;
        break;
      case RK::kNumber:
        text = v.text;
        break;
      case RK::kBool:
        text = v.boolean ? "true" : "false";
        break;
      case RK::kArray:
        text = "[";
        break;
      case RK::kObject:
        text = "{";
        break;
    }
    const auto first = text.find_first_not_of(" \t\n\r\v\f");
    const auto last = text.find_last_not_of(" \t\n\r\v\f");
    text = first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
    if (auto q = Quantity::parse(text); !q) stop(q.error());
  }

  // Time, MicroTime and Duration unmarshal a JSON string first; anything else
  // is a type error against Go's string, then the text must parse.
  void text_value(const RawValue& v, const TypeExpr& t, const Context& ctx) {
    if (v.kind == RK::kNull) return;
    if (v.kind != RK::kString) {
      stop(type_error(ctx, value_name(v), "string"));
      return;
    }
    if (t.kind == Kind::kTime) {
      if (auto r = Time::parse(v.text); !r) stop(r.error());
    } else if (t.kind == Kind::kMicroTime) {
      if (auto r = MicroTime::parse(v.text); !r) stop(r.error());
    } else if (auto r = parse_duration(v.text); !r) {
      stop(r.error());
    }
  }

 public:
  void finish() {
    if (stopped_) {
      out_.error = hard_;
    } else {
      out_.error = saved_;
    }
  }

 private:
  const DecodeOptions& opts_;
  DecodeResult& out_;
  std::set<std::string> seen_;
  std::string saved_;
  std::string hard_;
  bool stopped_ = false;
};

}  // namespace

DecodeResult decode_check(const RawValue& body, const Type& type, const DecodeOptions& opts) {
  DecodeResult out;
  Checker c(opts, out);
  c.root(body, type);
  c.finish();
  return out;
}

DecodeResult decode_check(const json::value& body, const Type& type, const DecodeOptions& opts) {
  return decode_check(to_raw(body), type, opts);
}

Result<DecodeResult> decode_check_text(std::string_view body, const Type& type,
                                       const DecodeOptions& opts) {
  auto raw = parse_raw_json(body);
  if (!raw) return fail(raw.error());
  return decode_check(*raw, type, opts);
}

std::string strict_decoding_message(const std::vector<std::string>& strict_errors) {
  std::string s = "strict decoding error: ";
  for (std::size_t i = 0; i < strict_errors.size(); ++i) {
    if (i != 0) s += ", ";
    s += strict_errors[i];
  }
  return s;
}

std::string cannot_handle_message(std::string_view kind, std::string_view version,
                                  std::string_view detail) {
  return fmt::format("{} in version {} cannot be handled as a {}: {}", kind, go_quote(version),
                     kind, detail);
}

std::optional<FieldValidation> parse_field_validation(std::string_view value) {
  if (value.empty() || value == "Warn") return FieldValidation::kWarn;
  if (value == "Strict") return FieldValidation::kStrict;
  if (value == "Ignore") return FieldValidation::kIgnore;
  return std::nullopt;
}

Status invalid_field_validation(std::string_view options_kind, std::string_view value) {
  return invalid(
      GroupKind{"meta.k8s.io", std::string(options_kind)}, "",
      {not_supported("fieldValidation", json::string(value), {"", "Ignore", "Strict", "Warn"})});
}

BodyCheck check_request_body(std::string_view body, const GroupVersionKind& gvk,
                             FieldValidation validation, bool yaml) {
  BodyCheck out;
  const Type* type = Registry::builtin().root(gvk);
  if (type == nullptr) return out;
  DecodeOptions opts;
  opts.strict = validation != FieldValidation::kIgnore;
  opts.sorted_keys = yaml;
  auto r = decode_check_text(body, *type, opts);
  if (!r) {
    out.error = bad_request(cannot_handle_message(gvk.kind, gvk.version, r.error()));
    return out;
  }
  if (!r->ok()) {
    out.error = bad_request(cannot_handle_message(gvk.kind, gvk.version, r->error));
    return out;
  }
  if (r->strict_errors.empty()) return out;
  if (validation == FieldValidation::kStrict) {
    out.error = bad_request(
        cannot_handle_message(gvk.kind, gvk.version, strict_decoding_message(r->strict_errors)));
  } else if (validation == FieldValidation::kWarn) {
    out.warnings = std::move(r->strict_errors);
  }
  return out;
}

}  // namespace kcm::api::schema
