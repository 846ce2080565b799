// Every kubectl client against kcm-local: the fixture the per-command e2e tests
// share. Each bundled kubectl.1.X runs against a kcm-local reporting v1.X.0 (no
// version-skew warnings), plus one run through the installed dispatcher. One
// kcm-local per client is shared by all tests; each test works in its own
// namespace so tests do not see each other.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "local_cluster.h"
#include "subprocess.h"

namespace kcm::e2e {

// One kubectl client under test.
struct KubectlClient {
  std::string name;          // test-name suffix: "1_30", "dispatcher"
  std::string binary;        // a path, or "kubectl" (the dispatcher)
  std::string kube_version;  // what kcm-local's /version reports
  int minor = 0;             // the minor version of the client that actually runs
};

// For gtest's messages.
void PrintTo(const KubectlClient& client, std::ostream* os);

// The bundled clients (kubectl.1.27 ... beside the installed kubectl) and the dispatcher.
std::vector<KubectlClient> kubectl_clients();

// For INSTANTIATE_TEST_SUITE_P: the client's name.
std::string client_test_name(const ::testing::TestParamInfo<KubectlClient>& info);

// A table printed by `kubectl get` (or api-resources, events): the header cells
// and the rows, split at the header's column starts. `ok` is false when a row
// does not line up with the header (a cell overflowing its column).
struct PrintedTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  bool ok = true;
};

// Parses one table (lines up to the first empty line).
PrintedTable parse_table(std::string_view text);
// Parses tables separated by empty lines (`kubectl get all`).
std::vector<PrintedTable> parse_tables(std::string_view text);
// Replaces every cell that reads as a kubectl age ("0s", "5m3s", "2d") by "<age>".
PrintedTable mask_ages(PrintedTable table);
// The rows of a table as one string per row, cells joined by '|', for readable diffs.
std::vector<std::string> row_strings(const PrintedTable& table);
// Expects `out` to be exactly one table with `header` and `rows` (cells joined by
// '|'; ages masked as "<age>" when `mask` is set).
void expect_table(const std::string& out, const std::vector<std::string>& header,
                  const std::vector<std::string>& rows, bool mask = true);
// The cells of a line split at runs of two or more spaces (watch output, whose
// rows are flushed one by one and so not aligned with the header).
std::vector<std::string> split_cells(std::string_view line);
// A line of `text` whose cells (split_cells) start with `prefix`, joined by '|'; "" if none.
std::string find_row(std::string_view text, const std::vector<std::string>& prefix);

// The fields of `s` split at `sep`; a trailing `sep` gives a last empty field.
std::vector<std::string> split(const std::string& s, char sep);
// The non-empty lines of `s`.
std::vector<std::string> lines_of(const std::string& s);

// `text` without kubectl's -v log lines ("I0102 15:04:05.000000 ...").
std::string drop_klog_lines(std::string_view text);

// True when some line of `text` matches `pattern` (ECMAScript regex) as a whole.
bool has_line(std::string_view text, const std::string& pattern);
// gmock matcher form of has_line.
MATCHER_P(HasLine, pattern, "has a line matching \"" + std::string(pattern) + "\"") {
  return has_line(arg, pattern);
}

// An RFC 3339 UTC time `ago` before now ("2024-05-01T10:00:00Z").
std::string rfc3339_ago(std::chrono::seconds ago);

// A kubectl running in the background (a watch), output (stdout and stderr) to a file.
class BackgroundKubectl {
 public:
  BackgroundKubectl(const LocalCluster& cluster, const std::string& binary,
                    const std::vector<std::string>& args);
  ~BackgroundKubectl();
  std::string output() const { return read_file(log_); }
  // Waits until the output contains `text`.
  bool wait_for(const std::string& text,
                std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Waits for the process to exit by itself; returns its exit status, or -1 on timeout.
  int wait_exit(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Ends it (SIGTERM).
  void stop();

 private:
  std::unique_ptr<TempDir> dir_;
  std::filesystem::path log_;
  Process process_;
  int exit_status_ = -1;
  bool exited_ = false;
};

class ClientTest : public ::testing::TestWithParam<KubectlClient> {
 protected:
  void SetUp() override;

  const KubectlClient& client() const { return GetParam(); }
  int minor() const { return GetParam().minor; }
  LocalCluster& cluster();
  // The test's own namespace (created by SetUp).
  const std::string& ns() const { return ns_; }

  // kubectl <args> in the test's namespace.
  CommandResult run(const std::vector<std::string>& args, const std::string& input = {},
                    std::chrono::milliseconds timeout = std::chrono::seconds(15));
  // ... expecting exit code 0.
  CommandResult ok(const std::vector<std::string>& args, const std::string& input = {});
  // kubectl create -f - with `manifest`, expecting success: for objects a test
  // starts from (without client-side validation: clients before 1.29 need
  // /openapi/v2 for it, which the create tests themselves cover).
  void create(const std::string& manifest);
  // The value of a jsonpath on an object in the test's namespace.
  std::string jsonpath(const std::string& object, const std::string& path);
  // A background kubectl in the test's namespace.
  std::unique_ptr<BackgroundKubectl> background(const std::vector<std::string>& args);

 private:
  std::string ns_;
  std::unique_ptr<Kubectl> kubectl_;
};

// Manifests used across the tests.
std::string namespace_yaml(const std::string& name);
// A Deployment `name` (label app=<name>) with one container "nginx".
std::string deployment_yaml(const std::string& name, const std::string& image = "nginx:1.25",
                            int replicas = 3);
// A Pod `name` with one container "c" (image busybox) and `labels` in flow style ("a: b").
std::string pod_yaml(const std::string& name, const std::string& labels = "app: web",
                     const std::string& extra_spec = {});

}  // namespace kcm::e2e
