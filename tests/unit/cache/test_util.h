// Helpers shared by the cache tests.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "cache/cached_object.h"
#include "eventually.h"
#include "fake_api_server.h"

namespace kcm::cache::testing {

using test_support::eventually;

inline ObjectPtr cached(const std::string& ns, const std::string& name, const std::string& rv = "1",
                        const std::map<std::string, std::string>& labels = {}) {
  json::value v = make_object(ns, name, labels);
  v.as_object()["metadata"].as_object()["resourceVersion"] = rv;
  return CachedObject::from_json(v).value();
}

// The keys of `objs`, sorted.
inline std::vector<std::string> sorted_keys(const std::vector<ObjectPtr>& objs) {
  std::vector<std::string> out;
  for (const auto& o : objs)
    out.emplace_back(o->key());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kcm::cache::testing
