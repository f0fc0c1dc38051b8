// A few tables kept for the session: maps of the same kernel (a Monte Carlo
// study draws thousands) reuse the inverse CDFs their laws tabulated instead
// of building them again. Bounded, so memory stays bounded; thread-safe.
#pragma once
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace askrff {

template <class Key, class Table>
class TableCache {
 public:
  explicit TableCache(std::size_t capacity) : capacity_(capacity) {}
  std::shared_ptr<const Table> get(const Key& key, const std::function<std::shared_ptr<const Table>()>& build) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = tables_.find(key);
    if (found != tables_.end()) return found->second;
    std::shared_ptr<const Table> table = build();
    if (tables_.size() >= capacity_) tables_.clear();
    tables_.emplace(key, table);
    return table;
  }

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::map<Key, std::shared_ptr<const Table>> tables_;
};

}  // namespace askrff
