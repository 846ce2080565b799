// Version strings as apimachinery's util/version reads them: "generic"
// versions (two or more numeric fields, anything after them ignored) and
// semantic ones (exactly three, with pre-release and build metadata), with
// upstream's error texts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"

namespace kcm::api {

struct Version {
  std::vector<unsigned long> components;
  bool semver = false;
  std::string pre_release;
  std::string build_metadata;

  unsigned long major() const { return components[0]; }
  unsigned long minor() const { return components[1]; }
  unsigned long patch() const { return components.size() < 3 ? 0 : components[2]; }
  // "1.31", "1.31.2-rc.1+meta" (a generic version loses what followed its numbers).
  std::string to_string() const;
};

// version.ParseGeneric: an optional leading "v", then two or more
// dot-separated numbers; the first has no leading zero.
Result<Version> parse_generic_version(std::string_view text);
// version.ParseSemantic: exactly major.minor.patch, then -pre.release and
// +build.metadata.
Result<Version> parse_semantic_version(std::string_view text);
// version.Parse: semantic when it parses as such, else generic.
Result<Version> parse_version(std::string_view text);

}  // namespace kcm::api
