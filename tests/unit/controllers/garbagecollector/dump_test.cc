// The graph dump (upstream dump_test.go: TestToDOTGraph, TestToDOTGraphObj,
// TestMarshalDOT's golden files).
#include "controllers/garbagecollector/dump.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kcm::controllers::garbagecollector {
namespace {

// A node with bare uids: no kind, version or name (as upstream's fixtures).
Node bare(const std::string& uid, std::vector<std::string> owners,
          std::set<std::string> dependents) {
  Node n;
  n.identity.uid = uid;
  for (const std::string& o : owners)
    n.owners.push_back(make_owner_reference("", "", "", o));
  n.dependents = std::move(dependents);
  return n;
}

// alpha is owned by bravo and charlie; delta by foxtrot, foxtrot by golf;
// echo neither owns nor is owned.
Graph fixture_graph() {
  Graph g;
  g.put(bare("alpha", {"bravo", "charlie"}, {}));
  g.put(bare("bravo", {}, {"alpha"}));
  g.put(bare("charlie", {}, {"alpha"}));
  g.put(bare("delta", {"foxtrot"}, {}));
  g.put(bare("echo", {}, {}));
  g.put(bare("foxtrot", {"golf"}, {"delta"}));
  g.put(bare("golf", {}, {"foxtrot"}));
  return g;
}

std::vector<std::string> uids_of(const DotGraph& g) {
  std::vector<std::string> out;
  for (const DotVertex& v : g.vertices)
    out.push_back(v.uid);
  return out;
}

TEST(DumpTest, WholeGraphWritesMissingOwners) {
  Graph g;
  g.put(bare("alpha", {"bravo", "charlie"}, {}));
  g.put(bare("charlie", {}, {"alpha"}));
  const DotGraph d = dot_graph(g);
  EXPECT_EQ(uids_of(d), (std::vector<std::string>{"alpha", "bravo", "charlie"}));
  EXPECT_EQ(d.edges, (std::vector<DotEdge>{{"alpha", "bravo"}, {"alpha", "charlie"}}));
  EXPECT_TRUE(d.vertices[1].missing_from_graph);
  EXPECT_FALSE(d.vertices[0].missing_from_graph);
  EXPECT_FALSE(d.vertices[2].missing_from_graph);
}

TEST(DumpTest, MissingOwnerSharedByTwoDependentsIsWrittenOnce) {
  // Upstream writes it twice (filed under the dependent's uid); once here.
  Graph g;
  g.put(bare("a", {"gone"}, {}));
  g.put(bare("b", {"gone"}, {}));
  const DotGraph d = dot_graph(g);
  EXPECT_EQ(uids_of(d), (std::vector<std::string>{"a", "b", "gone"}));
  EXPECT_EQ(d.edges, (std::vector<DotEdge>{{"a", "gone"}, {"b", "gone"}}));
}

TEST(DumpTest, SubgraphFollowsOwnersAndDependentsBothWays) {
  const Graph g = fixture_graph();
  struct Case {
    std::string name;
    std::vector<std::string> uids;
    std::vector<std::string> want_vertices;
    std::vector<DotEdge> want_edges;
  };
  const std::vector<Case> cases = {
      {"from the top",
       {"golf"},
       {"delta", "foxtrot", "golf"},
       {{"delta", "foxtrot"}, {"foxtrot", "golf"}}},
      {"from the bottom",
       {"delta"},
       {"delta", "foxtrot", "golf"},
       {{"delta", "foxtrot"}, {"foxtrot", "golf"}}},
      {"two components",
       {"delta", "charlie"},
       {"alpha", "bravo", "charlie", "delta", "foxtrot", "golf"},
       {{"alpha", "bravo"}, {"alpha", "charlie"}, {"delta", "foxtrot"}, {"foxtrot", "golf"}}},
      {"no references", {"echo"}, {}, {}},
      {"not in the graph", {"zulu"}, {}, {}},
      {"empty uid", {""}, {}, {}},
  };
  for (const Case& c : cases) {
    const DotGraph d = dot_graph_for(g, c.uids);
    EXPECT_EQ(uids_of(d), c.want_vertices) << c.name;
    EXPECT_EQ(d.edges, c.want_edges) << c.name;
  }
  // The whole graph leaves out echo alone.
  EXPECT_EQ(uids_of(dot_graph(g)),
            (std::vector<std::string>{"alpha", "bravo", "charlie", "delta", "foxtrot", "golf"}));
}

TEST(DumpTest, MarshalsAnEmptyGraph) {
  EXPECT_EQ(marshal_dot(DotGraph{}), "strict digraph full {\n}\n");
  EXPECT_EQ(marshal_dot(dot_graph(Graph{})), "strict digraph full {\n}\n");
}

// A bare vertex as upstream's simple.dot writes it.
std::string bare_vertex_text(const std::string& uid) {
  return "  \"" + uid + "\" [\n    label=\"uid=" + uid +
         "\\nnamespace=\\n./\\n\"\n    group=\"\"\n    version=\"\"\n    kind=\"\"\n"
         "    namespace=\"\"\n    name=\"\"\n    uid=\"" +
         uid +
         "\"\n    missing=\"false\"\n    beingDeleted=\"false\"\n"
         "    deletingDependents=\"false\"\n    virtual=\"false\"\n  ];\n";
}

TEST(DumpTest, MarshalsLikeUpstreamsSimpleGolden) {
  DotGraph d;
  for (const char* uid : {"alpha", "bravo", "charlie", "delta", "foxtrot", "golf"})
    d.vertices.push_back(DotVertex{.uid = uid});
  d.edges = {{"alpha", "bravo"}, {"alpha", "charlie"}, {"delta", "foxtrot"}, {"foxtrot", "golf"}};
  std::string want = "strict digraph full {\n  // Node definitions.\n";
  for (const char* uid : {"alpha", "bravo", "charlie", "delta", "foxtrot", "golf"})
    want += bare_vertex_text(uid);
  want +=
      "  // Edge definitions.\n"
      "  \"alpha\" -> \"bravo\";\n"
      "  \"alpha\" -> \"charlie\";\n"
      "  \"delta\" -> \"foxtrot\";\n"
      "  \"foxtrot\" -> \"golf\";\n"
      "}\n";
  EXPECT_EQ(marshal_dot(d), want);
}

TEST(DumpTest, QuotesAsGoAndNamesKindVersionGroup) {
  // upstream escaping.dot's first vertex.
  const std::string i18n = "Iñtërnâtiônàlizætiøn,🐹";
  Node n;
  n.identity = {"ref1group/version", "ref1kind-" + i18n, "ref1name-" + i18n, "ref1-[]\"\\" + i18n,
                "ref1ns"};
  n.owners = {make_owner_reference("ref2group/version", "ref2kind-", "ref2name-", "ref2-")};
  Graph g;
  g.put(n);
  const std::string text = marshal_dot(dot_graph(g));
  const std::string quoted_uid = "\"ref1-[]\\\"\\\\" + i18n + "\"";
  EXPECT_NE(text.find("  " + quoted_uid + " [\n    label=\"uid=ref1-[]\\\"\\\\" + i18n +
                      "\\nnamespace=ref1ns\\nref1kind-" + i18n + ".version.ref1group/ref1name-" +
                      i18n + "\\n\"\n    group=\"ref1group\"\n    version=\"version\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  " + quoted_uid + " -> \"ref2-\";\n"), std::string::npos) << text;
  // The owner the graph does not hold: no namespace, marked missing.
  EXPECT_NE(text.find("  \"ref2-\" [\n    label=\"uid=ref2-\\nnamespace=\\nref2kind-.version."
                      "ref2group/ref2name-\\nmissingFromGraph\\n\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    missing=\"true\"\n"), std::string::npos);
}

TEST(DumpTest, LabelsListConditionsAndCoreGroupHasNoSuffix) {
  Node pod;
  pod.identity = {"v1", "Pod", "web-1", "p1", "prod"};
  pod.owners = {make_owner_reference("apps/v1", "ReplicaSet", "web", "rs1")};
  pod.being_deleted = true;
  pod.deleting_dependents = true;
  Node rs;
  rs.identity = {"apps/v1", "ReplicaSet", "web", "rs1", "prod"};
  rs.dependents = {"p1"};
  rs.virtual_ = true;
  Node bad;  // more than one slash: ParseGroupVersion fails, group and version empty
  bad.identity = {"a/b/c", "Thing", "t", "t1", ""};
  bad.owners = {make_owner_reference("apps/v1", "ReplicaSet", "web", "rs1")};
  Graph g;
  g.put(pod);
  g.put(rs);
  g.put(bad);
  const std::string text = marshal_dot(dot_graph(g));
  EXPECT_NE(text.find("label=\"uid=p1\\nnamespace=prod\\nPod.v1/web-1\\n"
                      "beingDeleted,deletingDependents\\n\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("label=\"uid=rs1\\nnamespace=prod\\nReplicaSet.v1.apps/web\\nvirtual\\n\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("label=\"uid=t1\\nnamespace=\\nThing./t\\n\"\n    group=\"\"\n"
                      "    version=\"\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    beingDeleted=\"true\"\n    deletingDependents=\"true\"\n"
                      "    virtual=\"false\"\n"),
            std::string::npos);
}

}  // namespace
}  // namespace kcm::controllers::garbagecollector
