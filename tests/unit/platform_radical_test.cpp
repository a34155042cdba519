// SimGrid-style radicals (platform/radical.hpp): index lists like "0-3,8-11".
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "platform/radical.hpp"

namespace simfab {
namespace {

Radical ok(std::string_view text, int64_t max_count = 1000) {
  auto r = parse_radical(text, max_count);
  if (auto* why = std::get_if<std::string>(&r)) {
    ADD_FAILURE() << text << ": " << *why;
    return {};
  }
  return std::get<Radical>(r);
}

std::string error(std::string_view text, int64_t max_count = 1000) {
  auto r = parse_radical(text, max_count);
  if (auto* why = std::get_if<std::string>(&r)) return *why;
  ADD_FAILURE() << "no error for '" << text << "'";
  return {};
}

TEST(PlatformRadical, RangesAndSingleIndicesKeepWrittenOrder) {
  Radical r = ok("0-3,8-11");
  ASSERT_EQ(r.ranges.size(), 2u);
  EXPECT_EQ(r.ranges[0].first, 0);
  EXPECT_EQ(r.ranges[0].last, 3);
  EXPECT_EQ(r.ranges[1].first, 8);
  EXPECT_EQ(r.ranges[1].last, 11);
  EXPECT_EQ(r.count, 8);

  r = ok(" 12 , 3 - 4,0");
  ASSERT_EQ(r.ranges.size(), 3u);
  EXPECT_EQ(r.ranges[0].first, 12);
  EXPECT_EQ(r.ranges[0].last, 12);
  EXPECT_EQ(r.ranges[1].first, 3);
  EXPECT_EQ(r.ranges[1].last, 4);
  EXPECT_EQ(r.ranges[2].first, 0);
  EXPECT_EQ(r.count, 4);

  EXPECT_EQ(ok("7").count, 1);
  EXPECT_EQ(ok("0-15").count, 16);
  EXPECT_EQ(ok("2147483647").ranges[0].first, kMaxRadicalIndex);
}

TEST(PlatformRadical, Errors) {
  EXPECT_NE(error("").find("empty radical"), std::string::npos);
  EXPECT_NE(error("0-3,").find("empty item"), std::string::npos);
  EXPECT_NE(error("1,,2").find("empty item"), std::string::npos);
  EXPECT_NE(error("a").find("bad radical item 'a'"), std::string::npos);
  EXPECT_NE(error("1-").find("bad radical item '1-'"), std::string::npos);
  EXPECT_NE(error("-1").find("bad radical item '-1'"), std::string::npos);
  EXPECT_NE(error("+1").find("bad radical item '+1'"), std::string::npos);
  EXPECT_NE(error("1-2-3").find("bad radical item '1-2-3'"), std::string::npos);
  EXPECT_NE(error("2147483648").find("bad radical item"), std::string::npos);
  EXPECT_NE(error("5-3").find("radical range '5-3' is reversed"), std::string::npos);
  EXPECT_NE(error("0-3,3").find("index 3 appears twice"), std::string::npos);
  EXPECT_NE(error("10-20,0-10").find("index 10 appears twice"), std::string::npos);
  EXPECT_NE(error("0-1000").find("more than 1000 hosts"), std::string::npos);
  EXPECT_NE(error("0-2147483647", 16777216).find("more than 16777216 hosts"), std::string::npos);
}

}  // namespace
}  // namespace simfab
