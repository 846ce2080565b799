// Command-line flags with the syntax and the error wording of spf13/pflag,
// which every Kubernetes component (and so every operator's muscle memory
// and script) uses: `--name=value`, `--name value`, `--flag` and
// `--flag=false` for booleans, `-v 2` / `-v=2` / `-v2` shorthands, `--` ends
// the flags, `_` and `-` are interchangeable in names, comma-separated string
// slices. A parse error reads exactly as pflag's (`unknown flag: --foo`,
// `invalid argument "x" for "--kube-api-qps" flag: strconv.ParseFloat: parsing
// "x": invalid syntax`).
//
// Written here rather than on CLI11: CLI11's syntax and messages differ in
// ways users see (bool values, slice appends, error texts), and matching
// pflag is the point.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "api/result.h"
#include "api/strconv.h"

namespace kcm::app {

class FlagSet {
 public:
  // One flag. `set` parses and stores a value and returns the error text
  // after "invalid argument ... flag: "; `value` prints the current value.
  struct Flag {
    std::string name;
    char shorthand = 0;
    std::string type;  // "string", "int32", "float32", "duration", "strings", "bool", ...
    std::string usage;
    std::string section;
    std::string default_text;
    // What `--name` alone sets (booleans: "true"); empty: a value is required.
    std::string no_value_default;
    std::function<Result<void>(std::string_view)> set;
    std::function<std::string()> value;
    bool changed = false;
  };

  explicit FlagSet(std::string command) : command_(std::move(command)) {}

  // Typed registrations: the target holds the default and receives the value.
  void add_bool(std::string name, bool* target, std::string usage, std::string section = {});
  void add_int32(std::string name, std::int32_t* target, std::string usage,
                 std::string section = {});
  void add_float32(std::string name, float* target, std::string usage, std::string section = {});
  void add_string(std::string name, std::string* target, std::string usage,
                  std::string section = {});
  // pflag's StringSlice: comma-separated (CSV quoting); the first use replaces
  // the default, later uses append.
  void add_string_slice(std::string name, std::vector<std::string>* target, std::string usage,
                        std::string section = {});
  void add_duration(std::string name, std::chrono::nanoseconds* target, std::string usage,
                    std::string section = {});
  // Any other type.
  void add(Flag flag);
  // Gives an existing flag a one-letter shorthand (`-v`).
  void set_shorthand(std::string_view name, char shorthand);

  // Parses `args` (without the program name). Returns the positional
  // arguments; the error is pflag's message. `-h`/`--help` give the error
  // kHelpRequested.
  Result<std::vector<std::string>> parse(const std::vector<std::string>& args);
  static constexpr std::string_view kHelpRequested = "pflag: help requested";

  bool changed(std::string_view name) const;
  const std::vector<Flag>& flags() const { return flags_; }

  // Cobra's usage text: "Usage:\n  <command> [flags]" and each section's flags
  // in pflag's layout, in registration order of sections, flags sorted by name.
  std::string usage() const;
  // `FLAG: --name="value"` lines (cliflag.PrintFlags), sorted by name.
  std::vector<std::string> print_flags() const;
  // Every flag's current value by name (what /flagz lists).
  std::map<std::string, std::string> values() const;

  // pflag's normalisation of a flag name: '_' becomes '-'.
  static std::string normalize(std::string_view name);

 private:
  Flag* find(std::string_view name);
  Flag* find_shorthand(char c);
  Result<void> set_value(Flag& flag, std::string_view value, std::string_view shown_name);

  std::string command_;
  std::vector<Flag> flags_;
};

}  // namespace kcm::app
