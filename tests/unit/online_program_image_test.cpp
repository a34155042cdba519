// ProgramImage (online mode): private copies of a program built as a shared object, and the errors
// for what cannot be loaded. The programs are compiled at test time with the system's C compiler
// (the test is skipped without one), and through the simfab-cc wrapper when the build has it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "online/program_image.hpp"

namespace simfab::online {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCounterProgram = R"(
static int counter;
static int constructed;
__attribute__((constructor)) static void init(void) { constructed = 1000; }
int bump(void) { return ++counter; }
int main(int argc, char** argv) { (void)argv; return argc == 0 ? constructed : bump(); }
)";

class OnlineProgramImage : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("cc --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no C compiler (cc)";
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) /
           ("simfab_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    if (!dir_.empty()) fs::remove_all(dir_, ignored);
  }

  // Compiles `source` with `compiler flags` into `output` (in the test's directory); its path.
  std::string build(const std::string& name, const std::string& source, const std::string& flags,
                    const std::string& compiler = "cc") {
    const fs::path src = dir_ / (name + ".c");
    std::ofstream(src) << source;
    const fs::path out = dir_ / name;
    const std::string command = compiler + " " + flags + " -o " + out.string() + " " + src.string();
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return out.string();
  }

  static std::string load_error(const std::string& path) {
    try {
      ProgramImage image(path);
      image.load_copy(0);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }

  fs::path dir_;
};

TEST_F(OnlineProgramImage, CopiesHaveIndependentGlobals) {
  ProgramImage image(build("counter.so", kCounterProgram, "-shared -fPIC"));
  char name[] = "app";
  char* argv[] = {name, nullptr};
  const ProgramImage::Main main0 = image.load_copy(0);
  const ProgramImage::Main main1 = image.load_copy(1);
  ASSERT_NE(main0, main1);
  int last = 0;
  for (int i = 0; i < 10; ++i) last = main0(1, argv);
  EXPECT_EQ(last, 10);
  EXPECT_EQ(main1(1, argv), 1);
  EXPECT_EQ(main0(0, argv), 1000);  // constructors ran at load, in each copy
  EXPECT_EQ(main1(0, argv), 1000);
  EXPECT_EQ(image.copies(), 2u);
  EXPECT_GT(image.image_bytes(), 0u);
  EXPECT_GT(image.writable_bytes(), 0u);
}

TEST_F(OnlineProgramImage, AThousandCopiesLoadWithoutKeepingFilesOpen) {
  ProgramImage image(build("counter.so", kCounterProgram, "-shared -fPIC"));
  char name[] = "app";
  char* argv[] = {name, nullptr};
  std::vector<ProgramImage::Main> mains;
  for (int i = 0; i < 1000; ++i) mains.push_back(image.load_copy(i));
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(mains[static_cast<size_t>(i)](1, argv), 1) << "copy " << i;
  EXPECT_EQ(mains[0](1, argv), 2);
  EXPECT_EQ(mains[999](1, argv), 2);
}

TEST_F(OnlineProgramImage, DebugInfoIsNotCopied) {
  const std::string path = build("debug.so", kCounterProgram, "-shared -fPIC -g");
  ProgramImage image(path);
  EXPECT_LT(image.image_bytes(), fs::file_size(path));
  char name[] = "app";
  char* argv[] = {name, nullptr};
  EXPECT_EQ(image.load_copy(0)(1, argv), 1);
}

TEST_F(OnlineProgramImage, MissingMainIsAnInputError) {
  const std::string path = build("nomain.so", "int bump(void) { return 1; }\n", "-shared -fPIC");
  EXPECT_THROW(ProgramImage{path}, InputError);
  EXPECT_NE(load_error(path).find("defines no `main`"), std::string::npos) << load_error(path);
}

TEST_F(OnlineProgramImage, ExecutablesAskForSimfabCc) {
  const std::string pie = build("pie", kCounterProgram, "-fPIE -pie");
  EXPECT_NE(load_error(pie).find("build it with simfab-cc"), std::string::npos) << load_error(pie);
  const std::string plain = build("plain", kCounterProgram, "-fno-PIE -no-pie");
  EXPECT_NE(load_error(plain).find("build it with simfab-cc"), std::string::npos) << load_error(plain);
  const std::string object = build("object.o", kCounterProgram, "-c");
  EXPECT_NE(load_error(object).find("object file"), std::string::npos) << load_error(object);
}

TEST_F(OnlineProgramImage, MissingAndNonElfFilesAreInputErrors) {
  EXPECT_NE(load_error((dir_ / "absent.so").string()).find("cannot read the program"), std::string::npos);
  std::ofstream(dir_ / "text.so") << "#!/bin/sh\necho not a program\n";
  EXPECT_NE(load_error((dir_ / "text.so").string()).find("not an ELF file"), std::string::npos);
}

TEST_F(OnlineProgramImage, UnimplementedMpiCallIsNamed) {
  const std::string path = build("fake.so",
                                 "int MPI_Fake_call(int);\n"
                                 "int main(int argc, char** argv) { (void)argv; return MPI_Fake_call(argc); }\n",
                                 "-shared -fPIC");
  const std::string error = load_error(path);
  EXPECT_NE(error.find("the program calls MPI_Fake_call, which simfab does not implement"),
            std::string::npos) << error;
  EXPECT_NE(error.find(path), std::string::npos) << error;
}

TEST_F(OnlineProgramImage, OtherUndefinedSymbolsReportTheDynamicLinkersMessage) {
  const std::string path = build("undef.so",
                                 "int helper_from_nowhere(int);\n"
                                 "int main(int argc, char** argv) { (void)argv; return helper_from_nowhere(argc); }\n",
                                 "-shared -fPIC");
  const std::string error = load_error(path);
  EXPECT_NE(error.find("undefined symbol: helper_from_nowhere"), std::string::npos) << error;
  EXPECT_EQ(error.find("/proc/self/fd"), std::string::npos) << error;
}

// The simfab-cc wrapper (configured next to the test binary's directory) makes a loadable program.
TEST_F(OnlineProgramImage, SimfabCcBuildsALoadableSharedObject) {
  const fs::path wrapper = fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "simfab-cc";
  if (!fs::exists(wrapper)) GTEST_SKIP() << "no " << wrapper;
  const std::string path = build("wrapped", kCounterProgram, "-O2", wrapper.string());
  ProgramImage image(path);
  char name[] = "app";
  char* argv[] = {name, nullptr};
  EXPECT_EQ(image.load_copy(0)(1, argv), 1);

  const std::string showme = (dir_ / "showme.txt").string();
  ASSERT_EQ(std::system((wrapper.string() + " --showme -O2 -o app app.c -lm > " + showme).c_str()), 0);
  std::string line;
  std::getline(std::ifstream(showme) >> std::ws, line);
  for (const char* part : {"-fPIC", "-shared", "-Wl,--wrap=exit", "-O2 -o app app.c -lm", "include/simfab/compat"})
    EXPECT_NE(line.find(part), std::string::npos) << part << " not in: " << line;
  ASSERT_EQ(std::system((wrapper.string() + " --showme -c app.c > " + showme).c_str()), 0);
  std::getline(std::ifstream(showme) >> std::ws, line);
  EXPECT_EQ(line.find("-shared"), std::string::npos) << line;
}

}  // namespace
}  // namespace simfab::online
