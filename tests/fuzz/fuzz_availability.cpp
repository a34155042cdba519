// Fuzz target: availability profiles (platform/availability.hpp), SimGrid's `<date> <value>` text
// with PERIODICITY / LOOPAFTER, and the queries the models make on what parses: value_at,
// next_change, first_off and events_until over a bounded horizon. Any input ends in a profile or
// an InputError; next_change must move forward.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "platform/availability.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace simfab;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const Availability a = parse_availability(text, "'fuzz'", "fuzz.profile");
    SimTime t = SimTime::zero();
    for (int i = 0; i < 64 && t != SimTime::never(); ++i) {
      (void)a.value_at(t);
      (void)a.first_off(t);
      const SimTime next = a.next_change(t);
      SIMFAB_CHECK(next > t, "next_change did not move forward");
      t = next;
    }
    (void)a.events_until(SimTime::ps(1000));  // a short horizon: a 1 ps period is legal
  } catch (const InputError&) {
  }
  return 0;
}
