// core/v1 Secret: type defaults to Opaque, stringData folds into data, no
// generation.
#include "local/registry/field_access.h"
#include "local/registry/secret_validation.h"
#include "local/registry/strategies.h"

namespace kcm::local::registry {
namespace {

class SecretStrategy final : public Strategy {
 public:
  void apply_defaults(json::object& obj) const override { decode_secret(obj); }
  api::FieldErrors validate(const json::object& obj) const override { return validate_secret(obj); }
  api::FieldErrors validate_update(const json::object& obj,
                                   const json::object& old) const override {
    return validate_secret_update(obj, old);
  }
  void field_values(const json::object& obj, std::vector<std::string>& out) const override {
    out.emplace_back(string_member(obj, "type"));
  }
};

}  // namespace

std::shared_ptr<const Strategy> secret_strategy() {
  return std::make_shared<SecretStrategy>();
}

}  // namespace kcm::local::registry
