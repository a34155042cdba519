// sg_route_table: SimGrid 3.32's route for every ordered host pair of a platform, a host to itself
// included, as the reference the simfab route tables are compared with (compare_routes.py).
//
//   sg_route_table PLATFORM.xml [SimGrid --cfg/--log options]
//
// Loads the platform (s4u::Engine::load_platform), puts the hosts in natural name order (runs of
// digits compare as numbers: n2 < n10; SimGrid keeps no declaration order across zones), and
// prints for each pair (a, b), a and b in that order, one line
//
//   <a> <b> <latency in us, %g> : <link name> <link name> ...
//
// from Host::route_to(b, links, &latency): the links in SimGrid's order, the latency their sum.
// A pair whose route is empty prints "<a> <b> 0 :". No actor is created and nothing is simulated.
// simfab's side of the comparison is `simfab routes PLATFORM.xml` (the same format).
//
// Not part of simfab (nothing in simfab links SimGrid). Build:
//   g++ -O1 -std=c++17 validation/simgrid/routes/sg_route_table.cpp -o sg_route_table -lsimgrid
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// Natural order: digit runs compare by value, everything else by character.
bool natural_less(const std::string& x, const std::string& y) {
  size_t i = 0, j = 0;
  while (i < x.size() && j < y.size()) {
    if (std::isdigit(static_cast<unsigned char>(x[i])) && std::isdigit(static_cast<unsigned char>(y[j]))) {
      size_t ei = i, ej = j;
      while (ei < x.size() && std::isdigit(static_cast<unsigned char>(x[ei]))) ++ei;
      while (ej < y.size() && std::isdigit(static_cast<unsigned char>(y[ej]))) ++ej;
      const unsigned long long a = std::stoull(x.substr(i, ei - i)), b = std::stoull(y.substr(j, ej - j));
      if (a != b) return a < b;
      i = ei;
      j = ej;
    } else {
      if (x[i] != y[j]) return x[i] < y[j];
      ++i;
      ++j;
    }
  }
  return x.size() - i < y.size() - j;
}

}  // namespace

int main(int argc, char** argv) {
  simgrid::s4u::Engine e(&argc, argv);  // takes out the --cfg / --log options
  if (argc != 2) {
    std::fprintf(stderr, "usage: sg_route_table PLATFORM.xml [--cfg=... --log=...]\n");
    return 2;
  }
  e.load_platform(argv[1]);
  e.seal_platform();
  std::vector<simgrid::s4u::Host*> hosts = e.get_all_hosts();
  std::sort(hosts.begin(), hosts.end(), [](const simgrid::s4u::Host* x, const simgrid::s4u::Host* y) {
    return natural_less(x->get_name(), y->get_name());
  });
  std::vector<simgrid::s4u::Link*> links;
  for (auto* a : hosts) {
    for (auto* b : hosts) {
      links.clear();
      double latency = 0;
      a->route_to(b, links, &latency);
      std::string line = a->get_name() + " " + b->get_name();
      char lat[40];
      std::snprintf(lat, sizeof lat, " %g :", latency * 1e6);
      line += lat;
      for (const auto* l : links) line += " " + l->get_name();
      std::puts(line.c_str());
    }
  }
  return 0;
}
