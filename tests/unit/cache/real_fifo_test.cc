// Scenarios of upstream's the_real_fifo_test.go.
#include "cache/real_fifo.h"

#include <gtest/gtest.h>

#include <thread>

#include "test_util.h"

namespace kcm::cache {
namespace {

using testing::cached;

struct Popped {
  DeltaType type;
  std::string key;
  std::string rv;  // "" for a tombstone without object
  bool tombstone;
  bool initial;
  bool operator==(const Popped&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Popped& p) {
  return os << to_string(p.type) << " " << p.key << " rv=" << p.rv << (p.tombstone ? " tomb" : "")
            << (p.initial ? " initial" : "");
}

Popped pop(RealFifo& f) {
  Popped out{};
  EXPECT_TRUE(f.pop([&](const Delta& d, bool initial) {
    const ObjectPtr& obj = object_of(d.object);
    out = {d.type, std::string(key_of(d.object)), obj ? std::string(obj->resource_version()) : "",
           std::holds_alternative<DeletedFinalStateUnknown>(d.object), initial};
  }));
  return out;
}

TEST(RealFifoTest, EveryEventIsItsOwnEntryInOrder) {
  Indexer known;
  RealFifo f(known);
  f.add(cached("ns", "a", "1"));
  f.update(cached("ns", "a", "2"));
  f.add(cached("ns", "b", "3"));
  f.remove(cached("ns", "a", "4"));
  EXPECT_EQ(f.size(), 4u);
  // Add came first: synced at once, nothing is "initial".
  EXPECT_TRUE(f.has_synced());
  EXPECT_EQ(pop(f), (Popped{DeltaType::kAdded, "ns/a", "1", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kUpdated, "ns/a", "2", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kAdded, "ns/b", "3", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kDeleted, "ns/a", "4", false, false}));
  EXPECT_EQ(f.size(), 0u);
}

TEST(RealFifoTest, ReplaceDeletesKnownObjectsMissingFromTheList) {
  Indexer known;
  known.add(cached("ns", "gone", "5"));
  known.add(cached("ns", "kept", "6"));
  RealFifo f(known);
  f.replace({cached("ns", "kept", "7"), cached("ns", "new", "8")}, "9");
  EXPECT_FALSE(f.has_synced());
  // The synthetic delete (with the last known state) comes before the listed objects.
  EXPECT_EQ(pop(f), (Popped{DeltaType::kDeleted, "ns/gone", "5", true, true}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kReplaced, "ns/kept", "7", false, true}));
  EXPECT_FALSE(f.has_synced());
  EXPECT_EQ(pop(f), (Popped{DeltaType::kReplaced, "ns/new", "8", false, true}));
  EXPECT_TRUE(f.has_synced());
}

TEST(RealFifoTest, ReplaceDeletesQueuedObjectsMissingFromTheList) {
  Indexer known;
  RealFifo f(known);
  f.add(cached("ns", "a", "1"));
  f.update(cached("ns", "a", "2"));
  f.add(cached("ns", "b", "3"));
  f.remove(cached("ns", "b", "4"));  // already deleted: no second delete
  f.add(cached("ns", "c", "5"));
  f.replace({cached("ns", "c", "6")}, "7");
  EXPECT_EQ(pop(f), (Popped{DeltaType::kAdded, "ns/a", "1", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kUpdated, "ns/a", "2", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kAdded, "ns/b", "3", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kDeleted, "ns/b", "4", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kAdded, "ns/c", "5", false, false}));
  // The tombstone carries the newest queued state of ns/a.
  EXPECT_EQ(pop(f), (Popped{DeltaType::kDeleted, "ns/a", "2", true, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kReplaced, "ns/c", "6", false, false}));
  EXPECT_EQ(f.size(), 0u);
}

TEST(RealFifoTest, KnownKeyAlreadyQueuedGetsOneDelete) {
  Indexer known;
  known.add(cached("ns", "a", "1"));
  RealFifo f(known);
  f.update(cached("ns", "a", "2"));
  f.replace({}, "3");
  EXPECT_EQ(pop(f), (Popped{DeltaType::kUpdated, "ns/a", "2", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kDeleted, "ns/a", "2", true, false}));
  EXPECT_EQ(f.size(), 0u);
}

TEST(RealFifoTest, EmptyInitialReplaceIsSynced) {
  Indexer known;
  RealFifo f(known);
  EXPECT_FALSE(f.has_synced());
  f.replace({}, "1");
  EXPECT_TRUE(f.has_synced());
}

TEST(RealFifoTest, OnlyTheFirstReplaceCountsAsInitial) {
  Indexer known;
  RealFifo f(known);
  f.replace({cached("ns", "a", "1")}, "1");
  f.replace({cached("ns", "a", "2")}, "2");
  EXPECT_EQ(pop(f), (Popped{DeltaType::kReplaced, "ns/a", "1", false, true}));
  EXPECT_TRUE(f.has_synced());
  EXPECT_EQ(pop(f), (Popped{DeltaType::kReplaced, "ns/a", "2", false, false}));
}

TEST(RealFifoTest, ResyncSkipsKeysWithQueuedEntries) {
  Indexer known;
  known.add(cached("ns", "a", "1"));
  known.add(cached("ns", "b", "2"));
  RealFifo f(known);
  f.update(cached("ns", "a", "3"));
  f.resync();
  EXPECT_EQ(pop(f), (Popped{DeltaType::kUpdated, "ns/a", "3", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kSync, "ns/b", "2", false, false}));
  EXPECT_EQ(f.size(), 0u);
}

TEST(RealFifoTest, CloseWakesPopAfterDraining) {
  Indexer known;
  RealFifo f(known);
  std::thread waiter(
      [&] { EXPECT_FALSE(f.pop([](const Delta&, bool) { ADD_FAILURE() << "nothing to pop"; })); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  f.close();
  waiter.join();
  EXPECT_TRUE(f.is_closed());

  RealFifo g(known);
  g.add(cached("ns", "a", "1"));
  g.close();
  EXPECT_EQ(pop(g).key, "ns/a");
  EXPECT_FALSE(g.pop([](const Delta&, bool) {}));
}

TEST(RealFifoTest, PopBlocksUntilAnAdd) {
  Indexer known;
  RealFifo f(known);
  std::string got;
  std::thread popper(
      [&] { f.pop([&](const Delta& d, bool) { got = std::string(key_of(d.object)); }); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  f.add(cached("ns", "late", "1"));
  popper.join();
  EXPECT_EQ(got, "ns/late");
}

TEST(RealFifoTest, DirectProcessingOnlyWhenNothingIsQueued) {
  Indexer known;
  RealFifo f(known);
  std::vector<Popped> direct;
  std::vector<std::thread::id> threads;
  f.process_directly_when_empty([&](const Delta& d, bool initial) {
    direct.push_back({d.type, std::string(key_of(d.object)),
                      std::string(object_of(d.object)->resource_version()), false, initial});
    threads.push_back(std::this_thread::get_id());
  });

  // The initial list is queued for pop(); a watch event behind it waits its turn.
  f.replace({cached("ns", "a", "1"), cached("ns", "b", "2")}, "2");
  f.update(cached("ns", "a", "3"));
  EXPECT_TRUE(direct.empty());
  EXPECT_EQ(f.size(), 3u);
  EXPECT_EQ(pop(f), (Popped{DeltaType::kReplaced, "ns/a", "1", false, true}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kReplaced, "ns/b", "2", false, true}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kUpdated, "ns/a", "3", false, false}));

  // Drained: the next events are processed by the thread that brings them.
  f.add(cached("ns", "c", "4"));
  f.remove(cached("ns", "b", "5"));
  EXPECT_EQ(f.size(), 0u);
  EXPECT_EQ(direct, (std::vector<Popped>{{DeltaType::kAdded, "ns/c", "4", false, false},
                                         {DeltaType::kDeleted, "ns/b", "5", false, false}}));
  EXPECT_EQ(threads, (std::vector<std::thread::id>(2, std::this_thread::get_id())));

  // A resync queues, and so does what comes behind it.
  known.add(cached("ns", "a", "3"));
  f.resync();
  f.update(cached("ns", "a", "6"));
  EXPECT_EQ(direct.size(), 2u);
  EXPECT_EQ(pop(f), (Popped{DeltaType::kSync, "ns/a", "3", false, false}));
  EXPECT_EQ(pop(f), (Popped{DeltaType::kUpdated, "ns/a", "6", false, false}));

  // Closed: queued for the last pops, never processed directly.
  f.close();
  f.add(cached("ns", "d", "7"));
  EXPECT_EQ(direct.size(), 2u);
  EXPECT_EQ(pop(f).key, "ns/d");
}

TEST(RealFifoTest, DirectProcessingBeforeAnyListIsNotInitial) {
  Indexer known;
  RealFifo f(known);
  std::vector<bool> initial;
  f.process_directly_when_empty([&](const Delta&, bool i) { initial.push_back(i); });
  f.add(cached("ns", "a", "1"));
  EXPECT_EQ(initial, std::vector<bool>{false});
  EXPECT_TRUE(f.has_synced());  // an add came first, as without direct processing
}

TEST(RealFifoTest, DeltaTypeNames) {
  EXPECT_EQ(to_string(DeltaType::kAdded), "Added");
  EXPECT_EQ(to_string(DeltaType::kUpdated), "Updated");
  EXPECT_EQ(to_string(DeltaType::kDeleted), "Deleted");
  EXPECT_EQ(to_string(DeltaType::kReplaced), "Replaced");
  EXPECT_EQ(to_string(DeltaType::kSync), "Sync");
}

}  // namespace
}  // namespace kcm::cache
