// Platform variables (platform/platform_vars.hpp): ${NAME} and ${NAME:-DEFAULT} replaced before
// parsing, comments left alone, and every mistake an InputError at the reference's file:line:col.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "platform/platform_vars.hpp"

namespace simfab {
namespace {

std::string yaml(const std::string& text, const PlatformVars& vars) {
  return substitute_platform_vars(text, "p.yaml", vars, PlatformSyntax::kYaml);
}

// The InputError's "file:line:col: message" for a substitution expected to fail.
std::string error_of(const std::string& text, const PlatformVars& vars, PlatformSyntax syntax = PlatformSyntax::kYaml) {
  try {
    substitute_platform_vars(text, "p.yaml", vars, syntax);
  } catch (const InputError& e) {
    return e.loc().file + ":" + std::to_string(e.loc().line) + ":" + std::to_string(e.loc().column) + ": " +
           e.message();
  }
  return "no error";
}

TEST(PlatformVars, ReplacesReferencesAndDefaults) {
  EXPECT_EQ(yaml("bandwidth: ${bw}\nlatency: ${lat:-1us}\n", {{"bw", "25Gbps"}}),
            "bandwidth: 25Gbps\nlatency: 1us\n");
  EXPECT_EQ(yaml("latency: ${lat:-1us}\n", {{"lat", "3us"}}), "latency: 3us\n");
  EXPECT_EQ(yaml("x: ${a}${a}-${b:-}\n", {{"a", "1"}}), "x: 11-\n");  // twice, and an empty default
  EXPECT_EQ(yaml("cost: $5 and $${literal}\n", {}), "cost: $5 and ${literal}\n");
  EXPECT_EQ(yaml("v: ${a}\n", {{"a", "${b}"}}), "v: ${b}\n");  // a value is not scanned again
  const std::string plain = "hosts: []\n";
  EXPECT_EQ(yaml(plain, {}), plain);
}

TEST(PlatformVars, CommentsAreLeftAlone) {
  EXPECT_EQ(yaml("# ${NAME} is replaced\ncount: ${n}  # ${n} nodes\nid: a#${n}\n", {{"n", "4"}}),
            "# ${NAME} is replaced\ncount: 4  # ${n} nodes\nid: a#4\n");
  EXPECT_EQ(substitute_platform_vars("<!-- ${bw} --><link bandwidth=\"${bw}\"/>", "p.xml", {{"bw", "1GBps"}},
                                     PlatformSyntax::kXml),
            "<!-- ${bw} --><link bandwidth=\"1GBps\"/>");
}

TEST(PlatformVars, MistakesNameTheReference) {
  EXPECT_EQ(error_of("a: 1\nbandwidth: ${bw}\n", {}),
            "p.yaml:2:12: platform variable 'bw' has no value: give --platform-var bw=VALUE (a sweep: a $bw "
            "setting), or write ${bw:-DEFAULT}");
  EXPECT_EQ(error_of("x: ${bw\ny: }\n", {}),
            "p.yaml:1:4: '${' is not closed by '}' on its line: a platform variable is ${NAME} or ${NAME:-DEFAULT}");
  EXPECT_EQ(error_of("x: ${9lives}\n", {}),
            "p.yaml:1:4: '9lives' is not a platform variable name (letters, digits and '_', not a digit first)");
  EXPECT_EQ(error_of("x: ${bw}\n", {{"bw", "1"}, {"bww", "2"}}),
            "--platform-var:0:0: platform variable 'bww' is not used by p.yaml (it names: bw)");
  EXPECT_EQ(error_of("x: ${bw}\n", {{"bw", "1"}, {"bw", "2"}}),
            "--platform-var:0:0: platform variable 'bw' is given twice");
  EXPECT_EQ(error_of("x: ${bw}\n", {{"bw", "1\n2"}}),
            "--platform-var:0:0: the value of platform variable 'bw' holds a newline");
  EXPECT_EQ(error_of("x: 1\n", {{"bw", "1"}}),
            "--platform-var:0:0: platform variable 'bw' is not used by p.yaml (it names: none)");
}

TEST(PlatformVars, AssignmentsFromTheCommandLine) {
  EXPECT_EQ(parse_platform_var("bw=25Gbps", "--platform-var"), std::make_pair(std::string("bw"), std::string("25Gbps")));
  EXPECT_EQ(parse_platform_var("x=a=b", "--platform-var").second, "a=b");
  EXPECT_THROW(parse_platform_var("bw", "--platform-var"), InputError);
  EXPECT_THROW(parse_platform_var("b-w=1", "--platform-var"), InputError);
  EXPECT_TRUE(is_platform_var_name("_a1"));
  EXPECT_FALSE(is_platform_var_name("1a"));
  EXPECT_FALSE(is_platform_var_name(""));
}

}  // namespace
}  // namespace simfab
