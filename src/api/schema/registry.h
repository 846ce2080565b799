// The set of built-in API types, parsed from the declarative definitions in
// defs/*.schema (embedded into the library at build time).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "api/schema/type.h"

namespace kcm::api::schema {

// One definition file: its name (for messages) and its text.
struct DefinitionFile {
  std::string_view name;
  std::string_view text;
};

class Registry {
 public:
  // The embedded definitions, parsed once on first use.
  static const Registry& builtin();
  // Parses definition files; the error names the file and line.
  static Result<std::unique_ptr<Registry>> parse(const std::vector<DefinitionFile>& files);

  // The type serving a kind (by its gvk= declaration), or nullptr.
  const Type* root(const GroupVersionKind& gvk) const;
  // A type by package ("core/v1") and Go name ("PodSpec"), or nullptr.
  const Type* find(std::string_view package, std::string_view name) const;
  // Every type, in definition order.
  const std::deque<Type>& types() const { return types_; }
  // The openapi name prefix of a package: "io.k8s.api.apps.v1".
  std::string openapi_prefix(std::string_view package) const;

  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;
  Registry() = default;

 private:
  friend class Parser;
  std::deque<Type> types_;
  std::deque<TypeExpr> exprs_;
  std::map<std::string, Type*, std::less<>> by_name_;         // "core/v1.PodSpec"
  std::map<std::string, std::string, std::less<>> prefixes_;  // package -> openapi prefix
};

// A struct type of the embedded definitions that code names ("core/v1",
// "PodSpec"). The definitions ship with the library, so a missing one is a
// build defect: it aborts with the name.
const Type& builtin_type(std::string_view package, std::string_view name);

}  // namespace kcm::api::schema
