// Ctrl-C and kill: SIGINT / SIGTERM end simfab cleanly. The handler removes every output not
// complete yet (core/atomic_file.hpp's pending outputs: temporary files, directories the run made,
// partial OTF2 archives), prints one line saying where the run was, and exits 128 + the signal
// (130, 143), as shells expect:
//   simfab: interrupted by SIGINT at simulated time 1234567 ps after 89012 events; nothing written
// (without a simulation running: "interrupted by SIGINT; nothing written"). The handler only
// reads the running engine's clock and counter (64-bit loads), formats into a stack buffer and
// calls write(2) and _exit(2): async-signal-safe.
#pragma once

namespace simfab {

class Engine;

// Installs the handlers (once, at the start of main).
void install_interrupt_handlers();
// The engine whose clock an interrupt reports (nullptr: none is running).
void set_interrupt_engine(const Engine* engine);
// What the line ends with instead of "; nothing written\n" (nullptr: that), for commands whose
// finished work survives: `simfab sweep` says its CSV keeps the points done. REQUIRES: `ending`
// lives until the process exits or it is reset.
void set_interrupt_ending(const char* ending);

}  // namespace simfab
