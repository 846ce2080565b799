#include "local/fieldmanager/path_element.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "api/field_error.h"

namespace kcm::local::fieldmanager {

namespace {

int sign(auto a, auto b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// value.Compare's rank of a value's type.
int type_rank(const json::value& v) {
  switch (v.kind()) {
    case json::kind::int64:
    case json::kind::uint64:
    case json::kind::double_:
      return 0;
    case json::kind::string:
      return 1;
    case json::kind::bool_:
      return 2;
    case json::kind::array:
      return 3;
    case json::kind::object:
      return 4;
    case json::kind::null:
      return 5;
  }
  return 5;
}

int compare_numbers(const json::value& a, const json::value& b) {
  if (a.is_double() || b.is_double()) return sign(a.to_number<double>(), b.to_number<double>());
  if (a.is_uint64() && b.is_uint64()) return sign(a.get_uint64(), b.get_uint64());
  if (a.is_uint64())
    return b.get_int64() < 0 ? 1 : sign(a.get_uint64(), std::uint64_t(b.get_int64()));
  if (b.is_uint64())
    return a.get_int64() < 0 ? -1 : sign(std::uint64_t(a.get_int64()), b.get_uint64());
  return sign(a.get_int64(), b.get_int64());
}

int compare_keys(const std::vector<KeyField>& a, const std::vector<KeyField>& b) {
  if (a.size() != b.size()) return sign(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (int c = a[i].name.compare(b[i].name); c != 0) return sign(c, 0);
    if (int c = compare_values(a[i].value, b[i].value); c != 0) return c;
  }
  return 0;
}

}  // namespace

int compare_values(const json::value& a, const json::value& b) {
  const int ra = type_rank(a);
  const int rb = type_rank(b);
  if (ra != rb) return sign(ra, rb);
  switch (ra) {
    case 0:
      return compare_numbers(a, b);
    case 1:
      return sign(a.get_string().compare(b.get_string()), 0);
    case 2:
      return sign(a.get_bool(), b.get_bool());
    case 3: {
      const json::array& x = a.get_array();
      const json::array& y = b.get_array();
      for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (int c = compare_values(x[i], y[i]); c != 0) return c;
      }
      return sign(x.size(), y.size());
    }
    case 4: {
      // Maps compare by their sorted keys, then values, then size.
      auto sorted = [](const json::object& o) {
        std::vector<const json::key_value_pair*> kv;
        for (const auto& m : o)
          kv.push_back(&m);
        std::sort(kv.begin(), kv.end(), [](auto* p, auto* q) { return p->key() < q->key(); });
        return kv;
      };
      const auto x = sorted(a.get_object());
      const auto y = sorted(b.get_object());
      for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (int c = x[i]->key().compare(y[i]->key()); c != 0) return sign(c, 0);
        if (int c = compare_values(x[i]->value(), y[i]->value()); c != 0) return c;
      }
      return sign(x.size(), y.size());
    }
    default:
      return 0;
  }
}

std::string value_to_string(const json::value& v) {
  switch (v.kind()) {
    case json::kind::array: {
      std::string out = "[";
      for (const json::value& e : v.get_array()) {
        if (out.size() > 1) out += ", ";
        out += value_to_string(e);
      }
      return out + "]";
    }
    case json::kind::object: {
      std::vector<std::string> parts;
      for (const auto& m : v.get_object()) {
        parts.push_back(
            fmt::format("{}={}", std::string_view(m.key()), value_to_string(m.value())));
      }
      std::sort(parts.begin(), parts.end());
      return fmt::format("{{{}}}", fmt::join(parts, ", "));
    }
    default:
      return api::go_value_string(v);
  }
}

PathElement PathElement::field(std::string name) {
  return PathElement(Variant(std::in_place_index<0>, std::move(name)));
}

PathElement PathElement::key(std::vector<KeyField> fields) {
  std::sort(fields.begin(), fields.end(),
            [](const KeyField& a, const KeyField& b) { return a.name < b.name; });
  return PathElement(Variant(std::in_place_index<1>, std::move(fields)));
}

PathElement PathElement::value(json::value v) {
  return PathElement(Variant(std::in_place_index<2>, std::move(v)));
}

PathElement PathElement::index(int i) {
  return PathElement(Variant(std::in_place_index<3>, i));
}

int PathElement::compare(const PathElement& other) const {
  if (v_.index() != other.v_.index()) return sign(v_.index(), other.v_.index());
  switch (form()) {
    case Form::kField:
      return sign(std::get<0>(v_).compare(std::get<0>(other.v_)), 0);
    case Form::kKey:
      return compare_keys(std::get<1>(v_), std::get<1>(other.v_));
    case Form::kValue:
      return compare_values(std::get<2>(v_), std::get<2>(other.v_));
    case Form::kIndex:
      return sign(std::get<3>(v_), std::get<3>(other.v_));
  }
  return 0;
}

std::string PathElement::to_string() const {
  switch (form()) {
    case Form::kField:
      return "." + std::get<0>(v_);
    case Form::kKey: {
      std::string out = "[";
      for (const KeyField& k : std::get<1>(v_)) {
        if (out.size() > 1) out += ",";
        out += k.name + "=" + value_to_string(k.value);
      }
      return out + "]";
    }
    case Form::kValue:
      return "[=" + value_to_string(std::get<2>(v_)) + "]";
    case Form::kIndex:
      return fmt::format("[{}]", std::get<3>(v_));
  }
  return {};
}

std::string PathElement::to_fields_v1() const {
  switch (form()) {
    case Form::kField:
      return "f:" + std::get<0>(v_);
    case Form::kKey: {
      json::object key;
      for (const KeyField& k : std::get<1>(v_))
        key[k.name] = k.value;
      return "k:" + api::to_json_string(key);
    }
    case Form::kValue:
      return "v:" + api::to_json_string(std::get<2>(v_));
    case Form::kIndex:
      return fmt::format("i:{}", std::get<3>(v_));
  }
  return {};
}

Result<PathElement> PathElement::from_fields_v1(std::string_view text) {
  if (text.size() < 2) return fail("key must be 2 characters long:");
  if (text[1] != ':') return fail(fmt::format("missing colon: {}", text));
  const std::string_view rest = text.substr(2);
  switch (text[0]) {
    case 'f':
      return field(std::string(rest));
    case 'v': {
      std::string error;
      auto v = api::parse_json(rest, &error);
      if (!v) return fail(error);
      return value(std::move(*v));
    }
    case 'k': {
      std::string error;
      auto v = api::parse_json(rest, &error);
      if (!v) return fail(error);
      if (!v->is_object())
        return fail(fmt::format("expected an object of key fields, got {}", rest));
      std::vector<KeyField> fields;
      for (const auto& m : v->get_object())
        fields.push_back({std::string(m.key()), m.value()});
      return key(std::move(fields));
    }
    case 'i': {
      int i = 0;
      auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), i);
      if (ec != std::errc() || ptr != rest.data() + rest.size()) {
        return fail(fmt::format("strconv.Atoi: parsing {}: invalid syntax", api::go_quote(rest)));
      }
      return index(i);
    }
    default:
      return fail(std::string(kUnknownPathElementType));
  }
}

std::string to_string(const Path& path) {
  std::string out;
  for (const PathElement& pe : path)
    out += pe.to_string();
  return out;
}

}  // namespace kcm::local::fieldmanager
