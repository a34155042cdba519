#include "report/size_histogram.hpp"

namespace simfab {

int SizeHistogram::bucket_of(uint64_t bytes) {
  int k = 0;
  while (k < kBoundedBuckets && bytes > upper_bytes(k)) ++k;
  return k;
}

void SizeHistogram::add(uint64_t bytes, bool collective) {
  Count& c = counts_[static_cast<size_t>(bucket_of(bytes))][collective ? 1 : 0];
  ++c.messages;
  c.bytes += bytes;
}

std::vector<SizeBucket> SizeHistogram::buckets() const {
  std::vector<SizeBucket> out(kBuckets);
  for (int k = 0; k < kBuckets; ++k) {
    SizeBucket& b = out[static_cast<size_t>(k)];
    if (k < kBoundedBuckets) b.upper_bytes = upper_bytes(k);
    const auto& c = counts_[static_cast<size_t>(k)];
    b.p2p_messages = c[0].messages;
    b.p2p_bytes = c[0].bytes;
    b.collective_messages = c[1].messages;
    b.collective_bytes = c[1].bytes;
  }
  return out;
}

MessageTotals SizeHistogram::totals() const {
  MessageTotals t;
  for (const SizeBucket& b : buckets()) {
    t.p2p_count += b.p2p_messages;
    t.p2p_bytes += b.p2p_bytes;
    t.collective_count += b.collective_messages;
    t.collective_bytes += b.collective_bytes;
  }
  t.count = t.p2p_count + t.collective_count;
  t.bytes = t.p2p_bytes + t.collective_bytes;
  return t;
}

}  // namespace simfab
