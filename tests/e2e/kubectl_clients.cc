#include "kubectl_clients.h"

#include <signal.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace kcm::e2e {

namespace {

// One kcm-local per client, alive until the test program exits, and one kubectl
// whose discovery cache is shared by every test of that client.
struct SharedCluster {
  std::unique_ptr<LocalCluster> cluster;
  std::unique_ptr<Kubectl> kubectl;
  std::set<std::string> created;  // namespaces made in advance
  std::set<std::string> used;     // namespaces handed to a test
};

std::map<std::string, SharedCluster>& shared_clusters() {
  static std::map<std::string, SharedCluster> clusters;
  return clusters;
}

// "Kubectl/GetTest" + "TablesOfPods/1_30" => "get-tables-of-pods": a DNS label.
std::string namespace_for(const ::testing::TestInfo& info) {
  std::string suite = info.test_suite_name();
  suite = suite.substr(suite.find('/') + 1);
  if (suite.size() > 4 && suite.ends_with("Test")) suite.resize(suite.size() - 4);
  std::string test = info.name();
  test = test.substr(0, test.find('/'));
  std::string out;
  for (const std::string& part : {suite, test}) {
    if (!out.empty()) out += '-';
    for (std::size_t i = 0; i < part.size(); ++i) {
      const char c = part[i];
      if (std::isupper(static_cast<unsigned char>(c))) {
        if (i > 0 && out.back() != '-') out += '-';
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      } else if (std::isalnum(static_cast<unsigned char>(c))) {
        out += c;
      } else if (out.back() != '-') {
        out += '-';
      }
    }
  }
  if (out.size() > 50) out.resize(50);
  while (out.back() == '-')
    out.pop_back();
  return out;
}

std::string namespace_yaml_stream(const std::set<std::string>& names) {
  std::string yaml;
  for (const std::string& name : names)
    yaml += "---\n" + namespace_yaml(name);
  return yaml;
}

SharedCluster& shared_cluster(const KubectlClient& client) {
  SharedCluster& shared = shared_clusters()[client.name];
  if (shared.cluster) return shared;
  LocalCluster::Options options;
  options.kube_version = client.kube_version;
  shared.cluster = std::make_unique<LocalCluster>(options);
  shared.kubectl = std::make_unique<Kubectl>(*shared.cluster, client.binary);
  // One namespace per selected test of this client, made in one call (a
  // kubectl run costs far more than the request).
  const auto* unit = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit->total_test_suite_count(); ++i) {
    const auto* suite = unit->GetTestSuite(i);
    for (int j = 0; j < suite->total_test_count(); ++j) {
      const auto* info = suite->GetTestInfo(j);
      const std::string name = info->name();
      if (!info->should_run() || !name.ends_with("/" + client.name)) continue;
      shared.created.insert(namespace_for(*info));
    }
  }
  if (!shared.created.empty()) {
    const CommandResult r = (*shared.kubectl)({"create", "--validate=false", "-f", "-"},
                                              namespace_yaml_stream(shared.created));
    if (r.exit_code != 0) shared.created.clear();  // each test then makes its own
  }
  return shared;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string trim_right(std::string s) {
  while (!s.empty() && s.back() == ' ')
    s.pop_back();
  return s;
}

PrintedTable parse_lines(const std::vector<std::string>& lines) {
  PrintedTable table;
  if (lines.empty()) return table;
  // Columns start after two or more spaces (tabwriter pads with at least three).
  const std::string& head = lines[0];
  std::vector<std::size_t> starts = {0};
  for (std::size_t i = 2; i < head.size(); ++i) {
    if (head[i] != ' ' && head[i - 1] == ' ' && head[i - 2] == ' ') starts.push_back(i);
  }
  auto cells_of = [&](const std::string& line, bool* aligned) {
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < starts.size(); ++c) {
      const std::size_t from = starts[c];
      if (from > 0 && from <= line.size() && line[from - 1] != ' ') *aligned = false;
      if (from >= line.size()) {
        cells.emplace_back();
        continue;
      }
      const std::size_t to = c + 1 < starts.size() ? starts[c + 1] : line.size();
      cells.push_back(trim_right(line.substr(from, to - from)));
    }
    return cells;
  };
  bool aligned = true;
  table.header = cells_of(head, &aligned);
  for (std::size_t i = 1; i < lines.size(); ++i)
    table.rows.push_back(cells_of(lines[i], &aligned));
  table.ok = aligned;
  return table;
}

}  // namespace

std::vector<KubectlClient> kubectl_clients() {
  std::vector<KubectlClient> out;
  std::vector<std::string> versions;
  try {
    versions = bundled_kubectl_versions();
  } catch (const std::exception&) {
    return out;  // no kubectl: the suites stay uninstantiated
  }
  for (const std::string& v : versions) {
    KubectlClient c;
    c.name = v;
    std::replace(c.name.begin(), c.name.end(), '.', '_');
    c.binary = versioned_kubectl(v);
    c.kube_version = "v" + v + ".0";
    c.minor = std::stoi(v.substr(v.find('.') + 1));
    out.push_back(std::move(c));
  }
  // The dispatcher runs its built-in 1.32.4 client for a server reporting 1.32.
  out.push_back({"dispatcher", "kubectl", "v1.32.4", 32});
  return out;
}

void PrintTo(const KubectlClient& client, std::ostream* os) {
  *os << client.binary << " against kcm-local " << client.kube_version;
}

std::string client_test_name(const ::testing::TestParamInfo<KubectlClient>& info) {
  return info.param.name;
}

PrintedTable parse_table(std::string_view text) {
  std::vector<std::string> lines;
  for (std::string& line : split_lines(text)) {
    if (line.empty()) break;
    lines.push_back(std::move(line));
  }
  return parse_lines(lines);
}

std::vector<PrintedTable> parse_tables(std::string_view text) {
  std::vector<PrintedTable> tables;
  std::vector<std::string> block;
  for (std::string& line : split_lines(text)) {
    if (line.empty()) {
      if (!block.empty()) tables.push_back(parse_lines(block));
      block.clear();
    } else {
      block.push_back(std::move(line));
    }
  }
  if (!block.empty()) tables.push_back(parse_lines(block));
  return tables;
}

PrintedTable mask_ages(PrintedTable table) {
  static const std::regex age(R"(^([0-9]+[smhdy])+$)");
  for (auto& row : table.rows) {
    for (auto& cell : row) {
      if (std::regex_match(cell, age)) cell = "<age>";
    }
  }
  return table;
}

std::vector<std::string> row_strings(const PrintedTable& table) {
  std::vector<std::string> out;
  for (const auto& row : table.rows) {
    std::string s;
    for (std::size_t i = 0; i < row.size(); ++i)
      s += (i ? "|" : "") + row[i];
    out.push_back(std::move(s));
  }
  return out;
}

void expect_table(const std::string& out, const std::vector<std::string>& header,
                  const std::vector<std::string>& rows, bool mask) {
  PrintedTable table = parse_table(out);
  if (mask) table = mask_ages(std::move(table));
  EXPECT_TRUE(table.ok) << "misaligned table:\n" << out;
  EXPECT_EQ(table.header, header) << out;
  EXPECT_EQ(row_strings(table), rows) << out;
  EXPECT_EQ(parse_tables(out).size(), 1u) << out;
}

std::vector<std::string> split_cells(std::string_view line) {
  std::vector<std::string> cells;
  std::size_t i = 0;
  while (i < line.size()) {
    std::size_t end = line.find("  ", i);
    if (end == std::string_view::npos) end = line.size();
    cells.emplace_back(line.substr(i, end - i));
    i = end;
    while (i < line.size() && line[i] == ' ')
      ++i;
  }
  return cells;
}

std::string find_row(std::string_view text, const std::vector<std::string>& prefix) {
  for (const std::string& line : split_lines(text)) {
    const std::vector<std::string> cells = split_cells(line);
    if (cells.size() < prefix.size()) continue;
    if (!std::equal(prefix.begin(), prefix.end(), cells.begin())) continue;
    std::string joined;
    for (std::size_t i = 0; i < cells.size(); ++i)
      joined += (i ? "|" : "") + cells[i];
    return joined;
  }
  return "";
}

bool has_line(std::string_view text, const std::string& pattern) {
  const std::regex re(pattern);
  for (const std::string& line : split_lines(text)) {
    if (std::regex_match(line, re)) return true;
  }
  return false;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(s);
  while (std::getline(in, field, sep))
    out.push_back(field);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  for (std::string& line : split_lines(s))
    if (!line.empty()) out.push_back(std::move(line));
  return out;
}

std::string drop_klog_lines(std::string_view text) {
  static const std::regex klog(R"(^[IWEF][0-9]{4} [0-9:.]+ )");
  std::string out;
  for (const std::string& line : split_lines(text)) {
    if (!std::regex_search(line, klog)) out += line + "\n";
  }
  return out;
}

std::string rfc3339_ago(std::chrono::seconds ago) {
  const std::time_t t =
      std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() - ago);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

BackgroundKubectl::BackgroundKubectl(const LocalCluster& cluster, const std::string& binary,
                                     const std::vector<std::string>& args)
    : dir_(std::make_unique<TempDir>("kubectl-bg-")), log_(dir_->path() / "out.log") {
  std::vector<std::string> argv = {binary};
  argv.insert(argv.end(), args.begin(), args.end());
  process_ = Process(argv, log_,
                     {{"KUBECONFIG", cluster.kubeconfig().string()},
                      {"KUBECACHEDIR", (dir_->path() / "cache").string()},
                      {"HOME", dir_->path().string()}});
}

BackgroundKubectl::~BackgroundKubectl() {
  stop();
}

bool BackgroundKubectl::wait_for(const std::string& text, std::chrono::milliseconds timeout) {
  return eventually([&] { return output().find(text) != std::string::npos; }, timeout,
                    std::chrono::milliseconds(50));
}

int BackgroundKubectl::wait_exit(std::chrono::milliseconds timeout) {
  if (exited_) return exit_status_;
  const bool done =
      eventually([&] { return !process_.running(); }, timeout, std::chrono::milliseconds(50));
  if (!done) return -1;
  exit_status_ = process_.stop(SIGTERM);  // reaps the exited process
  exited_ = true;
  return exit_status_;
}

void BackgroundKubectl::stop() {
  if (exited_) return;
  if (process_.pid() > 0) exit_status_ = process_.stop(SIGTERM);
  exited_ = true;
}

LocalCluster& ClientTest::cluster() {
  return *shared_cluster(GetParam()).cluster;
}

void ClientTest::SetUp() {
  SharedCluster& shared = shared_cluster(GetParam());
  const std::string base = namespace_for(*::testing::UnitTest::GetInstance()->current_test_info());
  std::string name = base;
  for (int i = 2; shared.used.contains(name); ++i)
    name = base + "-" + std::to_string(i);
  shared.used.insert(name);
  ns_ = name;
  kubectl_ = std::make_unique<Kubectl>(shared.kubectl->with_args({"-n", ns_}));
  if (!shared.created.contains(ns_)) {
    const CommandResult r =
        (*kubectl_)({"create", "--validate=false", "-f", "-"}, namespace_yaml(ns_));
    ASSERT_EQ(r.exit_code, 0) << "creating the test namespace: " << describe(r);
  }
}

CommandResult ClientTest::run(const std::vector<std::string>& args, const std::string& input,
                              std::chrono::milliseconds timeout) {
  return (*kubectl_)(args, input, timeout);
}

CommandResult ClientTest::ok(const std::vector<std::string>& args, const std::string& input) {
  CommandResult r = run(args, input);
  std::string command = "kubectl";
  for (const auto& a : args)
    command += " " + a;
  EXPECT_EQ(r.exit_code, 0) << command << "\n" << describe(r);
  return r;
}

void ClientTest::create(const std::string& manifest) {
  const CommandResult r = run({"create", "--validate=false", "-f", "-"}, manifest);
  EXPECT_EQ(r.exit_code, 0) << "create -f:\n" << manifest << describe(r);
}

std::string ClientTest::jsonpath(const std::string& object, const std::string& path) {
  std::vector<std::string> args = {"get"};
  std::size_t start = 0;
  // "deploy/web" or "deploy web"
  while (start <= object.size()) {
    const std::size_t end = std::min(object.find(' ', start), object.size());
    args.push_back(object.substr(start, end - start));
    start = end + 1;
  }
  args.push_back("-o");
  args.push_back("jsonpath=" + path);
  return ok(args).out;
}

std::unique_ptr<BackgroundKubectl> ClientTest::background(const std::vector<std::string>& args) {
  std::vector<std::string> full = {"-n", ns_};
  full.insert(full.end(), args.begin(), args.end());
  return std::make_unique<BackgroundKubectl>(cluster(), GetParam().binary, full);
}

std::string namespace_yaml(const std::string& name) {
  return "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n";
}

std::string deployment_yaml(const std::string& name, const std::string& image, int replicas) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         "\n  labels: {app: " + name + "}\nspec:\n  replicas: " + std::to_string(replicas) +
         "\n  selector: {matchLabels: {app: " + name +
         "}}\n  template:\n    metadata: {labels: {app: " + name +
         "}}\n    spec:\n      containers:\n      - name: nginx\n        image: " + image + "\n";
}

std::string pod_yaml(const std::string& name, const std::string& labels,
                     const std::string& extra_spec) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  labels: {" + labels +
         "}\nspec:\n" + extra_spec + "  containers:\n  - name: c\n    image: busybox\n";
}

}  // namespace kcm::e2e
