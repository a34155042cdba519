#include "report/time_format.hpp"

namespace simfab {

std::string decimal_text(int64_t value, int decimals, bool trim) {
  // Digits of |value| without overflow for INT64_MIN: work in unsigned.
  uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  char digits[24];  // least significant first; at most 20 digits, padded to decimals + 1
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  while (n < decimals + 1) digits[n++] = '0';

  int first_kept = 0;  // lowest fractional digit written
  if (trim)
    while (first_kept < decimals && digits[first_kept] == '0') ++first_kept;

  std::string out;
  out.reserve(static_cast<size_t>(n) + 2);
  if (value < 0) out.push_back('-');
  for (int i = n - 1; i >= decimals; --i) out.push_back(digits[i]);
  if (first_kept < decimals) {
    out.push_back('.');
    for (int i = decimals - 1; i >= first_kept; --i) out.push_back(digits[i]);
  }
  return out;
}

}  // namespace simfab
