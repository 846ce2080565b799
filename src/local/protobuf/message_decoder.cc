#include "local/protobuf/message_decoder.h"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "api/base64.h"
#include "api/duration.h"
#include "api/quantity.h"
#include "local/protobuf/go_text.h"
#include "local/protobuf/wire_reader.h"

namespace kcm::local::protobuf {

namespace {

using api::schema::Field;
using api::schema::Kind;
using api::schema::Type;
using api::schema::TypeExpr;

// Types nest a dozen levels deep at most; anything deeper is hostile input.
constexpr int kMaxDepth = 64;

// What one message decodes to before it is printed: messages of singular
// fields stay open so that a field repeated on the wire merges into them, as
// proto2 requires; everything else is final JSON already.
struct Message;

struct Slot {
  bool present = false;
  json::value value;                       // scalars and well-known types (last wins)
  std::unique_ptr<Message> message;        // singular struct fields (merged)
  json::array list;                        // repeated fields
  std::map<std::string, json::value> map;  // map fields, sorted like Go prints them
};

struct Message {
  explicit Message(const Type& t) : type(&t), slots(t.fields.size()) {}
  const Type* type;
  std::vector<Slot> slots;
};

// "v1.PodSpec": the package name and type, as Go's reflect prints them.
std::string go_type_name(const Type& t) {
  const auto slash = t.package.rfind('/');
  const std::string_view version = slash == std::string::npos
                                       ? std::string_view(t.package)
                                       : std::string_view(t.package).substr(slash + 1);
  return fmt::format("{}.{}", version, t.name);
}

std::string join(std::string_view path, std::string_view name) {
  if (path.empty()) return std::string(name);
  return fmt::format("{}.{}", path, name);
}

DecodeError at(const WireError& e, std::string_view path) {
  return DecodeError{e.message, std::string(path), e.offset};
}

class Decoder {
 public:
  Result<void, DecodeError> decode_into(Message& m, std::string_view bytes, std::size_t base,
                                        const std::string& path, int depth);
  // One value of type `t` from one field (a list element, a map value or a
  // singular scalar). `owner` names the field in wire type errors.
  Result<json::value, DecodeError> decode_value(const TypeExpr& t, const WireField& f,
                                                std::string_view owner, const std::string& path,
                                                int depth);

 private:
  Result<void, DecodeError> decode_list_item(const TypeExpr& elem, const WireField& f,
                                             std::string_view owner, const std::string& path,
                                             json::array& list, int depth);
  Result<void, DecodeError> decode_map_entry(const TypeExpr& map, const WireField& f,
                                             const std::string& path,
                                             std::map<std::string, json::value>& out, int depth);
  Result<json::value, DecodeError> decode_well_known(const TypeExpr& t, const WireField& f,
                                                     const std::string& path);
};

std::string wrong_wire_type(const WireField& f, std::string_view owner) {
  return fmt::format("proto: wrong wireType = {} for field {}", static_cast<int>(f.wire_type),
                     owner);
}

std::string unknown_field(std::int32_t number, std::string_view go_type) {
  return fmt::format(
      "the body of the request was in an unknown format: field number {} of {} is not known to "
      "this server",
      number, go_type);
}

bool is_varint_kind(Kind k) {
  return k == Kind::kInt32 || k == Kind::kInt64 || k == Kind::kBool;
}

json::value varint_json(Kind k, std::uint64_t v) {
  switch (k) {
    case Kind::kInt32:
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    case Kind::kInt64:
      return static_cast<std::int64_t>(v);
    default:
      return v != 0;
  }
}

Result<json::value, std::string> double_json(std::uint64_t bits) {
  const double d = std::bit_cast<double>(bits);
  if (std::isnan(d)) return fail("json: unsupported value: NaN");
  if (std::isinf(d)) return fail(fmt::format("json: unsupported value: {}Inf", d < 0 ? "-" : "+"));
  return json::value(d);
}

// The value Go prints for a field that was never set on the wire.
json::value zero_json(const TypeExpr& t) {
  switch (t.kind) {
    case Kind::kString:
      return json::string();
    case Kind::kInt32:
    case Kind::kInt64:
    case Kind::kIntOrString:
      return std::int64_t{0};
    case Kind::kBool:
      return false;
    case Kind::kDouble:
      return 0.0;
    case Kind::kQuantity:
      return json::string("0");
    case Kind::kDuration:
      return json::string("0s");
    default:  // nil []byte, zero Time, nil RawExtension/FieldsV1, nil lists and maps
      return nullptr;
  }
}

// Whether Go's omitempty leaves this value out (never for struct types).
bool omitted_when_empty(const TypeExpr& t, const json::value& v) {
  switch (t.kind) {
    case Kind::kString:
    case Kind::kBytes:
      return v.is_null() || (v.is_string() && v.get_string().empty());
    case Kind::kInt32:
    case Kind::kInt64:
      return v.is_int64() && v.get_int64() == 0;
    case Kind::kBool:
      return v.is_bool() && !v.get_bool();
    case Kind::kDouble:
      return v.is_double() && v.get_double() == 0.0;
    default:
      return false;
  }
}

void render(const Type& type, const Message* m, json::object& out,
            const api::GroupVersionKind* type_meta);

json::object render_object(const Type& type, const Message* m) {
  json::object out;
  render(type, m, out, nullptr);
  return out;
}

void render(const Type& type, const Message* m, json::object& out,
            const api::GroupVersionKind* type_meta) {
  bool type_meta_done = false;
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    const Field& f = type.fields[i];
    const TypeExpr& t = *f.type;
    if (f.proto_number == 0) {
      // apiVersion/kind: Go's embedded TypeMeta prints kind first.
      if (type_meta != nullptr && !type_meta_done) {
        out["kind"] = type_meta->kind;
        out["apiVersion"] = type_meta->api_version();
        type_meta_done = true;
      }
      continue;
    }
    const Slot* s = m != nullptr ? &m->slots[i] : nullptr;
    const bool present = s != nullptr && s->present;
    if (f.inline_ && t.object != nullptr) {
      render(*t.object, present ? s->message.get() : nullptr, out, nullptr);
      continue;
    }
    if (f.pointer && !present) {
      if (!f.omitempty) out[f.name] = nullptr;
      continue;
    }
    switch (t.kind) {
      case Kind::kObject:
        if (t.object != nullptr) {
          out[f.name] = render_object(*t.object, present ? s->message.get() : nullptr);
        }
        break;
      case Kind::kList:
        if (present && !s->list.empty()) {
          out[f.name] = s->list;
        } else if (!f.omitempty) {
          out[f.name] = nullptr;
        }
        break;
      case Kind::kMap:
        if (present && !s->map.empty()) {
          json::object o;
          for (const auto& [key, value] : s->map)
            o[go_json_text(key)] = value;
          out[f.name] = std::move(o);
        } else if (!f.omitempty) {
          out[f.name] = nullptr;
        }
        break;
      default: {
        json::value v = present ? s->value : zero_json(t);
        if (f.omitempty && !f.pointer && omitted_when_empty(t, v)) break;
        out[f.name] = std::move(v);
        break;
      }
    }
  }
}

// A varint 0, fixed 0 or empty string/message: the proto form of a Go zero value.
bool is_zero_payload(const WireField& f) {
  switch (f.wire_type) {
    case WireType::kVarint:
    case WireType::kFixed32:
    case WireType::kFixed64:
      return f.value == 0;
    case WireType::kLengthDelimited:
      return f.bytes.empty();
    default:
      return false;
  }
}

const Field* find_field(const Type& type, std::int32_t number, std::size_t* index) {
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    if (type.fields[i].proto_number == number) {
      *index = i;
      return &type.fields[i];
    }
  }
  return nullptr;
}

Result<void, DecodeError> Decoder::decode_into(Message& m, std::string_view bytes, std::size_t base,
                                               const std::string& path, int depth) {
  if (depth > kMaxDepth) return fail(DecodeError{"message nesting is too deep", path, base});
  const Type& type = *m.type;
  const std::string go_type = go_type_name(type);
  WireReader reader(bytes, base, go_type);
  while (true) {
    auto next = reader.next();
    if (!next) return fail(at(next.error(), path));
    if (!next->has_value()) return {};
    const WireField& wf = **next;
    std::size_t index = 0;
    const Field* f = find_field(type, wf.number, &index);
    if (f == nullptr) {
      // A newer client writes every value field of its types, zero or not
      // (kubectl 1.33 sends PodStatus.observedGeneration = 0). A zero value
      // is what Go's omitempty leaves out of that client's JSON, so it is
      // dropped here too; anything else is not.
      if (is_zero_payload(wf)) continue;
      return fail(DecodeError{unknown_field(wf.number, go_type), path, wf.offset});
    }
    Slot& slot = m.slots[index];
    const TypeExpr& t = *f->type;
    const std::string owner = fmt::format("{} of {}", f->name, go_type);
    const std::string field_path = f->inline_ ? path : join(path, f->name);
    switch (t.kind) {
      case Kind::kList: {
        if (t.elem == nullptr)
          return fail(DecodeError{"list without element type", path, wf.offset});
        auto r = decode_list_item(*t.elem, wf, owner, field_path, slot.list, depth);
        if (!r) return fail(r.error());
        break;
      }
      case Kind::kMap: {
        if (wf.wire_type != WireType::kLengthDelimited) {
          return fail(DecodeError{wrong_wire_type(wf, owner), field_path, wf.offset});
        }
        auto r = decode_map_entry(t, wf, field_path, slot.map, depth);
        if (!r) return fail(r.error());
        break;
      }
      case Kind::kObject: {
        if (wf.wire_type != WireType::kLengthDelimited) {
          return fail(DecodeError{wrong_wire_type(wf, owner), field_path, wf.offset});
        }
        if (t.object == nullptr) return fail(DecodeError{"object without type", path, wf.offset});
        if (!slot.message) slot.message = std::make_unique<Message>(*t.object);
        auto r = decode_into(*slot.message, wf.bytes, wf.data_offset, field_path, depth + 1);
        if (!r) return fail(r.error());
        break;
      }
      default: {
        auto v = decode_value(t, wf, owner, field_path, depth);
        if (!v) return fail(v.error());
        slot.value = std::move(*v);
        break;
      }
    }
    slot.present = true;
  }
}

Result<void, DecodeError> Decoder::decode_list_item(const TypeExpr& elem, const WireField& f,
                                                    std::string_view owner, const std::string& path,
                                                    json::array& list, int depth) {
  auto item_path = [&](std::size_t i) { return fmt::format("{}[{}]", path, i); };
  // Repeated numbers may come packed into one length-delimited field.
  if (f.wire_type == WireType::kLengthDelimited && is_varint_kind(elem.kind)) {
    auto values = read_packed_varints(f.bytes, f.data_offset);
    if (!values) return fail(at(values.error(), item_path(list.size())));
    for (std::uint64_t v : *values)
      list.push_back(varint_json(elem.kind, v));
    return {};
  }
  if (f.wire_type == WireType::kLengthDelimited && elem.kind == Kind::kDouble) {
    if (f.bytes.size() % 8 != 0) {
      return fail(DecodeError{"unexpected EOF", item_path(list.size()),
                              f.data_offset + f.bytes.size() / 8 * 8});
    }
    for (std::size_t i = 0; i < f.bytes.size(); i += 8) {
      std::uint64_t bits = 0;
      for (std::size_t b = 0; b < 8; ++b) {
        bits |= static_cast<std::uint64_t>(static_cast<unsigned char>(f.bytes[i + b])) << (8 * b);
      }
      auto d = double_json(bits);
      if (!d) return fail(DecodeError{d.error(), item_path(list.size()), f.data_offset + i});
      list.push_back(*d);
    }
    return {};
  }
  auto v = decode_value(elem, f, owner, item_path(list.size()), depth);
  if (!v) return fail(v.error());
  list.push_back(std::move(*v));
  return {};
}

Result<void, DecodeError> Decoder::decode_map_entry(const TypeExpr& map, const WireField& f,
                                                    const std::string& path,
                                                    std::map<std::string, json::value>& out,
                                                    int depth) {
  if (map.elem == nullptr) return fail(DecodeError{"map without value type", path, f.offset});
  const std::string entry_type = fmt::format("{} entry", map.go_name);
  WireReader reader(f.bytes, f.data_offset, entry_type);
  std::string key;
  std::optional<WireField> value;
  while (true) {
    auto next = reader.next();
    if (!next) return fail(at(next.error(), path));
    if (!next->has_value()) break;
    const WireField& wf = **next;
    if (wf.number == 1) {
      if (wf.wire_type != WireType::kLengthDelimited) {
        return fail(DecodeError{wrong_wire_type(wf, "key of " + entry_type), path, wf.offset});
      }
      key = std::string(wf.bytes);
    } else if (wf.number == 2) {
      value = wf;
    } else {
      return fail(DecodeError{unknown_field(wf.number, entry_type), path, wf.offset});
    }
  }
  const std::string value_path = fmt::format("{}[{}]", path, go_json_text(key));
  json::value v;
  if (value) {
    auto r = decode_value(*map.elem, *value, "value of " + entry_type, value_path, depth);
    if (!r) return fail(r.error());
    v = std::move(*r);
  } else if (map.elem->kind == Kind::kObject && map.elem->object != nullptr) {
    v = render_object(*map.elem->object, nullptr);
  } else {
    v = zero_json(*map.elem);
  }
  out[std::move(key)] = std::move(v);
  return {};
}

Result<json::value, DecodeError> Decoder::decode_value(const TypeExpr& t, const WireField& f,
                                                       std::string_view owner,
                                                       const std::string& path, int depth) {
  auto wire_error = [&] { return fail(DecodeError{wrong_wire_type(f, owner), path, f.offset}); };
  switch (t.kind) {
    case Kind::kString:
      if (f.wire_type != WireType::kLengthDelimited) return wire_error();
      return json::value(go_json_text(f.bytes));
    case Kind::kBytes:
      if (f.wire_type != WireType::kLengthDelimited) return wire_error();
      return json::value(api::base64_encode(f.bytes));
    case Kind::kInt32:
    case Kind::kInt64:
    case Kind::kBool:
      if (f.wire_type != WireType::kVarint) return wire_error();
      return varint_json(t.kind, f.value);
    case Kind::kDouble: {
      if (f.wire_type != WireType::kFixed64) return wire_error();
      auto d = double_json(f.value);
      if (!d) return fail(DecodeError{d.error(), path, f.offset});
      return *d;
    }
    case Kind::kObject: {
      if (f.wire_type != WireType::kLengthDelimited) return wire_error();
      if (t.object == nullptr) return fail(DecodeError{"object without type", path, f.offset});
      Message m(*t.object);
      auto r = decode_into(m, f.bytes, f.data_offset, path, depth + 1);
      if (!r) return fail(r.error());
      return json::value(render_object(*t.object, &m));
    }
    case Kind::kList:
    case Kind::kMap:
      return fail(
          DecodeError{fmt::format("nested {} is not supported", t.go_name), path, f.offset});
    default:
      if (f.wire_type != WireType::kLengthDelimited) return wire_error();
      return decode_well_known(t, f, path);
  }
}

// Time, MicroTime, Quantity, IntOrString, Duration, RawExtension, FieldsV1:
// small messages whose Go types print specially.
Result<json::value, DecodeError> Decoder::decode_well_known(const TypeExpr& t, const WireField& f,
                                                            const std::string& path) {
  const std::string_view go_type = [&]() -> std::string_view {
    switch (t.kind) {
      case Kind::kTime:
        return "v1.Time";
      case Kind::kMicroTime:
        return "v1.MicroTime";
      case Kind::kQuantity:
        return "resource.Quantity";
      case Kind::kIntOrString:
        return "intstr.IntOrString";
      case Kind::kDuration:
        return "v1.Duration";
      case Kind::kRaw:
        return "runtime.RawExtension";
      default:
        return "v1.FieldsV1";
    }
  }();
  // Field numbers and wire types of each type's message.
  auto expected_wire = [&](std::int32_t number) -> std::optional<WireType> {
    switch (t.kind) {
      case Kind::kTime:
      case Kind::kMicroTime:  // Timestamp{1: seconds, 2: nanos}
        if (number == 1 || number == 2) return WireType::kVarint;
        break;
      case Kind::kIntOrString:  // {1: type, 2: intVal, 3: strVal}
        if (number == 1 || number == 2) return WireType::kVarint;
        if (number == 3) return WireType::kLengthDelimited;
        break;
      case Kind::kDuration:  // {1: nanoseconds}
        if (number == 1) return WireType::kVarint;
        break;
      default:  // Quantity{1: string}, RawExtension{1: raw}, FieldsV1{1: raw}
        if (number == 1) return WireType::kLengthDelimited;
        break;
    }
    return std::nullopt;
  };
  std::map<std::int32_t, WireField> last;  // proto2: the last occurrence wins
  WireReader reader(f.bytes, f.data_offset, go_type);
  while (true) {
    auto next = reader.next();
    if (!next) return fail(at(next.error(), path));
    if (!next->has_value()) break;
    const WireField& wf = **next;
    const auto want = expected_wire(wf.number);
    if (!want) return fail(DecodeError{unknown_field(wf.number, go_type), path, wf.offset});
    if (wf.wire_type != *want) {
      return fail(DecodeError{wrong_wire_type(wf, fmt::format("{} of {}", wf.number, go_type)),
                              path, wf.offset});
    }
    last[wf.number] = wf;
  }
  auto varint = [&](std::int32_t n) -> std::uint64_t {
    const auto it = last.find(n);
    return it == last.end() ? 0 : it->second.value;
  };
  auto bytes = [&](std::int32_t n) -> std::optional<std::string_view> {
    const auto it = last.find(n);
    if (it == last.end()) return std::nullopt;
    return it->second.bytes;
  };
  switch (t.kind) {
    case Kind::kTime:
    case Kind::kMicroTime: {
      // metav1.Time keeps whole seconds only; MicroTime keeps the nanoseconds.
      GoInstant instant{static_cast<std::int64_t>(varint(1)), 0};
      if (t.kind == Kind::kMicroTime) {
        instant.nanos = static_cast<std::int32_t>(static_cast<std::uint32_t>(varint(2)));
      }
      if (f.bytes.empty() || is_go_zero_time(instant)) return json::value(nullptr);
      auto text = format_go_time(instant, t.kind == Kind::kMicroTime);
      if (!text) return fail(DecodeError{text.error(), path, f.data_offset});
      return json::value(*text);
    }
    case Kind::kQuantity: {
      const auto text = bytes(1);
      if (!text) return json::value("0");
      auto q = api::Quantity::parse(*text);
      if (!q) return fail(DecodeError{q.error(), path, last[1].data_offset});
      return json::value(q->to_string());
    }
    case Kind::kIntOrString: {
      const auto type = static_cast<std::int64_t>(varint(1));
      if (type == 0)
        return json::value(static_cast<std::int32_t>(static_cast<std::uint32_t>(varint(2))));
      if (type == 1) return json::value(go_json_text(bytes(3).value_or("")));
      return fail(
          DecodeError{fmt::format("impossible IntOrString.Type {}", type), path, f.data_offset});
    }
    case Kind::kDuration:
      return json::value(
          api::format_duration(std::chrono::nanoseconds(static_cast<std::int64_t>(varint(1)))));
    default: {
      // RawExtension and FieldsV1 print their raw bytes, which must be JSON.
      const auto raw = bytes(1);
      if (!raw) return json::value(nullptr);
      std::string error;
      auto v = api::parse_json(*raw, &error);
      if (!v) {
        return fail(DecodeError{fmt::format("{} is not JSON: {}", go_type, error), path,
                                last[1].data_offset});
      }
      return std::move(*v);
    }
  }
}

}  // namespace

std::string DecodeError::to_string() const {
  if (path.empty()) return fmt::format("{} (byte {})", message, offset);
  return fmt::format("{} (at {}, byte {})", message, path, offset);
}

Result<json::object, DecodeError> decode_message(std::string_view message,
                                                 const api::schema::Type& type,
                                                 std::size_t base_offset,
                                                 const api::GroupVersionKind* type_meta) {
  Message m(type);
  Decoder decoder;
  auto r = decoder.decode_into(m, message, base_offset, "", 0);
  if (!r) return fail(r.error());
  json::object out;
  render(type, &m, out, type_meta);
  return out;
}

}  // namespace kcm::local::protobuf
