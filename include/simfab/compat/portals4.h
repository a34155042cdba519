/* `#include <portals4.h>` for programs built with simfab-cc / simfab-cxx (which pass
 * -I include/simfab/compat): simfab's Portals 4 interface, declared in <simfab/portals4.h>. */
#include <simfab/portals4.h>
