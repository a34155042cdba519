#include "online/typemap.hpp"

#include <algorithm>
#include <cstring>

namespace simfab::online {

namespace {

void append_block(std::vector<TypeBlock>& blocks, const TypeBlock& b) {
  if (b.count == 0) return;
  if (!blocks.empty()) {
    TypeBlock& last = blocks.back();
    if (last.basic == b.basic && last.offset + last.count * last.basic_size == b.offset) {
      last.count += b.count;
      return;
    }
  }
  blocks.push_back(b);
}

void derive_runs(Typemap& t) {
  t.runs.clear();
  for (const TypeBlock& b : t.blocks) {
    const int64_t bytes = b.count * b.basic_size;
    if (!t.runs.empty() && t.runs.back().offset + t.runs.back().bytes == b.offset) {
      t.runs.back().bytes += bytes;
    } else {
      t.runs.push_back({b.offset, bytes});
    }
  }
}

// A part whose replicas tile memory without gaps: copies of it are one longer block.
bool is_dense(const Typemap& t) {
  return t.blocks.size() == 1 && t.blocks[0].count * t.blocks[0].basic_size == t.extent();
}

// Calls f(memory offset from buf, bytes) for each contiguous run of `count` instances, in packed
// order.
template <class F>
void for_each_run(const Typemap& t, int64_t count, F&& f) {
  const int64_t extent = t.extent();
  if (t.runs.size() == 1 && t.runs[0].bytes == extent) {
    if (count > 0) f(t.runs[0].offset, count * extent);
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    for (const ByteRun& r : t.runs) f(i * extent + r.offset, r.bytes);
  }
}

}  // namespace

Typemap typemap_predefined(const BasicType& b) {
  Typemap t;
  if (b.type_class == TypeClass::kPair) {
    const BasicType& value = *basic_type(b.pair_value);
    const BasicType& index = *basic_type(b.pair_index);
    append_block(t.blocks, {0, 1, value.handle, value.size});
    append_block(t.blocks, {b.pair_index_offset, 1, index.handle, index.size});
    t.basic_count = 2;
  } else {
    t.blocks.push_back({0, 1, b.handle, b.size});
    t.basic_count = 1;
  }
  derive_runs(t);
  t.size = b.size;
  t.ub = b.extent;
  t.true_ub = t.blocks.back().offset + t.blocks.back().count * t.blocks.back().basic_size;
  t.align = b.align;
  t.element = b.handle;
  t.element_count = 1;
  return t;
}

Typemap typemap_combine(std::span<const TypePiece> pieces, bool pad) {
  Typemap out;
  bool any_bounds = false;
  bool any_data = false;
  for (const TypePiece& p : pieces) {
    const Typemap& t = *p.type;
    out.align = std::max(out.align, t.align);
    if (p.copies == 0) continue;
    const int64_t extent = t.extent();
    const int64_t last = p.disp + (p.copies - 1) * extent;
    const int64_t lo = std::min(p.disp, last);
    const int64_t hi = std::max(p.disp, last);
    out.lb = any_bounds ? std::min(out.lb, lo + t.lb) : lo + t.lb;
    out.ub = any_bounds ? std::max(out.ub, hi + t.ub) : hi + t.ub;
    any_bounds = true;
    out.explicit_bounds = out.explicit_bounds || t.explicit_bounds;
    if (t.size == 0) continue;
    out.true_lb = any_data ? std::min(out.true_lb, lo + t.true_lb) : lo + t.true_lb;
    out.true_ub = any_data ? std::max(out.true_ub, hi + t.true_ub) : hi + t.true_ub;
    out.element = !any_data || out.element == t.element ? t.element : kMixedElements;
    any_data = true;
    out.size += p.copies * t.size;
    out.element_count += p.copies * t.element_count;
    out.basic_count += p.copies * t.basic_count;
    if (is_dense(t)) {
      const TypeBlock& b = t.blocks[0];
      append_block(out.blocks, {p.disp + b.offset, p.copies * b.count, b.basic, b.basic_size});
      continue;
    }
    for (int64_t j = 0; j < p.copies; ++j) {
      for (const TypeBlock& b : t.blocks) {
        append_block(out.blocks, {p.disp + j * extent + b.offset, b.count, b.basic, b.basic_size});
      }
    }
  }
  if (pad && !out.explicit_bounds && out.extent() > 0 && out.extent() % out.align != 0) {
    out.ub += out.align - out.extent() % out.align;
  }
  derive_runs(out);
  return out;
}

Typemap typemap_resized(const Typemap& old, int64_t lb, int64_t extent) {
  Typemap t = old;
  t.lb = lb;
  t.ub = lb + extent;
  t.explicit_bounds = true;
  return t;
}

void typemap_pack(const Typemap& t, const std::byte* buf, int64_t count, std::byte* out) {
  for_each_run(t, count, [&](int64_t at, int64_t bytes) {
    std::memcpy(out, buf + at, static_cast<size_t>(bytes));
    out += bytes;
  });
}

void typemap_unpack(const Typemap& t, const std::byte* in, int64_t count, std::byte* buf) {
  for_each_run(t, count, [&](int64_t at, int64_t bytes) {
    std::memcpy(buf + at, in, static_cast<size_t>(bytes));
    in += bytes;
  });
}

int64_t typemap_elements(const Typemap& t, int64_t bytes) {
  if (t.size == 0) return 0;
  int64_t elements = bytes / t.size * t.basic_count;
  int64_t rest = bytes % t.size;
  for (const TypeBlock& b : t.blocks) {
    if (rest == 0) break;
    const int64_t n = std::min(b.count, rest / b.basic_size);
    elements += n;
    rest -= n * b.basic_size;
    if (n < b.count) break;
  }
  return rest == 0 ? elements : -1;
}

int64_t typemap_bytes_of_elements(const Typemap& t, int64_t elements) {
  if (t.basic_count == 0) return 0;
  int64_t bytes = elements / t.basic_count * t.size;
  int64_t rest = elements % t.basic_count;
  for (const TypeBlock& b : t.blocks) {
    if (rest == 0) break;
    const int64_t n = std::min(b.count, rest);
    bytes += n * b.basic_size;
    rest -= n;
  }
  return bytes;
}

}  // namespace simfab::online
