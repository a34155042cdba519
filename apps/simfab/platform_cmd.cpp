//   simfab platform describe FILE [--json]
//   simfab platform routes FILE --from HOST --to HOST [--salt N] [--json]
//   simfab platform routes FILE --all
//     every ordered pair of hosts, a host to itself included, in host order, one line each:
//     "<a> <b> <latency in us, %g> : <link> <link> ..." ("<a> <b> none" without route), the
//     format of validation/simgrid/routes/sg_route_table.cpp, which prints SimGrid's.
//   simfab platform export FILE --format dot|json|lft [-o FILE]
// Each takes --platform-var NAME=VALUE (repeatable): the values of the file's ${NAME}.
#include "platform_cmd.hpp"

#include <charconv>
#include <cstdio>
#include <iostream>

#include "cli_options.hpp"
#include "core/atomic_file.hpp"
#include "core/spelling.hpp"
#include "platform/load_platform.hpp"
#include "report/platform_report.hpp"
#include "topo/export.hpp"

namespace simfab {
namespace {

HostId named_host(const Platform& p, const std::string& option, const std::string& name) {
  if (auto h = p.find_host(name)) return *h;
  std::string msg = "unknown host '" + name + "' for " + option + " in " + p.source();
  if (p.host_count() <= 4096) {
    std::vector<std::string_view> names;
    for (const Host& h : p.hosts()) names.push_back(h.name);
    const std::string near = nearest_name(name, names);
    if (!near.empty()) msg += " (did you mean '" + near + "'?)";
  }
  throw usage_error(msg);
}

int describe(const std::string& file, const std::vector<std::string>& rest, const PlatformVars& vars) {
  bool json = false;
  static constexpr CliOption kOptions[] = {{"--json", false}};
  parse_options(rest, kOptions, [&](std::string_view, const std::string&) { json = true; });
  describe_platform(std::cout, load_platform(file, &std::cerr, vars), json);
  return 0;
}

void print_route_table(std::ostream& out, const Platform& p) {
  std::vector<LinkId> links;
  for (HostId a = 0; a < p.host_count(); ++a) {
    for (HostId b = 0; b < p.host_count(); ++b) {
      out << p.host(a).name << ' ' << p.host(b).name;
      const auto s = p.route_summary(a, b);
      if (!s || !p.route_into(a, b, links)) {
        out << " none\n";
        continue;
      }
      char lat[40];
      std::snprintf(lat, sizeof lat, " %g :", static_cast<double>(s->latency.ps()) / 1e6);
      out << lat;
      for (LinkId l : links) out << ' ' << p.link(l).name;
      out << '\n';
    }
  }
}

int routes(const std::string& file, const std::vector<std::string>& rest, const PlatformVars& vars) {
  std::string from, to;
  bool json = false, all = false;
  RouteRequest req;
  static constexpr CliOption kOptions[] = {{"--from"}, {"--to"}, {"--salt"}, {"--json", false}, {"--all", false}};
  parse_options(rest, kOptions, [&](std::string_view name, const std::string& value) {
    if (name == "--from") from = value;
    else if (name == "--to") to = value;
    else if (name == "--json") json = true;
    else if (name == "--all") all = true;
    else if (auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), req.salt);
             ec != std::errc() || end != value.data() + value.size())
      throw usage_error("--salt takes a non-negative integer (the per-message randomness), got '" + value + "'");
  });
  if (all) {
    if (!from.empty() || !to.empty() || json) throw usage_error("--all prints every pair; it takes no --from, --to or --json");
    print_route_table(std::cout, load_platform(file, &std::cerr, vars));
    return 0;
  }
  if (from.empty() || to.empty()) throw usage_error("give both ends: --from HOST --to HOST (or --all)");
  const Platform p = load_platform(file, &std::cerr, vars);
  const HostId a = named_host(p, "--from", from), b = named_host(p, "--to", to);
  if (!p.route(a, b, req))
    throw InputError(SourceLoc{file, 0, 0}, "no route from host '" + from + "' to host '" + to +
                                                "' (they share no cluster or topology and no explicit route joins them)");
  print_route(std::cout, p, a, b, req, json);
  return 0;
}

int export_graph(const std::string& file, const std::vector<std::string>& rest, const PlatformVars& vars) {
  std::string format, out_path;
  static constexpr CliOption kOptions[] = {{"--format"}, {"-o"}, {"--output"}};
  parse_options(rest, kOptions, [&](std::string_view name, const std::string& value) {
    (name == "--format" ? format : out_path) = value;
  });
  if (format != "dot" && format != "json" && format != "lft")
    throw usage_error("--format must be dot, json or lft, got '" + format + "'");
  const Platform p = load_platform(file, &std::cerr, vars);
  auto write = [&](std::ostream& out) {
    if (format == "dot") write_dot(out, p);
    else if (format == "json") write_graph_json(out, p);
    else if (!write_lft(out, p))
      throw InputError(SourceLoc{file, 0, 0}, "no topology of this platform routes by destination; linear "
                                              "forwarding tables exist for fat-trees under d-mod-k, tori and "
                                              "graphs under shortest-path routing");
  };
  if (out_path.empty()) write(std::cout);
  else write_file_atomically(out_path, "the export file", write);
  return 0;
}

}  // namespace

int cmd_platform(const std::vector<std::string>& args) {
  if (args.size() < 2 || args[1].rfind("-", 0) == 0)
    throw usage_error("expected 'simfab platform describe|routes|export FILE ...'");
  // --platform-var NAME=VALUE (every subcommand, repeatable): the file's ${NAME}.
  PlatformVars vars;
  std::vector<std::string> rest;
  for (size_t i = 2; i < args.size(); ++i) {
    if (args[i] == "--platform-var" || args[i].rfind("--platform-var=", 0) == 0) {
      const bool inline_value = args[i].size() > 14;
      if (!inline_value && i + 1 == args.size()) throw usage_error("option --platform-var needs a value");
      vars.push_back(parse_platform_var(inline_value ? args[i].substr(15) : args[++i], "--platform-var"));
    } else {
      rest.push_back(args[i]);
    }
  }
  if (args[0] == "describe") return describe(args[1], rest, vars);
  if (args[0] == "routes") return routes(args[1], rest, vars);
  if (args[0] == "export") return export_graph(args[1], rest, vars);
  throw usage_error("unknown platform command '" + args[0] + "'; expected describe, routes or export");
}

}  // namespace simfab
