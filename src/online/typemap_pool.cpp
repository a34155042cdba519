#include "online/typemap_pool.hpp"

#include <functional>
#include <unordered_map>
#include <vector>

namespace simfab::online {

namespace {

void mix(size_t& h, int64_t v) { h ^= std::hash<int64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

size_t layout_hash(const Typemap& t) {
  size_t h = t.blocks.size();
  for (const TypeBlock& b : t.blocks) {
    mix(h, b.offset);
    mix(h, b.count);
    mix(h, b.basic);
  }
  for (int64_t v : {t.size, t.lb, t.ub, t.true_lb, t.true_ub, int64_t{t.align}, int64_t{t.element}, t.element_count})
    mix(h, v);
  return h;
}

bool same_layout(const Typemap& a, const Typemap& b) {
  auto same_block = [](const TypeBlock& x, const TypeBlock& y) {
    return x.offset == y.offset && x.count == y.count && x.basic == y.basic && x.basic_size == y.basic_size;
  };
  auto same_run = [](const ByteRun& x, const ByteRun& y) { return x.offset == y.offset && x.bytes == y.bytes; };
  return a.size == b.size && a.lb == b.lb && a.ub == b.ub && a.true_lb == b.true_lb && a.true_ub == b.true_ub &&
         a.align == b.align && a.explicit_bounds == b.explicit_bounds && a.element == b.element &&
         a.element_count == b.element_count && a.basic_count == b.basic_count &&
         std::equal(a.blocks.begin(), a.blocks.end(), b.blocks.begin(), b.blocks.end(), same_block) &&
         std::equal(a.runs.begin(), a.runs.end(), b.runs.begin(), b.runs.end(), same_run);
}

}  // namespace

std::shared_ptr<const Typemap> intern(Typemap map) {
  static std::unordered_map<size_t, std::vector<std::weak_ptr<const Typemap>>> pool;
  auto& bucket = pool[layout_hash(map)];
  std::erase_if(bucket, [](const std::weak_ptr<const Typemap>& w) { return w.expired(); });
  for (const auto& w : bucket)
    if (auto held = w.lock(); held && same_layout(*held, map)) return held;
  auto made = std::make_shared<const Typemap>(std::move(map));
  bucket.push_back(made);
  return made;
}

}  // namespace simfab::online
