#include "gnostic_decode.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/text_format.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

namespace kcm::local::openapi_v2::testing {
namespace {

namespace pb = google::protobuf;

// The descriptor pool of the test proto, built once with protoc.
struct Schema {
  pb::DescriptorPool pool;
  std::unique_ptr<pb::DynamicMessageFactory> factory;
  const pb::Descriptor* document = nullptr;
  std::string error;
};

const Schema& schema() {
  static Schema s;
  static std::once_flag once;
  std::call_once(once, [] {
    char path[] = "/tmp/kcm-gnostic-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) {
      s.error = "mkstemp failed";
      return;
    }
    close(fd);
    const std::string dir = std::string(KCM_TEST_DATA_DIR) + "/openapi_v2";
    const std::string cmd = "protoc -I" + dir + " --include_imports --descriptor_set_out=" + path +
                            " " + dir + "/OpenAPIv2.proto 2>&1";
    if (std::system(cmd.c_str()) != 0) {
      s.error = "protoc failed: " + cmd;
      std::remove(path);
      return;
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream data;
    data << in.rdbuf();
    std::remove(path);
    pb::FileDescriptorSet set;
    if (!set.ParseFromString(data.str())) {
      s.error = "cannot parse the descriptor set";
      return;
    }
    for (const auto& file : set.file()) {
      if (s.pool.BuildFile(file) == nullptr) {
        s.error = "cannot build " + file.name();
        return;
      }
    }
    s.document = s.pool.FindMessageTypeByName("openapi.v2.Document");
    s.factory = std::make_unique<pb::DynamicMessageFactory>(&s.pool);
  });
  return s;
}

// go-yaml's reading of a plain scalar: null, booleans, integers, floats, else a string.
json::value yaml_scalar(const YAML::Node& n) {
  const std::string& text = n.Scalar();
  if (n.Tag() == "!") return json::value(text);  // quoted
  if (text == "null" || text == "~" || text.empty()) return nullptr;
  if (text == "true") return true;
  if (text == "false") return false;
  std::int64_t i = 0;
  if (auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
      ec == std::errc() && end == text.data() + text.size()) {
    return i;
  }
  double d = 0;
  if (auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
      ec == std::errc() && end == text.data() + text.size()) {
    return d;
  }
  return json::value(text);
}

json::value yaml_to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Sequence: {
      json::array a;
      for (const auto& e : n)
        a.push_back(yaml_to_json(e));
      return a;
    }
    case YAML::NodeType::Map: {
      json::object o;
      for (const auto& kv : n)
        o[kv.first.Scalar()] = yaml_to_json(kv.second);
      return o;
    }
    case YAML::NodeType::Scalar:
      return yaml_scalar(n);
    default:
      return nullptr;
  }
}

class Decoder {
 public:
  Result<json::value> run(const pb::Message& m) {
    json::value v = message(m);
    if (!error_.empty()) return fail(error_);
    return v;
  }

 private:
  static std::string json_name(const pb::FieldDescriptor* f) {
    if (f->name() == "_ref") return "$ref";
    return f->json_name();
  }

  json::value scalar(const pb::Message& m, const pb::FieldDescriptor* f, int index) {
    const pb::Reflection* r = m.GetReflection();
    const bool rep = f->is_repeated();
    switch (f->cpp_type()) {
      case pb::FieldDescriptor::CPPTYPE_STRING:
        return json::value(rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f));
      case pb::FieldDescriptor::CPPTYPE_BOOL:
        return rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f);
      case pb::FieldDescriptor::CPPTYPE_INT64:
        return rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f);
      case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        return rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f);
      case pb::FieldDescriptor::CPPTYPE_MESSAGE:
        return message(rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f));
      default:
        error_ = "unexpected field type in " + f->full_name();
        return nullptr;
    }
  }

  // A repeated Named<T> as a JSON object, in order.
  void named(const pb::Message& m, const pb::FieldDescriptor* f, json::object& out) {
    const pb::Reflection* r = m.GetReflection();
    for (int i = 0; i < r->FieldSize(m, f); ++i) {
      const pb::Message& pair = r->GetRepeatedMessage(m, f, i);
      const pb::Descriptor* d = pair.GetDescriptor();
      const std::string key = pair.GetReflection()->GetString(pair, d->FindFieldByName("name"));
      const pb::FieldDescriptor* value = d->FindFieldByName("value");
      out[key] = scalar(pair, value, -1);
      if (value->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE &&
          !pair.GetReflection()->HasField(pair, value)) {
        out[key] = json::object{};
      }
    }
  }

  json::value message(const pb::Message& m) {
    const pb::Reflection* r = m.GetReflection();
    const pb::Descriptor* d = m.GetDescriptor();
    if (!r->GetUnknownFields(m).empty()) {
      error_ = "unknown fields in " + d->full_name();
      return nullptr;
    }
    const std::string& type = d->name();
    std::vector<const pb::FieldDescriptor*> fields;
    r->ListFields(m, &fields);

    if (type == "Any") {
      try {
        return yaml_to_json(YAML::Load(r->GetString(m, d->FindFieldByName("yaml"))));
      } catch (const YAML::Exception& e) {
        error_ = std::string("bad YAML in an Any: ") + e.what();
        return nullptr;
      }
    }
    // oneof wrappers: the one member set.
    if (d->oneof_decl_count() == 1 && d->field_count() == d->oneof_decl(0)->field_count()) {
      if (fields.size() != 1) {
        error_ = type + " has " + std::to_string(fields.size()) + " members set";
        return nullptr;
      }
      return scalar(m, fields[0], -1);
    }
    if (type == "TypeItem" || type == "ItemsItem") {
      const pb::FieldDescriptor* f = d->field(0);
      if (r->FieldSize(m, f) == 1) return scalar(m, f, 0);
      json::array a;
      for (int i = 0; i < r->FieldSize(m, f); ++i)
        a.push_back(scalar(m, f, i));
      return a;
    }
    json::object out;
    for (const pb::FieldDescriptor* f : fields) {
      const bool is_map =
          f->is_repeated() && (f->name() == "additional_properties" || f->name() == "path" ||
                               f->name() == "response_code" || f->name() == "vendor_extension");
      if (is_map) {
        named(m, f, out);  // maps and extensions become members of this object
        continue;
      }
      if (f->is_repeated()) {
        json::array a;
        for (int i = 0; i < r->FieldSize(m, f); ++i)
          a.push_back(scalar(m, f, i));
        out[json_name(f)] = std::move(a);
      } else {
        out[json_name(f)] = scalar(m, f, -1);
      }
    }
    return out;
  }

  std::string error_;
};

std::unique_ptr<pb::Message> parse(const std::string& bytes, std::string& error) {
  const Schema& s = schema();
  if (!s.error.empty()) {
    error = s.error;
    return nullptr;
  }
  std::unique_ptr<pb::Message> m(s.factory->GetPrototype(s.document)->New());
  if (!m->ParseFromString(bytes)) {
    error = "not an openapi.v2.Document";
    return nullptr;
  }
  return m;
}

}  // namespace

bool have_protoc() {
  return std::system("protoc --version >/dev/null 2>&1") == 0;
}

Result<json::value> decode_document(const std::string& bytes) {
  std::string error;
  auto m = parse(bytes, error);
  if (!m) return fail(error);
  return Decoder().run(*m);
}

Result<std::string> decode_text(const std::string& bytes) {
  std::string error;
  auto m = parse(bytes, error);
  if (!m) return fail(error);
  std::string out;
  pb::TextFormat::PrintToString(*m, &out);
  return out;
}

}  // namespace kcm::local::openapi_v2::testing
