// ProgramImage (online mode): private copies of a program built as a shared object, and the errors
// for what cannot be loaded, under both loaders (simfab's CopyLinker and the system's dlopen). The
// programs are compiled at test time with the system's C compiler (the test is skipped without
// one), and through the simfab-cc wrapper when the build has it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "online/memory_maps.hpp"
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

using Loader = ProgramImage::Loader;

class OnlineProgramImage : public ::testing::TestWithParam<Loader> {
 protected:
  void SetUp() override {
    if (std::system("cc --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no C compiler (cc)";
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info->name();
    for (char& c : name)
      if (c == '/') c = '_';
    dir_ = fs::path(::testing::TempDir()) / ("simfab_" + name + "_" + std::to_string(::getpid()));
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

  // The image under the test's loader, prepared for `copies` copies, `per_mapping` to a mapping.
  static std::unique_ptr<ProgramImage> open(const std::string& path, size_t copies = 1, size_t per_mapping = 1) {
    auto image = std::make_unique<ProgramImage>(path, GetParam());
    image->prepare(copies, per_mapping);
    return image;
  }
  static ProgramImage::Main load(ProgramImage& image, int index) {
    static char name[] = "app";
    static char* argv[] = {name, nullptr};
    return image.load_copy(index, 1, argv);
  }

  static std::string load_error(const std::string& path) {
    try {
      load(*open(path), 0);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }

  fs::path dir_;
};

TEST_P(OnlineProgramImage, CopiesHaveIndependentGlobals) {
  auto owned = open(build("counter.so", kCounterProgram, "-shared -fPIC"), 2);
  ProgramImage& image = *owned;
  EXPECT_STREQ(image.loader_name(), GetParam() == Loader::kDlopen ? "dlopen" : "simfab");
  char name[] = "app";
  char* argv[] = {name, nullptr};
  const ProgramImage::Main main0 = load(image, 0);
  const ProgramImage::Main main1 = load(image, 1);
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

TEST_P(OnlineProgramImage, AThousandCopiesLoadWithoutKeepingFilesOpen) {
  auto image = open(build("counter.so", kCounterProgram, "-shared -fPIC"), 1000);
  char name[] = "app";
  char* argv[] = {name, nullptr};
  std::vector<ProgramImage::Main> mains;
  for (int i = 0; i < 1000; ++i) mains.push_back(load(*image, i));
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(mains[static_cast<size_t>(i)](1, argv), 1) << "copy " << i;
  EXPECT_EQ(mains[0](1, argv), 2);
  EXPECT_EQ(mains[999](1, argv), 2);
}

TEST_P(OnlineProgramImage, DebugInfoIsNotCopied) {
  const std::string path = build("debug.so", kCounterProgram, "-shared -fPIC -g");
  auto image = open(path);
  EXPECT_EQ(image->image_bytes(), open(build("plain.so", kCounterProgram, "-shared -fPIC"))->image_bytes());
  char name[] = "app";
  char* argv[] = {name, nullptr};
  EXPECT_EQ(load(*image, 0)(1, argv), 1);
}

TEST_P(OnlineProgramImage, MissingMainIsAnInputError) {
  const std::string path = build("nomain.so", "int bump(void) { return 1; }\n", "-shared -fPIC");
  EXPECT_THROW(ProgramImage(path, GetParam()), InputError);
  EXPECT_NE(load_error(path).find("defines no `main`"), std::string::npos) << load_error(path);
}

TEST_P(OnlineProgramImage, ExecutablesAskForSimfabCc) {
  const std::string pie = build("pie", kCounterProgram, "-fPIE -pie");
  EXPECT_NE(load_error(pie).find("build it with simfab-cc"), std::string::npos) << load_error(pie);
  const std::string plain = build("plain", kCounterProgram, "-fno-PIE -no-pie");
  EXPECT_NE(load_error(plain).find("build it with simfab-cc"), std::string::npos) << load_error(plain);
  const std::string object = build("object.o", kCounterProgram, "-c");
  EXPECT_NE(load_error(object).find("object file"), std::string::npos) << load_error(object);
}

TEST_P(OnlineProgramImage, MissingAndNonElfFilesAreInputErrors) {
  EXPECT_NE(load_error((dir_ / "absent.so").string()).find("cannot read the program"), std::string::npos);
  std::ofstream(dir_ / "text.so") << "#!/bin/sh\necho not a program\n";
  EXPECT_NE(load_error((dir_ / "text.so").string()).find("not an ELF file"), std::string::npos);
}

TEST_P(OnlineProgramImage, UnimplementedMpiCallIsNamed) {
  const std::string path = build("fake.so",
                                 "int MPI_Fake_call(int);\n"
                                 "int main(int argc, char** argv) { (void)argv; return MPI_Fake_call(argc); }\n",
                                 "-shared -fPIC");
  const std::string error = load_error(path);
  EXPECT_NE(error.find("the program calls MPI_Fake_call, which simfab does not implement"),
            std::string::npos) << error;
  EXPECT_NE(error.find(path), std::string::npos) << error;
}

TEST_P(OnlineProgramImage, OtherUndefinedSymbolsReportTheDynamicLinkersMessage) {
  const std::string path = build("undef.so",
                                 "int helper_from_nowhere(int);\n"
                                 "int main(int argc, char** argv) { (void)argv; return helper_from_nowhere(argc); }\n",
                                 "-shared -fPIC");
  const std::string error = load_error(path);
  EXPECT_NE(error.find("undefined symbol: helper_from_nowhere"), std::string::npos) << error;
  EXPECT_EQ(error.find("/proc/self/fd"), std::string::npos) << error;
}

// The simfab-cc wrapper (configured next to the test binary's directory) makes a loadable program.
TEST_P(OnlineProgramImage, SimfabCcBuildsALoadableSharedObject) {
  const fs::path wrapper = fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "simfab-cc";
  if (!fs::exists(wrapper)) GTEST_SKIP() << "no " << wrapper;
  const std::string path = build("wrapped", kCounterProgram, "-O2", wrapper.string());
  auto image = open(path);
  char name[] = "app";
  char* argv[] = {name, nullptr};
  EXPECT_EQ(load(*image, 0)(1, argv), 1);

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

// Copies grouped K to a memory mapping (CopyLinker) keep private globals; simfab's loader then holds
// about 1000 / K mappings for 1000 copies (the dynamic linker: 5 per copy).
TEST_P(OnlineProgramImage, GroupedCopiesStayPrivateInFewMappings) {
  const std::string path = build("counter.so", kCounterProgram, "-shared -fPIC");
  const size_t before = mappings_in_use();
  auto image = open(path, 1000, 7);
  char name[] = "app";
  char* argv[] = {name, nullptr};
  std::vector<ProgramImage::Main> mains;
  for (int i = 0; i < 1000; ++i) mains.push_back(load(*image, i));
  for (int i = 0; i < 1000; i += 3) ASSERT_EQ(mains[static_cast<size_t>(i)](1, argv), 1) << "copy " << i;
  EXPECT_EQ(mains[0](1, argv), 2);
  EXPECT_EQ(mains[1](1, argv), 1);  // copy 1 shares copy 0's mapping and memfd pages, not its globals
  EXPECT_EQ(mains[7](1, argv), 1);  // copy 7 maps the same memfd pages as copy 0
  const size_t added = mappings_in_use() - std::min(mappings_in_use(), before);
  if (GetParam() == Loader::kDlopen) {
    EXPECT_GE(added, 4000u);
  } else {
    // 143 group mappings, plus what the allocator maps meanwhile (dozens under AddressSanitizer).
    EXPECT_LE(added, 1000u / 7 + 64) << "mappings added for 1000 copies, 7 to a mapping";
  }
}

// Initialisers run when a copy loads, finalisers (destructors, atexit handlers) when the image goes.
TEST_P(OnlineProgramImage, DestructorsAndAtexitHandlersRunPerCopy) {
  const std::string log = (dir_ / "fini.log").string();
  const std::string source = "#include <stdio.h>\n#include <stdlib.h>\n"
                             "static void say(const char* what) { FILE* f = fopen(\"" + log + "\", \"a\"); "
                             "fprintf(f, \"%s\\n\", what); fclose(f); }\n"
                             "static void bye(void) { say(\"atexit\"); }\n"
                             "__attribute__((destructor)) static void done(void) { say(\"destructor\"); }\n"
                             "int main(int argc, char** argv) { (void)argc; (void)argv; atexit(bye); return 5; }\n";
  {
    auto image = open(build("fini.so", source, "-shared -fPIC"), 3);
    char name[] = "app";
    char* argv[] = {name, nullptr};
    for (int i = 0; i < 3; ++i) EXPECT_EQ(load(*image, i)(1, argv), 5);
    EXPECT_FALSE(fs::exists(log));
  }
  std::ifstream in(log);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  EXPECT_EQ(lines, (std::vector<std::string>{"destructor", "atexit", "destructor", "atexit", "destructor", "atexit"}));
}

// C++ exceptions thrown and caught inside a copy: its unwind tables are registered.
TEST_P(OnlineProgramImage, CxxExceptionsUnwindInsideCopies) {
  if (std::system("c++ --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no C++ compiler (c++)";
  const std::string source = "#include <stdexcept>\n#include <string>\n"
                             "static int calls = 0;\n"
                             "static int deep(int n) { if (n == 0) throw std::runtime_error(std::to_string(calls)); "
                             "return deep(n - 1) + 1; }\n"
                             "int main(int argc, char**) { ++calls; try { return deep(argc + 5); } "
                             "catch (const std::exception& e) { return 40 + std::stoi(e.what()); } }\n";
  auto image = open(build("throw.so", source, "-shared -fPIC -x c++", "c++"), 2);
  char name[] = "app";
  char* argv[] = {name, nullptr};
  const ProgramImage::Main main0 = load(*image, 0), main1 = load(*image, 1);
  EXPECT_EQ(main0(1, argv), 41);
  EXPECT_EQ(main0(1, argv), 42);
  EXPECT_EQ(main1(1, argv), 41);
}

// Needed libraries are found through the program's run path, and weak references to functions
// nobody defines resolve to null. $ORIGIN works under simfab's loader only (the dynamic linker sees
// each copy as /proc/self/fd/N: its origin is /proc/self/fd).
TEST_P(OnlineProgramImage, NeededLibrariesAndWeakReferences) {
  build("libhelper.so", "int helper(int x) { return 3 * x; }\n", "-shared -fPIC");
  fs::rename(dir_ / "libhelper.so", dir_ / "libsfhelper.so");
  const std::string path = build("uses.so",
                                 "int helper(int);\nextern int nowhere(void) __attribute__((weak));\n"
                                 "int main(int argc, char** argv) { (void)argv; return helper(argc) + (nowhere ? 100 : 0); }\n",
                                 "-shared -fPIC -L" + dir_.string() + " -Wl,--no-as-needed -lsfhelper -Wl,-rpath," +
                                     (GetParam() == Loader::kDlopen ? dir_.string() : "'$ORIGIN'"));
  auto image = open(path, 1);
  char name[] = "app";
  char* argv[] = {name, name, nullptr};
  EXPECT_EQ(load(*image, 0)(2, argv), 6);
}

// A large .bss (Fortran COMMON blocks, static arrays) costs nothing until a copy touches it: the
// loader holds the file's bytes only, and each copy's untouched zero pages are never materialised.
TEST_P(OnlineProgramImage, LargeBssCostsOnlyWhatIsTouched) {
  const auto resident_mib = [] {
    std::ifstream in("/proc/self/statm");
    long size = 0, resident = 0;
    in >> size >> resident;
    return resident * ::sysconf(_SC_PAGESIZE) / (1 << 20);
  };
  const std::string path = build("bss.so",
                                 "static char big[1L << 30];\n"
                                 "int main(int argc, char** argv) { (void)argv; big[argc] = 1; big[(1L << 30) - 1] = 2;"
                                 " return big[argc] + big[(1L << 30) - 1]; }\n",
                                 "-shared -fPIC");
  const long before = resident_mib();
  auto image = open(path, 4, 2);
  char name[] = "app";
  char* argv[] = {name, nullptr};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(load(*image, i)(1, argv), 3);
  EXPECT_LT(resident_mib() - before, 64) << "four copies of a program with a 1 GiB .bss";
}

// Thread-local storage is the dynamic linker's: `auto` falls back to it, `simfab` says why not.
TEST_P(OnlineProgramImage, ThreadLocalStorageFallsBackToTheDynamicLinker) {
  const std::string path = build("tls.so",
                                 "static __thread int depth;\n"
                                 "int main(int argc, char** argv) { (void)argv; depth += argc; return depth; }\n",
                                 "-shared -fPIC");
  if (GetParam() == Loader::kSimfab) {
    try {
      ProgramImage image(path, Loader::kSimfab);
      ADD_FAILURE() << "a program with thread-local storage loaded under online/loader=simfab";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("thread-local storage"), std::string::npos) << e.what();
    }
    ProgramImage image(path, Loader::kAuto);
    EXPECT_STREQ(image.loader_name(), "dlopen");
    image.prepare(1, 1);
    char name[] = "app";
    char* argv[] = {name, nullptr};
    EXPECT_EQ(image.load_copy(0, 1, argv)(1, argv), 1);
  } else {
    auto image = open(path, 1);
    char name[] = "app";
    char* argv[] = {name, nullptr};
    EXPECT_EQ(load(*image, 0)(1, argv), 1);
  }
}

INSTANTIATE_TEST_SUITE_P(Loaders, OnlineProgramImage, ::testing::Values(Loader::kSimfab, Loader::kDlopen),
                         [](const auto& info) { return info.param == Loader::kSimfab ? "simfab" : "dlopen"; });

}  // namespace
}  // namespace simfab::online
