// simfab_start: what makes a program built by simfab-cc/-cxx/-fc runnable directly. The wrappers
// link this object into every program, with -Wl,-e,simfab_start_entry, so the shared object they
// make is also an executable (as libc.so.6 is: an .interp section names the dynamic linker, and
// the entry point below runs when the file is executed). Run directly, `./app args` execs
//   $SIMFAB exec -np $SIMFAB_NP --quiet ./app args       (SIMFAB: this build's simfab by default;
//                                                          SIMFAB_NP: 1 by default)
// so configure scripts and CMake's checks that run what they compile ("checking whether we are
// cross compiling", AC_RUN_IFELSE, try_run) work, and a user can run the program as a
// one-rank job. Loaded by simfab (dlopen), the entry point and .interp are never used.
//
// The entry runs before the C library's start-up code would call main (there is none for a shared
// object), so it uses only what the dynamic linker has already initialised: getenv, readlink,
// open/read, malloc, execv. It reads its arguments from /proc/self/cmdline (the entry point gets
// no argc/argv in C) and its own path from /proc/self/exe. Linux only (x86-64, AArch64).
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SIMFAB_PATH
#error "SIMFAB_PATH (the simfab executable) must be defined"
#endif

#if defined(__x86_64__)
extern "C" const char simfab_interp[] __attribute__((section(".interp"), used)) = "/lib64/ld-linux-x86-64.so.2";
#elif defined(__aarch64__)
extern "C" const char simfab_interp[] __attribute__((section(".interp"), used)) = "/lib/ld-linux-aarch64.so.1";
#else
#error "simfab_start: unknown dynamic linker for this architecture"
#endif

namespace {

void say(const char* a, const char* b = "", const char* c = "") {
  const char* parts[] = {a, b, c};
  for (const char* s : parts) {
    if (write(2, s, strlen(s)) < 0) return;
  }
}

// The whole of /proc/self/cmdline: NUL-separated arguments.
char* read_cmdline(size_t* n) {
  const int fd = open("/proc/self/cmdline", O_RDONLY);
  size_t cap = 4096, len = 0;
  char* buf = static_cast<char*>(malloc(cap));
  if (fd < 0 || buf == nullptr) return nullptr;
  for (;;) {
    if (len == cap) {
      char* bigger = static_cast<char*>(realloc(buf, cap *= 2));
      if (bigger == nullptr) return nullptr;
      buf = bigger;
    }
    const ssize_t got = read(fd, buf + len, cap - len);
    if (got <= 0) break;
    len += static_cast<size_t>(got);
  }
  close(fd);
  *n = len;
  return buf;
}

}  // namespace

extern "C" __attribute__((force_align_arg_pointer, noreturn, used)) void simfab_start_entry() {
  const char* simfab = getenv("SIMFAB");
  if (simfab == nullptr || *simfab == '\0') simfab = SIMFAB_PATH;
  const char* np = getenv("SIMFAB_NP");
  if (np == nullptr || *np == '\0') np = "1";
  static char self[PATH_MAX];
  const ssize_t self_len = readlink("/proc/self/exe", self, sizeof self - 1);
  size_t len = 0;
  char* cmdline = read_cmdline(&len);
  if (self_len <= 0 || cmdline == nullptr) {
    say("simfab_start: cannot read /proc/self/exe or /proc/self/cmdline\n");
    _exit(127);
  }
  self[self_len] = '\0';
  size_t count = 0;
  for (size_t i = 0; i < len; ++i) count += cmdline[i] == '\0';
  char** argv = static_cast<char**>(malloc((count + 7) * sizeof(char*)));
  if (argv == nullptr) _exit(127);
  size_t k = 0;
  argv[k++] = const_cast<char*>(simfab);
  argv[k++] = const_cast<char*>("exec");
  argv[k++] = const_cast<char*>("-np");
  argv[k++] = const_cast<char*>(np);
  argv[k++] = const_cast<char*>("--quiet");
  argv[k++] = self;
  // The program's own arguments: every cmdline entry after the first (its name).
  bool first = true;
  for (size_t i = 0; i < len; i += strlen(cmdline + i) + 1) {
    if (!first) argv[k++] = cmdline + i;
    first = false;
  }
  argv[k] = nullptr;
  execv(simfab, argv);
  say("simfab_start: cannot run ", simfab, " (set SIMFAB to the simfab executable)\n");
  _exit(127);
}
