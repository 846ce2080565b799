// A family of one metric kind partitioned by label values (client_golang's
// *Vec). Children are created on first use and live as long as anyone holds
// them; lookups of existing children take only a shared lock.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/result.h"
#include "metrics/collector.h"
#include "metrics/desc.h"

namespace kcm::metrics {

template <class Child>
class MetricVec : public Collector {
 public:
  std::string_view name() const override { return desc_.name; }
  const Desc& desc() const { return desc_; }

  // The child for these label values (in label-name declaration order),
  // created if new. Errors for a wrong count or invalid UTF-8.
  Result<std::shared_ptr<Child>> with_label_values(const std::vector<std::string>& values) {
    {
      std::shared_lock lock(mu_);
      if (const auto it = children_.find(values); it != children_.end()) return it->second;
    }
    if (auto ok = check_label_values(desc_, values); !ok) return fail(ok.error());
    std::unique_lock lock(mu_);
    auto& slot = children_[values];
    if (!slot) slot = make_();
    return slot;
  }

  // Drops the child for these label values; false if there was none.
  bool remove(const std::vector<std::string>& values) {
    std::unique_lock lock(mu_);
    return children_.erase(values) > 0;
  }

  // Drops every child (client_golang's Reset).
  void reset() {
    std::unique_lock lock(mu_);
    children_.clear();
  }

 protected:
  MetricVec(Desc desc, std::function<std::shared_ptr<Child>()> make)
      : desc_(std::move(desc)), make_(std::move(make)) {}

  // Calls fill(snapshot, child) per child; labels come sorted by name and the
  // metrics sorted by those label values, as client_golang's Gather orders them.
  template <class Fill>
  std::vector<MetricSnapshot> snapshot_children(Fill fill) const {
    std::vector<std::pair<std::vector<std::string>, std::shared_ptr<Child>>> children;
    {
      std::shared_lock lock(mu_);
      children.assign(children_.begin(), children_.end());
    }
    std::vector<std::size_t> order(desc_.label_names.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return desc_.label_names[a] < desc_.label_names[b];
    });
    std::vector<MetricSnapshot> out;
    out.reserve(children.size());
    for (const auto& [values, child] : children) {
      MetricSnapshot m;
      for (const std::size_t i : order)
        m.labels.push_back({desc_.label_names[i], values[i]});
      fill(m, *child);
      out.push_back(std::move(m));
    }
    std::sort(out.begin(), out.end(), [](const MetricSnapshot& a, const MetricSnapshot& b) {
      return std::lexicographical_compare(
          a.labels.begin(), a.labels.end(), b.labels.begin(), b.labels.end(),
          [](const LabelPair& x, const LabelPair& y) { return x.value < y.value; });
    });
    return out;
  }

  const Desc desc_;

 private:
  const std::function<std::shared_ptr<Child>()> make_;
  mutable std::shared_mutex mu_;
  std::map<std::vector<std::string>, std::shared_ptr<Child>> children_;
};

}  // namespace kcm::metrics
